@testable import Bench
import Testing
import TestTiers

/// The sustained run's bookkeeping: actions by their id's counter (`PREFIX-N`), as the raw echo's
/// windowed run tracks pings by sequence number; each acknowledged once, a second ack a duplicate.
@Suite(.tags(.unit)) struct TrackedActionsTests {
    @Test func anIdsCounterIsReadOnlyAfterItsOwnPrefix() {
        let prefix = Array("3f9a0c2b7d41e855-".utf8)
        func counter(_ id: String) -> UInt64? { Array(id.utf8).withUnsafeBytes { IDCounter.counter(of: $0, after: prefix) } }
        #expect(counter("3f9a0c2b7d41e855-17") == 17)
        #expect(counter("3f9a0c2b7d41e855-0") == 0)
        #expect(counter("3f9a0c2b7d41e856-17") == nil)
        #expect(counter("3f9a0c2b7d41e855-") == nil)
        #expect(counter("3f9a0c2b7d41e855-1x") == nil)
        #expect(counter("3f9a0c2b7d41e855-99999999999999999999") == nil)
        #expect(IDCounter.split("ab-cd-42").map { (String(decoding: $0.prefix, as: UTF8.self), $0.counter) } ?? ("", 0) == ("ab-cd-", 42))
        #expect(IDCounter.split("no-dash-digits-x") == nil)
    }

    @Test func eachActionIsInFlightUntilItsFirstAck() throws {
        var tracked = TrackedActions()
        try tracked.sent("p-5", at: 1)
        try tracked.sent("p-7", at: 2)  // 6 was not this run's
        #expect(tracked.inFlight == 2)
        #expect(throws: BenchError.self) { try tracked.sent("q-8", at: 3) }
        #expect(throws: BenchError.self) { try tracked.sent("p-4", at: 3) }
        let decided = (tracked.decide(0), tracked.decide(2))
        #expect(decided == (true, true))
        let acks = (tracked.acknowledge(2), tracked.acknowledge(2))
        #expect(acks.0 == 2 && acks.1 == nil)
        let late = tracked.decide(2)
        #expect(!late)
        #expect(tracked.isInFlight(0) && !tracked.isInFlight(2))
        #expect(tracked.inFlight == 1)
    }
}
