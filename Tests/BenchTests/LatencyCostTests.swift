@testable import Bench
import Testing
import TestTiers

/// `bench --latency-cost`'s parts: the line through the p50s, the echo's extra work and where a
/// ping asks for it.
@Suite(.tags(.unit)) struct LatencyCostTests {
    @Test func theLineThroughExactPointsIsTheirs() {
        let line = LeastSquares(x: [0, 25_000, 50_000, 100_000], y: [150, 157.5, 165, 180])
        #expect(abs(line.slope - 0.0003) < 1e-12)
        #expect(abs(line.intercept - 150) < 1e-9)
    }

    @Test func theLineOfScatteredPointsMinimisesTheSquares() {
        // y = 1 + 2x fits (0,1),(1,3),(2,5) exactly; moving the middle point up by 3 moves the
        // intercept by 1 and leaves the slope.
        let line = LeastSquares(x: [0, 1, 2], y: [1, 6, 5])
        #expect(abs(line.slope - 2) < 1e-12)
        #expect(abs(line.intercept - 2) < 1e-12)
        #expect(LeastSquares(x: [3, 3], y: [1, 2]).slope == 0)
    }

    @Test func theSpinRunsEveryStepAndNoneForNone() {
        #expect(Spin.run(0) == 0)
        #expect(Spin.run(-1) == 0)
        // Each step needs the last: one more step changes the result.
        #expect(Spin.run(1_000) != Spin.run(1_001))
        #expect(Spin.run(3) == Spin.run(3))
    }

    @Test func aPingCarriesItsWorkInBytes16To24() {
        var payload = [UInt8](repeating: UInt8(ascii: "x"), count: 32)
        RawWire.stamp(7, into: &payload)
        RawWire.stamp(12_345, into: &payload, at: 16)
        #expect(RawWire.sequence(of: payload) == 7)
        #expect(RawWire.value(in: payload, at: 16) == 12_345)
        #expect(RawWire.value(in: payload, at: 8) == 0x7878_7878_7878_7878)
    }
}
