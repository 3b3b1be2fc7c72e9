import ProcessSupport
import Testing
import TestTiers

/// A flood of alike log lines becomes the first one and a summary per interval.
@Suite(.tags(.unit)) struct LogThrottleTests {
    @Test func theFirstIsWrittenThenOnePerIntervalCountingWhatWasHeldBack() {
        var throttle = LogThrottle(interval: 10)
        #expect(throttle.note(now: 100) == .write(heldBack: 0))
        for step in 1...1999 { #expect(throttle.note(now: 100 + Double(step) / 1000) == .hold) }
        #expect(throttle.note(now: 110) == .write(heldBack: 1999))
        #expect(throttle.note(now: 115) == .hold)
        #expect(throttle.note(now: 130) == .write(heldBack: 1))
        #expect(throttle.note(now: 200) == .write(heldBack: 0))
    }

    @Test func twoThousandOccurrencesInASecondWriteOneLine() {
        var throttle = LogThrottle(interval: 10)
        let written = (0..<2000).filter { throttle.note(now: Double($0) / 2000) != .hold }
        #expect(written.count == 1)
    }
}
