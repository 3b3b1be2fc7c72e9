import Sharding
import Testing
import TestTiers

/// Sharding's configuration: off unless `ETCD_ENDPOINTS` is set; bad values refused clearly.
@Suite(.tags(.unit))
struct ShardConfigTests {
    @Test func withoutEtcdEndpointsThereIsNoSharding() throws {
        #expect(try ShardConfig.fromEnvironment([:]) == nil)
        #expect(try ShardConfig.fromEnvironment(["ETCD_ENDPOINTS": ""]) == nil)
    }

    @Test func theFirstEndpointTheInstanceAndTheTTL() throws {
        let config = try #require(try ShardConfig.fromEnvironment([
            "ETCD_ENDPOINTS": "http://10.0.0.1:2379,http://10.0.0.2:2379", "INSTANCE_ID": "pp-0", "SHARD_LEASE_TTL_SECONDS": "5",
        ]))
        #expect(config == ShardConfig(endpoint: "http://10.0.0.1:2379", instance: "pp-0", leaseSeconds: 5))
        #expect(try ShardConfig.fromEnvironment(["ETCD_ENDPOINTS": "http://e:2379"])?.leaseSeconds == 3)
    }

    /// The lease's TTL is a whole number of seconds from 1 to 300: both ends taken, one past either refused.
    @Test func theLeaseTTLRangeHoldsAtBothEnds() throws {
        for seconds in [1, 300] {
            #expect(try ShardConfig.fromEnvironment(["ETCD_ENDPOINTS": "http://e", "SHARD_LEASE_TTL_SECONDS": String(seconds)])?.leaseSeconds == seconds)
        }
        for seconds in [0, 301] {
            let error = #expect(throws: EtcdError.self, "\(seconds)") {
                try ShardConfig.fromEnvironment(["ETCD_ENDPOINTS": "http://e", "SHARD_LEASE_TTL_SECONDS": String(seconds)])
            }
            #expect(error?.description.contains("SHARD_LEASE_TTL_SECONDS") == true)
        }
    }

    @Test func badValuesAreRefused() {
        #expect(throws: EtcdError.self) { try ShardConfig.fromEnvironment(["ETCD_ENDPOINTS": "http://e", "SHARD_LEASE_TTL_SECONDS": "0"]) }
        #expect(throws: EtcdError.self) { try ShardConfig.fromEnvironment(["ETCD_ENDPOINTS": "http://e", "SHARD_LEASE_TTL_SECONDS": "soon"]) }
        #expect(throws: EtcdError.self) { try ShardConfig.fromEnvironment(["ETCD_ENDPOINTS": "http://e", "INSTANCE_ID": "a/b"]) }
        #expect(throws: EtcdError.self) { try ShardConfig.fromEnvironment(["ETCD_ENDPOINTS": "http://e", "INSTANCE_ID": "a b"]) }
    }
}
