import Foundation
import Processes
import Sharding
import Wire

extension Stack {
    /// Starts one presentation-policy instance per name, sharded through the etcd at `etcd`
    /// (a lease of 2 s), and waits until each lists them all as members.
    func startShardedPolicies(_ names: [String], etcd: String) throws -> [String: ChildProcess] {
        try startSharded("presentation-policy", names, etcd: etcd)
    }

    /// Starts one instance of `service` per name, sharded through the etcd at `etcd` (a lease
    /// of `leaseSeconds`; over TLS with `tls`), and waits until each lists as members them all,
    /// or `waitingFor`.
    func startSharded(
        _ service: String, _ names: [String], etcd: String, tls: EtcdTLS? = nil, leaseSeconds: Int = 2, waitingFor: [String]? = nil
    ) throws -> [String: ChildProcess] {
        var instances: [String: ChildProcess] = [:]
        for name in names {
            var environment = self.environment
            environment["ETCD_ENDPOINTS"] = etcd
            environment["ETCD_TLS_CA"] = tls?.authority
            environment["ETCD_TLS_CERT"] = tls?.certificate
            environment["ETCD_TLS_KEY"] = tls?.key
            environment["INSTANCE_ID"] = name
            environment["SHARD_LEASE_TTL_SECONDS"] = "\(leaseSeconds)"
            instances[name] = try ChildProcess(
                name: name, executable: Products.url(service).path, environment: environment,
                logPath: folder.appendingPathComponent("\(name).log").path)
        }
        let members = "shard members: \((waitingFor ?? names).sorted().joined(separator: ", "));"
        for child in instances.values where !child.waitForStderr(timeout: 20, { $0.contains(members) }) {
            throw StackError("\(child.name) never saw every member: \(child.stderr)")
        }
        return instances
    }
}

/// The instance that owns `device` among `members`: the owner of its bucket.
func shardOwner(of device: String, among members: [String]) -> String? {
    Rendezvous.owner(of: Topic.bucket(ofDevice: device), among: members)
}
