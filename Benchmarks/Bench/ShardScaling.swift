// The sharded row: actions per second with 1, 2 and 3 sharded instances of presentation-policy
// (etcd membership, a snapshot stored per decision), each count on a bus and an etcd prefix of
// its own, so the row shows how the work divides (on 2 cores, the machine is the bound).

import Domain
import Glibc
import Processes
import Sharding
import Wire
import ZeroMQ

/// The sharded runs: by instance count, the sustained run and the actions it lost.
struct ShardedRuns {
    var byInstances: [Int: Throughput] = [:]
    /// Why the row is missing (no etcd installed), if it is.
    var skipped: String?
}

enum ShardScaling {
    /// Instance counts measured.
    static let instanceCounts = [1, 2, 3]
    /// Devices spread over the instances.
    static let devices = 300
    /// The instances' lease: they read the member list every third of it.
    static let leaseSeconds = 2

    /// Starts a real etcd, then for each instance count a bus and that many presentation-policy
    /// instances, waits until every instance is a member, gives each device its state once, and
    /// measures a sustained run of `seconds` with `window` actions in flight.
    static func run(stack: BenchStack, seconds: Double, window: Int) throws -> ShardedRuns {
        guard EtcdServer.binary != nil else {
            return ShardedRuns(skipped: "etcd is not installed (apt-get install -y etcd-server)")
        }
        let etcd = try EtcdServer(folder: stack.folder)
        var runs = ShardedRuns()
        let names = (0..<devices).map { "shard-bench-\($0)" }
        let context = try ZMQContext()
        for count in instanceCounts {
            let bus = try stack.startExtraBus(logName: "shard-bus-\(count)", extra: [:])
            let instances = try (0..<count).map { index in
                try stack.startService(
                    MonsterBus.Service.presentationPolicy, logName: "shard-\(count)-pp-\(index)", endpoints: (bus.frontend, bus.backend),
                    extra: ["ETCD_ENDPOINTS": etcd.endpoint, "INSTANCE_ID": "pp-\(index)", "SHARD_LEASE_TTL_SECONDS": "\(leaseSeconds)"])
            }
            defer {
                for instance in instances { instance.stop() }
                bus.process.stop()
            }
            try waitForMembers(count, etcd: etcd.endpoint)
            var config = stack.config
            (config.frontend, config.backend) = (bus.frontend, bus.backend)
            let client = try ProductClient(context: context, config: config)
            defer { client.close() }
            try client.handshake(services: [MonsterBus.Service.presentationPolicy], timeout: 20)
            _ = try client.sustained(devices: names, window: window, length: .oncePerDevice)
            let run = try client.sustained(devices: names, window: window, length: .seconds(seconds))
            runs.byInstances[count] = run
            progress("\(count) sharded instance(s) of presentation-policy, \(devices) devices: \(format(run.rate, 0)) actions/s (\(run.completed) of \(run.sent) acknowledged, \(run.decided) decided, \(run.duplicates) duplicates)")
            try removeAll(etcd.endpoint)
        }
        return runs
    }

    /// Waits until `count` presentation-policy instances are members in etcd, then until each has
    /// had time to read the list (a third of the lease, its refresh period).
    private static func waitForMembers(_ count: Int, etcd endpoint: String) throws {
        let client = try EtcdClient(endpoint: endpoint)
        let deadline = Timestamp.monotonic() + 30
        while try client.list(prefix: "/monsterbus/members/presentation-policy/").count < count {
            guard Timestamp.monotonic() < deadline else { throw BenchError("\(count) sharded instances never all joined etcd") }
            usleep(20_000)
        }
        // Members learn of each other on their refresh (every third of SHARD_LEASE_TTL_SECONDS);
        // nothing on the bus says when, so the row waits one period and a margin (a bench, not a
        // test: a member that has not caught up shows as lost or duplicated actions in the row).
        usleep(useconds_t(Double(leaseSeconds) / 3 * 1_000_000) + 300_000)
    }

    /// Removes every key (members and snapshots), so the next count starts empty.
    private static func removeAll(_ endpoint: String) throws {
        let client = try EtcdClient(endpoint: endpoint)
        for entry in try client.list(prefix: "/monsterbus/") { try client.delete(entry.key) }
    }
}
