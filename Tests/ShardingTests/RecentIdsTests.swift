@testable import Sharding
import Testing
import TestTiers

/// The last ids carried with a device's state: bounded, found by id, and whether any was decided here.
@Suite(.tags(.unit))
struct RecentIdsTests {
    @Test func anIdIsFoundUntilPushedOut() {
        var ids = RecentIds(inherited: (1...16).map { "old-\($0)" })
        #expect(ids.contains("old-1") && ids.contains("old-16") && ids.decidedNothingHere)
        #expect(!ids.contains("new-1"))
        ids.append("new-1")
        #expect(ids.ids.count == RecentIds.limit && !ids.decidedNothingHere)
        #expect(!ids.contains("old-1") && ids.contains("old-2") && ids.contains("new-1"))
        for n in 2...16 { ids.append("new-\(n)") }
        #expect(!ids.contains("old-16"))
        #expect(ids.ids == (1...16).map { "new-\($0)" })
    }

    /// Ids that end alike (one client's, a counter apart by a power of 256 in their last bytes)
    /// or are as long are still told apart by the whole id.
    @Test func idsEndingAlikeAreToldApart() {
        var ids = RecentIds()
        ids.append("3f9a0c2b7d41e855-1234567")
        #expect(ids.contains("3f9a0c2b7d41e855-1234567"))
        #expect(!ids.contains("0000000000000000-1234567"))
        #expect(!ids.contains("3f9a0c2b7d41e855-1234568"))
        #expect(!ids.contains("5-1234567"))
    }

    @Test func moreThanTheLimitFromTheWireKeepsTheLast() {
        let ids = RecentIds(inherited: (1...40).map { "id-\($0)" })
        #expect(ids.ids == (25...40).map { "id-\($0)" })
        #expect(ids.contains("id-40") && !ids.contains("id-24"))
    }
}
