@testable import GatewayKit
import Domain
import Testing
import Wire
import TestTiers

/// What a watcher missed, from the components' sequence numbers.
@Suite(.tags(.inMemory)) struct SequenceGapsTests {
    func envelope(_ service: String, _ seq: UInt64) -> Envelope {
        Envelope(id: "\(service)-\(seq)", correlationId: "c", service: service, device: nil, seq: seq, time: "t", body: .ping(Ping()))
    }

    @Test func aJumpIsReportedOnceWithItsSize() {
        var gaps = SequenceGaps()
        #expect(gaps.observe(envelope("roster", 7)) == nil)
        #expect(gaps.observe(envelope("roster", 8)) == nil)
        #expect(gaps.observe(envelope("roster", 20)) == 11)
        #expect(gaps.observe(envelope("roster", 21)) == nil)
        #expect(gaps.observe(envelope("roster", 23)) == 1)
        #expect(gaps.missed == ["roster": 12])
    }

    @Test func aRestartIsNotAGapAndClientsAreNotFollowed() {
        var gaps = SequenceGaps()
        #expect(gaps.observe(envelope("bus", 500)) == nil)
        #expect(gaps.observe(envelope("bus", 1)) == nil)
        #expect(gaps.observe(envelope("bus", 2)) == nil)
        #expect(gaps.observe(envelope("gateway", 1)) == nil)
        #expect(gaps.observe(envelope("gateway", 90)) == nil)
        #expect(gaps.missed.isEmpty)
    }
}
