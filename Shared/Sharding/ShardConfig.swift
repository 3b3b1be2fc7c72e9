import Glibc
import ProcessSupport

/// How a service instance takes part in sharding, from the environment: `ETCD_ENDPOINTS` turns
/// it on (unset: one instance, as always), `ETCD_TLS_*` set up TLS with https:// members,
/// `INSTANCE_ID` names the instance, `SHARD_LEASE_TTL_SECONDS` is its membership lease's TTL.
public struct ShardConfig: Sendable, Equatable {
    /// Every etcd member's client URL (`ETCD_ENDPOINTS`, comma-separated): the client asks one
    /// and moves to the next when it fails.
    public var endpoints: [EtcdEndpoint]
    /// The files for TLS when the members' URLs are https; nil with http.
    public var tls: EtcdTLS?
    /// This instance's name among its service's.
    public var instance: String
    /// The membership lease's TTL in seconds.
    public var leaseSeconds: Int

    /// Sharding through the etcd members at `endpoints` (over TLS with `tls`) as `instance`, with
    /// leases of `leaseSeconds`.
    public init(endpoints: [EtcdEndpoint], tls: EtcdTLS? = nil, instance: String, leaseSeconds: Int) {
        self.endpoints = endpoints
        self.tls = tls
        self.instance = instance
        self.leaseSeconds = leaseSeconds
    }

    /// The configuration in `environment`, or nil when `ETCD_ENDPOINTS` is unset or empty; an
    /// error names the first bad value (every member's URL is checked here, at start).
    public static func fromEnvironment(_ environment: [String: String] = ProcessEnvironment.current) throws -> ShardConfig? {
        guard let list = environment[EnvironmentVariable.etcdEndpoints.name], !list.isEmpty else { return nil }
        let endpoints = try EtcdEndpoint.list(list)
        let tls = try EtcdTLS.fromEnvironment(environment, for: endpoints)
        let ttlText = environment[EnvironmentVariable.shardLeaseTimeToLive.name] ?? "3"
        guard let ttl = Int(ttlText), (1...300).contains(ttl) else {
            throw EtcdError(description: "SHARD_LEASE_TTL_SECONDS must be a whole number of seconds from 1 to 300, not '\(ttlText)'")
        }
        let instance = environment[EnvironmentVariable.instanceID.name].flatMap { $0.isEmpty ? nil : $0 }
            ?? "\(hostName())-\(getpid())"
        guard !instance.contains("/"), instance.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7f }) else {
            throw EtcdError(description: "INSTANCE_ID '\(instance)' must have no '/', spaces or control characters")
        }
        return ShardConfig(endpoints: endpoints, tls: tls, instance: instance, leaseSeconds: ttl)
    }

    /// This machine's host name (the default instance name's first part).
    private static func hostName() -> String {
        var name = [UInt8](repeating: 0, count: 256)
        guard name.withUnsafeMutableBytes({ gethostname($0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count - 1) }) == 0
        else { return "localhost" }
        return String(decoding: name.prefix { $0 != 0 }, as: UTF8.self)
    }
}
