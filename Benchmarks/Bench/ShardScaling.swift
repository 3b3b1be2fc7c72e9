// The sharded row: actions per second with 1, 2 and 3 sharded instances of presentation-policy
// (etcd membership on three members on disk; each device's state sent to the instance standing
// by for it), beside one unsharded instance measured the same way in the same run: each on a
// bus of its own, so the ratios show what sharding costs (on 2 cores, the machine is the bound).
// Beside them, libzmq alone in the same shapes: raw echoes answering as the sharded instances
// do, against one answering as the unsharded instance does.

import Domain
import Glibc
import Processes
import Sharding
import Wire
import ZeroMQ

/// The sharded runs: the unsharded reference, then by instance count.
struct ShardedRuns {
    /// One presentation-policy without sharding, the same devices and window: its median run.
    var unsharded: Throughput?
    /// By instance count, the run of the median round.
    var byInstances: [Int: Throughput] = [:]
    /// By instance count, the median over rounds of its actions/s ÷ the unsharded instance's
    /// measured just before it.
    var ratios: [Int: Double] = [:]
    /// By instance count (2 and 3), libzmq's own ratio in that shape: as many raw echoes
    /// answering as sharded instances do (the decision from the owner, an update to the next
    /// echo, the acknowledgement from it) ÷ one echo answering with the decision and the
    /// acknowledgement, median over rounds: what the count's ratio would be if our code cost nothing.
    var rawRatios: [Int: Double] = [:]
    /// Why the row is missing (no etcd installed), if it is.
    var skipped: String?

    /// Actions/s with `count` instances ÷ the unsharded instance's (nil when not measured).
    func ratio(_ count: Int) -> Double? { ratios[count] }
}

enum ShardScaling {
    /// Instance counts measured.
    static let instanceCounts = [1, 2, 3]
    /// Devices spread over the instances.
    static let devices = 300
    /// The instances' lease: they read the member list every third of it.
    static let leaseSeconds = 2

    /// Starts a three-member etcd on disk and one unsharded presentation-policy, kept for the
    /// whole row; then for each instance count a bus and that many sharded instances: waits
    /// until every instance is a member, gives each device its state once, and takes `rounds`
    /// turns of a sustained run of `seconds` on the unsharded instance, then on the sharded
    /// ones, with `window` actions in flight (an action done at its acknowledgement, which a
    /// standby publishes once it holds the state). Each round's ratio compares runs a few
    /// seconds apart: this machine's speed moves between levels from minute to minute.
    static func run(stack: BenchStack, seconds: Double, window: Int, rounds: Int) throws -> ShardedRuns {
        guard EtcdServer.binary != nil else {
            return ShardedRuns(skipped: "etcd is not installed (apt-get install -y etcd-server)")
        }
        let etcd = try EtcdCluster(members: 3, onDisk: true)
        var runs = ShardedRuns()
        let names = (0..<devices).map { "shard-bench-\($0)" }
        let context = try ZMQContext()
        let reference = try Deployment(stack: stack, context: context, count: 0, etcd: etcd.endpoints, devices: names, window: window)
        defer { reference.stop() }
        // The raw echoes carry messages as large as the product's: an action, its decision and
        // acknowledgement, the update.
        let payload = try reference.client.encodedAction(device: names[0])
        let rawReference = try RawDeployment(stack: stack, context: context, count: 0, payload: payload)
        defer { rawReference.stop() }
        var unsharded: [Throughput] = []
        for count in instanceCounts {
            let sharded = try Deployment(stack: stack, context: context, count: count, etcd: etcd.endpoints, devices: names, window: window)
            defer { sharded.stop() }
            let raw = count > 1 ? try RawDeployment(stack: stack, context: context, count: count, payload: payload) : nil
            defer { raw?.stop() }
            var turns: [(ratio: Double, run: Throughput)] = []
            var rawTurns: [Double] = []
            for _ in 0..<max(rounds, 1) {
                let before = try reference.measure(seconds: seconds)
                let run = try sharded.measure(seconds: seconds)
                unsharded.append(before)
                turns.append((before.rate > 0 ? run.rate / before.rate : 0, run))
                progress("\(count) sharded instance(s) of presentation-policy, \(devices) devices: \(format(run.rate, 0)) actions/s (\(run.completed) of \(run.sent) acknowledged, \(run.decided) decided, \(run.duplicates) duplicates); unsharded just before: \(format(before.rate, 0))")
                if let raw {
                    let turn = try raw.turn(against: rawReference, seconds: seconds, window: window)
                    rawTurns.append(turn.ratio)
                    progress("\(count) raw echoes answering as sharded instances: \(format(turn.run.rate, 0)) round trips/s; one answering as the unsharded instance just before: \(format(turn.echo.rate, 0))")
                }
            }
            let middle = turns.sorted { $0.ratio < $1.ratio }[turns.count / 2]
            runs.ratios[count] = middle.ratio
            runs.byInstances[count] = middle.run
            if !rawTurns.isEmpty { runs.rawRatios[count] = rawTurns.sorted()[rawTurns.count / 2] }
            try removeAll(etcd.endpoints)
        }
        runs.unsharded = unsharded.sorted { $0.rate < $1.rate }[unsharded.count / 2]
        return runs
    }

    /// A bus and `count` sharded presentation-policy instances (none: one unsharded), with a
    /// client that has given each device its state once.
    private final class Deployment {
        let bus: BusProcess
        let instances: [ChildProcess]
        let client: ProductClient
        let devices: [String]
        let window: Int

        init(stack: BenchStack, context: ZMQContext, count: Int, etcd endpoints: [String], devices: [String], window: Int) throws {
            self.devices = devices
            self.window = window
            let bus = try stack.startExtraBus(logName: "shard-bus-\(count)", extra: [:])
            self.bus = bus
            let sharding = { (index: Int) in
                ["ETCD_ENDPOINTS": endpoints.joined(separator: ","), "INSTANCE_ID": "pp-\(index)", "SHARD_LEASE_TTL_SECONDS": "\(leaseSeconds)"]
            }
            instances = try (0..<max(count, 1)).map { index in
                try stack.startService(
                    MonsterBus.Service.presentationPolicy, logName: "shard-\(count)-pp-\(index)", endpoints: (bus.frontend, bus.backend),
                    extra: count == 0 ? [:] : sharding(index))
            }
            if count > 0 { try waitForMembers(count, etcd: endpoints, leaseSeconds: Double(leaseSeconds)) }
            var config = stack.config
            (config.frontend, config.backend) = (bus.frontend, bus.backend)
            client = try ProductClient(context: context, config: config)
            try client.handshake(services: [MonsterBus.Service.presentationPolicy], timeout: 20)
            _ = try client.sustained(devices: devices, window: window, length: .oncePerDevice)
        }

        /// A sustained run of `seconds`.
        func measure(seconds: Double) throws -> Throughput {
            try client.sustained(devices: devices, window: window, length: .seconds(seconds))
        }

        func stop() {
            client.close()
            for instance in instances { instance.stop() }
            bus.process.stop()
        }
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
