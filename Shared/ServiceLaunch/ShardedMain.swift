import Glibc
import ProcessSupport
import Runtime
import Sharding

extension ServiceMain {
    /// `run(name:makeHandler:)` for a service whose devices can be sharded: with `ETCD_ENDPOINTS`
    /// set, the handler is wrapped in a `ShardedHandler` that joins the members in etcd first;
    /// without it, the service runs exactly as a single instance.
    public static func runSharded<Handler: DeviceStateHandler>(
        name: String, makeHandler: @escaping (BusConfig, Log) throws -> Handler
    ) -> Int32 {
        guard let (shard, client) = sharding(name: name) else {
            return run(name: name, environment: EnvironmentVariable.shardedService, makeHandler: makeHandler)
        }
        return run(name: name, environment: EnvironmentVariable.shardedService) { config, log in
            let membership = try ShardMembership(service: name, config: shard, client: client, log: log)
            return ShardedHandler(
                try makeHandler(config, log), service: name, membership: membership, handoverSeconds: Double(shard.leaseSeconds), log: log)
        }
    }

    /// The sharding configuration in the environment and a client of its etcd members; nil
    /// without `ETCD_ENDPOINTS`. A bad value is configuration: `name`'s line on standard error,
    /// and the process exits with status 2 (etcd not answering is found later, at start: 1).
    public static func sharding(name: String) -> (config: ShardConfig, client: EtcdClient)? {
        do {
            guard let shard = try ShardConfig.fromEnvironment() else { return nil }
            return (shard, try EtcdClient(endpoints: shard.endpoints, tls: shard.tls))
        } catch {
            Log.standardError("\(name): \(error)\n")
            exit(2)
        }
    }
}
