// The sharded row: actions per second with 1, 2 and 3 sharded instances of presentation-policy
// (etcd membership on three members on disk; each device's state sent to the instance standing
// by for it), beside one unsharded instance measured the same way in the same run: each on a
// bus of its own, so the ratios show what sharding costs (on 2 cores, the machine is the bound).

import Domain
import Glibc
import Processes
import Sharding
import Wire
import ZeroMQ

/// The sharded runs: the unsharded reference, then by instance count.
struct ShardedRuns {
    /// One presentation-policy without sharding, the same devices and window.
    var unsharded: Throughput?
    var byInstances: [Int: Throughput] = [:]
    /// Why the row is missing (no etcd installed), if it is.
    var skipped: String?

    /// Actions/s with `count` instances ÷ the unsharded instance's (nil when not measured).
    func ratio(_ count: Int) -> Double? {
        guard let unsharded, unsharded.rate > 0, let run = byInstances[count] else { return nil }
        return run.rate / unsharded.rate
    }
}

enum ShardScaling {
    /// Instance counts measured.
    static let instanceCounts = [1, 2, 3]
    /// Devices spread over the instances.
    static let devices = 300
    /// The instances' lease: they read the member list every third of it.
    static let leaseSeconds = 2

    /// Starts a three-member etcd on disk; measures one unsharded presentation-policy, then for
    /// each instance count a bus and that many sharded instances: waits until every instance is
    /// a member, gives each device its state once, and measures a sustained run of `seconds`
    /// with `window` actions in flight (an action done at its acknowledgement, which a standby
    /// publishes once it holds the state).
    static func run(stack: BenchStack, seconds: Double, window: Int) throws -> ShardedRuns {
        guard EtcdServer.binary != nil else {
            return ShardedRuns(skipped: "etcd is not installed (apt-get install -y etcd-server)")
        }
        let etcd = try EtcdCluster(members: 3, onDisk: true)
        var runs = ShardedRuns()
        let names = (0..<devices).map { "shard-bench-\($0)" }
        let context = try ZMQContext()
        for count in [0] + instanceCounts {
            let bus = try stack.startExtraBus(logName: "shard-bus-\(count)", extra: [:])
            let sharding = { (index: Int) in
                ["ETCD_ENDPOINTS": etcd.endpoints.joined(separator: ","), "INSTANCE_ID": "pp-\(index)", "SHARD_LEASE_TTL_SECONDS": "\(leaseSeconds)"]
            }
            let instances = try (0..<max(count, 1)).map { index in
                try stack.startService(
                    MonsterBus.Service.presentationPolicy, logName: "shard-\(count)-pp-\(index)", endpoints: (bus.frontend, bus.backend),
                    extra: count == 0 ? [:] : sharding(index))
            }
            defer {
                for instance in instances { instance.stop() }
                bus.process.stop()
            }
            if count > 0 { try waitForMembers(count, etcd: etcd.endpoints, leaseSeconds: Double(leaseSeconds)) }
            var config = stack.config
            (config.frontend, config.backend) = (bus.frontend, bus.backend)
            let client = try ProductClient(context: context, config: config)
            defer { client.close() }
            try client.handshake(services: [MonsterBus.Service.presentationPolicy], timeout: 20)
            _ = try client.sustained(devices: names, window: window, length: .oncePerDevice)
            let run = try client.sustained(devices: names, window: window, length: .seconds(seconds))
            let name = count == 0 ? "unsharded presentation-policy" : "\(count) sharded instance(s) of presentation-policy"
            progress("\(name), \(devices) devices: \(format(run.rate, 0)) actions/s (\(run.completed) of \(run.sent) acknowledged, \(run.decided) decided, \(run.duplicates) duplicates)")
            if count == 0 { runs.unsharded = run } else { runs.byInstances[count] = run }
            if count > 0 { try removeAll(etcd.endpoints) }
        }
        return runs
    }

    /// Waits until `count` presentation-policy instances are members in etcd, then (for a lease
    /// of a few seconds) until each has had time to read the list and be handed its buckets.
    static func waitForMembers(_ count: Int, etcd endpoints: [String], leaseSeconds: Double) throws {
        let client = try EtcdClient(endpoints: endpoints.map { try EtcdEndpoint($0) })
        let deadline = Timestamp.monotonic() + 30
        while try client.list(prefix: "/monsterbus/members/presentation-policy/").count < count {
            guard Timestamp.monotonic() < deadline else { throw BenchError("\(count) sharded instances never all joined etcd") }
            usleep(20_000)
        }
        // Members learn of each other on their refresh (every third of SHARD_LEASE_TTL_SECONDS)
        // and a bucket gained waits at most the TTL for its devices; nothing on the bus says
        // when, so the row waits that long and a margin (a bench, not a test: a member that has
        // not caught up shows as lost or duplicated actions in the row).
        if leaseSeconds <= 5 { usleep(useconds_t(leaseSeconds * 1_000_000) + 300_000) }
    }

    /// Removes every key, so the next count starts empty.
    private static func removeAll(_ endpoints: [String]) throws {
        let client = try EtcdClient(endpoints: endpoints.map { try EtcdEndpoint($0) })
        for entry in try client.list(prefix: "/monsterbus/") { try client.delete(entry.key) }
    }
}
