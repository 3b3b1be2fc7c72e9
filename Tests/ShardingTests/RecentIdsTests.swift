@testable import Sharding
import Testing
import TestTiers

/// The last ids carried with a device's state: bounded, and only the previous owner's looked through.
@Suite(.tags(.unit))
struct RecentIdsTests {
    @Test func idsHandledHereAreTheDeliveryWindowsNotLookedThrough() {
        var ids = RecentIds()
        ids.append("a-1")
        #expect(ids.ids == ["a-1"])
        #expect(!ids.inherits("a-1"))
    }

    @Test func thePreviousOwnersIdsAreDuplicatesUntilPushedOut() {
        var ids = RecentIds(inherited: (1...16).map { "old-\($0)" })
        #expect(ids.inherits("old-1") && ids.inherits("old-16"))
        #expect(!ids.inherits("new-1"))
        ids.append("new-1")
        #expect(ids.ids.count == RecentIds.limit)
        #expect(!ids.inherits("old-1") && ids.inherits("old-2") && !ids.inherits("new-1"))
        for n in 2...16 { ids.append("new-\(n)") }
        #expect(!ids.inherits("old-16"))
        #expect(ids.ids == (1...16).map { "new-\($0)" })
    }

    @Test func moreThanTheLimitFromTheWireKeepsTheLast() {
        let ids = RecentIds(inherited: (1...40).map { "id-\($0)" })
        #expect(ids.ids == (25...40).map { "id-\($0)" })
        #expect(ids.inherits("id-40") && !ids.inherits("id-24"))
    }
}
