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
        let shard: ShardConfig?
        let etcd: EtcdClient?
        do {
            shard = try ShardConfig.fromEnvironment()
            // An endpoint that is not an http URL is configuration (status 2); etcd not
            // answering there is a failure to start (status 1).
            etcd = try shard.map { try EtcdClient(endpoints: $0.endpoints) }
        } catch {
            Log.standardError("\(name): \(error)\n")
            return 2
        }
        guard let shard, let client = etcd else { return run(name: name, environment: EnvironmentVariable.shardedService, makeHandler: makeHandler) }
        return run(name: name, environment: EnvironmentVariable.shardedService) { config, log in
            let membership = try ShardMembership(service: name, config: shard, client: client, log: log)
            return ShardedHandler(
                try makeHandler(config, log), service: name, membership: membership, handoverSeconds: Double(shard.leaseSeconds), log: log)
        }
    }
}
