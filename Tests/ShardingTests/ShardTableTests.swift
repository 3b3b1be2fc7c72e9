import Sharding
import Testing
import Wire
import TestTiers

/// Owners and standbys per bucket: the standby is the instance that owns a bucket once its
/// owner leaves, so the states it holds are the ones it will need.
@Suite(.tags(.unit))
struct ShardTableTests {
    @Test func noMemberNoOwnerAndOneMemberNoStandby() {
        let none = ShardTable(members: []), one = ShardTable(members: ["a"])
        for bucket in 0..<Topic.bucketCount {
            #expect(none.owner(ofBucket: bucket) == nil && none.standby(ofBucket: bucket) == nil)
            #expect(one.owner(ofBucket: bucket) == "a" && one.standby(ofBucket: bucket) == nil)
        }
    }

    @Test func theOwnerIsRendezvousAndTheStandbyAnotherMember() {
        let members = ["pp-a", "pp-b", "pp-c"]
        let table = ShardTable(members: members)
        for bucket in 0..<Topic.bucketCount {
            let owner = table.owner(ofBucket: bucket), standby = table.standby(ofBucket: bucket)
            #expect(owner == Rendezvous.owner(of: Topic.bucketName(bucket), among: members))
            #expect(standby != nil && standby != owner)
        }
    }

    @Test func whenTheOwnerLeavesItsStandbyOwnsTheBucket() throws {
        let members = ["pp-a", "pp-b", "pp-c"]
        let table = ShardTable(members: members)
        for bucket in 0..<Topic.bucketCount {
            let owner = try #require(table.owner(ofBucket: bucket))
            let after = ShardTable(members: members.filter { $0 != owner })
            #expect(after.owner(ofBucket: bucket) == table.standby(ofBucket: bucket), "bucket \(bucket)")
        }
    }

    @Test func aDevicesBucketIsItsTopicsBucket() {
        for device in ["ipad-7", "", "é-device", "shard-dev-12"] {
            #expect(Topic.bucketName(ShardTable.bucket(of: device)) == Topic.bucket(ofDevice: device))
        }
    }
}
