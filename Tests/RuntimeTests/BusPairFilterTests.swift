import Runtime
import Testing
import TestTiers

/// Which copies a process takes from a pair of buses: each send once, whichever bus brings it
/// first, a sender's repeat again, a pair copy never.
@Suite(.tags(.unit)) struct BusPairFilterTests {
    /// Whether each copy (an id, the bus that brought it) is taken, in order.
    func taken(_ copies: [(String, Int)], by filter: inout BusPairFilter) -> [Bool] {
        copies.map { filter.admit($0.0, from: $0.1) }
    }

    func taken(_ copies: [(String, Int)], capacity: Int = 10) -> [Bool] {
        var filter = BusPairFilter(capacity: capacity)
        return taken(copies, by: &filter)
    }

    @Test func theFirstCopyOfASendIsTakenAndThePairCopyDropped() {
        #expect(taken([("a", 0), ("a", 1)]) == [true, false])
        // Whichever bus is first; other ids in between.
        #expect(taken([("b", 1), ("c", 0), ("b", 0), ("c", 1)]) == [true, true, false, false])
    }

    /// A sender's retry with the same id (the gateway's `GATEWAY_RETRY_MS`) is a new send: it
    /// goes on to the runtime, which answers it as a duplicate; its own pair copy is dropped.
    @Test func aRepeatFromTheSameBusIsANewSendAndItsPairCopyIsDropped() {
        #expect(taken([("a", 0), ("a", 1), ("a", 0), ("a", 1)]) == [true, false, true, false])
        // Both sends on bus 0 before either on bus 1; then a third, first on bus 1.
        #expect(taken([("c", 0), ("c", 0), ("c", 1), ("c", 1), ("c", 1), ("c", 0)]) == [true, true, false, false, true, false])
    }

    /// A bus that lost copies (down, or restarted) falls behind: the other bus's are taken, and
    /// its own only once it brings a send the other has not.
    @Test func aBusThatLostCopiesOnlyFallsBehind() {
        #expect(taken([("a", 1), ("a", 1), ("a", 0), ("a", 0), ("a", 0), ("a", 1)]) == [true, true, false, false, true, false])
    }

    /// At most `capacity` ids, the oldest forgotten first: a pair copy after that is taken (and
    /// the runtime's window answers it as a duplicate), never dropped wrongly.
    @Test func itRemembersAtMostItsCapacityTheOldestForgottenFirst() {
        var filter = BusPairFilter(capacity: 3)
        #expect(taken([("a", 0), ("b", 0), ("c", 0), ("d", 0)], by: &filter) == [true, true, true, true])
        #expect(filter.count == 3)
        // "a" was forgotten: its pair copy is taken. "d" is remembered: its copy dropped.
        #expect(taken([("a", 1), ("d", 1)], by: &filter) == [true, false])
        #expect(filter.count == 3)
        #expect(BusPairFilter(capacity: 0).capacity == 1)
    }
}
