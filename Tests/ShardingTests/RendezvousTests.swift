import Sharding
import Testing
import Wire
import TestTiers

/// Rendezvous hashing: one owner per device, the work divides, and a leaving member's devices
/// are the only ones that move.
@Suite(.tags(.unit))
struct RendezvousTests {
    let devices = (0..<3000).map { "device-\($0)" }

    @Test func noMemberOwnsNothing() {
        #expect(Rendezvous.owner(of: "d", among: []) == nil)
    }

    @Test func theOwnerDoesNotDependOnTheOrderOfTheMembers() {
        for device in devices.prefix(200) {
            #expect(Rendezvous.owner(of: device, among: ["a", "b", "c"]) == Rendezvous.owner(of: device, among: ["c", "a", "b"]))
        }
    }

    @Test func eachMemberOwnsAFairShare() throws {
        var counts: [String: Int] = [:]
        for device in devices { counts[try #require(Rendezvous.owner(of: device, among: ["a", "b", "c"])), default: 0] += 1 }
        for member in ["a", "b", "c"] { #expect((800...1200).contains(counts[member] ?? 0), "\(counts)") }
    }

    @Test func whenAMemberLeavesOnlyItsDevicesMove() throws {
        var moved = 0
        for device in devices {
            let before = try #require(Rendezvous.owner(of: device, among: ["a", "b", "c"]))
            let after = try #require(Rendezvous.owner(of: device, among: ["a", "c"]))
            if before != "b" { #expect(after == before) } else { moved += 1 }
        }
        #expect(moved > 0)
    }

    @Test func eachMemberOwnsAFairShareOfTheBuckets() {
        let members = ["a", "b", "c"]
        let table = ShardTable(members: members)
        let owned = members.map { member in (0..<Topic.bucketCount).filter { table.owner(ofBucket: $0) == member }.count }
        #expect(owned.reduce(0, +) == Topic.bucketCount)
        #expect(owned.allSatisfy { $0 > 40 }, "\(owned)")
    }
}
