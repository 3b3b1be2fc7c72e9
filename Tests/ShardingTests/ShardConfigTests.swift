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

    @Test func everyEndpointTheInstanceAndTheTTL() throws {
        let config = try #require(try ShardConfig.fromEnvironment([
            "ETCD_ENDPOINTS": "http://10.0.0.1:2379, http://10.0.0.2:2379 ,http://etcd-2.etcd:2379", "INSTANCE_ID": "pp-0",
            "SHARD_LEASE_TTL_SECONDS": "5",
        ]))
        let endpoints = try ["http://10.0.0.1:2379", "http://10.0.0.2:2379", "http://etcd-2.etcd:2379"].map(EtcdEndpoint.init)
        #expect(config == ShardConfig(endpoints: endpoints, instance: "pp-0", leaseSeconds: 5))
        #expect(try ShardConfig.fromEnvironment(["ETCD_ENDPOINTS": "http://e:2379"])?.leaseSeconds == 3)
        #expect(try ShardConfig.fromEnvironment(["ETCD_ENDPOINTS": "http://e:2379"])?.endpoints.map(\.url) == ["http://e:2379"])
    }

    /// Every member is checked at start, and the error names the entry: a typo in the third
    /// member's URL is found now, not the day the first member fails.
    @Test func aBadMemberIsRefusedByName() {
        let refused: [(String, String)] = [
            ("http://a:2379,http://b:2379,htp://c:2379", "ETCD_ENDPOINTS entry 3 of 3: etcd endpoint 'htp://c:2379' is not an http URL"),
            ("http://a:2379,https://b:2379", "ETCD_ENDPOINTS mixes http:// and https:// ('https://b:2379')"),
            ("https://a:2379,http://b:2379", "ETCD_ENDPOINTS mixes http:// and https:// ('http://b:2379')"),
            ("http://a:2379,http://b:0", "ETCD_ENDPOINTS entry 2 of 2: etcd endpoint 'http://b:0' is not an http URL"),
            ("http://a:2379,,http://c:2379", "ETCD_ENDPOINTS 'http://a:2379,,http://c:2379': entry 2 of 3 is empty"),
            ("http://a:2379,", "entry 2 of 2 is empty"),
            (" ", "entry 1 of 1 is empty"),
            ("http://a:2379,http://b:2379,http://a:2379/", "ETCD_ENDPOINTS names 'http://a:2379/' twice"),
        ]
        for (list, message) in refused {
            do {
                _ = try ShardConfig.fromEnvironment(["ETCD_ENDPOINTS": list])
                Issue.record("'\(list)' was accepted")
            } catch {
                #expect("\(error)".contains(message), "'\(list)': \(error)")
            }
        }
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

    /// https members take TLS: the files named (or the system's authorities, no client
    /// certificate); with http members a TLS file named is a mistake said at start, as is a
    /// certificate without its key.
    @Test func tlsFilesGoWithHTTPSMembersOnly() throws {
        let https = ["ETCD_ENDPOINTS": "https://a:2379,https://b"]
        let files = ["ETCD_TLS_CA": "/tls/ca.crt", "ETCD_TLS_CERT": "/tls/client.crt", "ETCD_TLS_KEY": "/tls/client.key"]
        let config = try #require(try ShardConfig.fromEnvironment(https.merging(files) { $1 }))
        #expect(config.tls == EtcdTLS(authority: "/tls/ca.crt", certificate: "/tls/client.crt", key: "/tls/client.key"))
        #expect(config.endpoints.map(\.secure) == [true, true])
        #expect(try ShardConfig.fromEnvironment(https)?.tls == EtcdTLS())
        #expect(try ShardConfig.fromEnvironment(["ETCD_ENDPOINTS": "http://a:2379", "ETCD_TLS_CA": ""])?.tls == nil)

        let refused: [([String: String], String)] = [
            (["ETCD_ENDPOINTS": "http://a:2379", "ETCD_TLS_CA": "/tls/ca.crt"], "ETCD_TLS_CA set, but ETCD_ENDPOINTS are http:// URLs"),
            (["ETCD_ENDPOINTS": "http://a:2379"].merging(files) { $1 }, "ETCD_TLS_CA, ETCD_TLS_CERT, ETCD_TLS_KEY set, but ETCD_ENDPOINTS are http://"),
            (https.merging(["ETCD_TLS_CERT": "/tls/client.crt"]) { $1 }, "ETCD_TLS_CERT set without ETCD_TLS_KEY"),
            (https.merging(["ETCD_TLS_KEY": "/tls/client.key"]) { $1 }, "ETCD_TLS_KEY set without ETCD_TLS_CERT"),
        ]
        for (environment, message) in refused {
            let error = #expect(throws: EtcdError.self, "\(environment)") { try ShardConfig.fromEnvironment(environment) }
            #expect(error?.description.contains(message) == true, "\(environment): \(String(describing: error))")
        }
    }

    @Test func badValuesAreRefused() {
        #expect(throws: EtcdError.self) { try ShardConfig.fromEnvironment(["ETCD_ENDPOINTS": "http://e", "SHARD_LEASE_TTL_SECONDS": "0"]) }
        #expect(throws: EtcdError.self) { try ShardConfig.fromEnvironment(["ETCD_ENDPOINTS": "http://e", "SHARD_LEASE_TTL_SECONDS": "soon"]) }
        #expect(throws: EtcdError.self) { try ShardConfig.fromEnvironment(["ETCD_ENDPOINTS": "http://e", "INSTANCE_ID": "a/b"]) }
        #expect(throws: EtcdError.self) { try ShardConfig.fromEnvironment(["ETCD_ENDPOINTS": "http://e", "INSTANCE_ID": "a b"]) }
    }
}
