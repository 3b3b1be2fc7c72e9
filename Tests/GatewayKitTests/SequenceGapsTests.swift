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

    /// The two buses of a pair are both `bus`, each with its own numbers (and ids' prefix):
    /// alternating between them is no gap; a gap in one is.
    @Test func eachBusOfAPairIsFollowedOnItsOwn() {
        var gaps = SequenceGaps()
        func bus(_ prefix: String, _ seq: UInt64) -> Envelope {
            Envelope(id: "\(prefix)-\(seq)", correlationId: "c", service: "bus", device: nil, seq: seq, time: "t", body: .ping(Ping()))
        }
        #expect(gaps.observe(bus("aaaa", 100)) == nil)
        #expect(gaps.observe(bus("bbbb", 57)) == nil)
        #expect(gaps.observe(bus("aaaa", 101)) == nil)
        #expect(gaps.observe(bus("bbbb", 58)) == nil)
        #expect(gaps.observe(bus("bbbb", 61)) == 2)
        #expect(gaps.missed == ["bus": 2])
    }
}
