// `bench --callgrind-run SIDE N`: a fixed number of round trips on one side, for
// `Scripts/callgrind`, which runs this under `valgrind --tool=callgrind --trace-children=yes`
// twice with different N and divides the difference of each process's instructions by the
// difference of N: instructions per action of client, bus and service, whatever the machine's load.

import Domain
import Glibc
import Processes
import ZeroMQ

enum CallgrindRun {
    /// The sharded side's lease, in seconds: long, so that few renewals (which go with time, not
    /// with actions) fall in the count.
    static let shardLease = 20

    /// The sides: libzmq's echo, presentation-policy, the Python peer, two sharded instances of
    /// presentation-policy (owner and standby, etcd for membership), one sharded instance (no
    /// standby: what the routing alone costs), two raw echoes answering as those two instances
    /// do (`raw-standby`: libzmq's own cost of that shape; `raw-direct`: the update from one to
    /// the other over a link of their own, not through the bus), and libzmq's echo
    /// answering like the product with two messages of its add tap's sizes (`raw-2`, for
    /// `Scripts/wakeups`), and with two messages after
    /// `Spin.counted` iterations of extra work (`raw-spin`, for `bench --latency-cost`).
    static let sides = ["raw", "product", "peer", "raw-2", "raw-spin", "raw-standby", "raw-direct", "sharded", "sharded-1"]

    /// Starts only the bus and the side's service (for the product, with input-handling, which
    /// reads the alerts presented or dismissed: none here, the `add` popover's topic is not one
    /// it subscribes to), then makes `count` sequential round trips.
    static func run(side: String, count: Int) throws {
        let policy = MonsterBus.Service.presentationPolicy
        let stack = try BenchStack(
            services: side == "product" ? [policy, MonsterBus.Service.inputHandling] : side.hasPrefix("sharded") ? [MonsterBus.Service.inputHandling] : [],
            echo: ["raw", "raw-2", "raw-spin"].contains(side))
        defer { stack.stop(keep: false) }
        let context = try ZMQContext()
        switch side {
        case "raw", "raw-2", "raw-spin":
            let product = try ProductClient(context: context, config: stack.config)
            defer { product.close() }
            let payload = try product.encodedAction()
            let raw = try RawClient(context: context, config: stack.config, payload: payload)
            defer { raw.close() }
            try raw.handshake(timeout: 120)
            monsterBenchMeasure()
            let shape: RawClient.Shape? = switch side {
            case "raw-2": RawClient.productAddTap
            case "raw-spin": RawClient.Shape(first: payload.count, second: 64)
            default: nil
            }
            let spin = side == "raw-spin" ? Spin.counted : 0
            for _ in 0..<count {
                guard try raw.roundTrip(timeout: 30, shape: shape, spin: spin) != nil else {
                    throw BenchError("a raw round trip was lost")
                }
            }
        case "raw-standby", "raw-direct":
            // Owner and standby of each other's pings, in turn, as the sharded side's two instances.
            let shape = side == "raw-direct" ? RawWire.Replication.direct : .active
            let product = try ProductClient(context: context, config: stack.config)
            defer { product.close() }
            let payload = try product.encodedAction()
            let echoes = try (0..<2).map { index in
                try stack.startEcho(logName: "raw-standby-\(index)", endpoints: (stack.config.frontend, stack.config.backend), arguments: ["--member", "\(index)", "2", "--shape", shape.rawValue])
            }
            defer { for echo in echoes { echo.stop() } }
            let raw = try RawClient(context: context, config: stack.config, payload: payload)
            defer { raw.close() }
            try raw.handshake(members: 2, shape: RawClient.productAddTap, update: RawClient.productUpdate, timeout: 120)
            monsterBenchMeasure()
            for index in 0..<count {
                guard try raw.roundTrip(timeout: 30, shape: RawClient.productAddTap, member: index % 2, update: RawClient.productUpdate) != nil else {
                    throw BenchError("a raw round trip was lost")
                }
            }
        case "product", "peer", "sharded", "sharded-1":
            var config = stack.config
            var service = policy
            if side == "peer" {
                (config.frontend, config.backend) = try stack.startPeer(ownBus: false, setup: false)
                service = Peer.service
            }
            // Two instances, the device owned by one and stood by for by the other, or one alone
            // (etcd is not traced: `Scripts/callgrind` skips it). A long lease: its renewals, which go with
            // time and not with actions, stay out of the count. One joins after the other, so
            // that each run's start-up (the first takes every bucket, then hands half over) is
            // the same work in the same process, and cancels out.
            let etcd = side.hasPrefix("sharded") ? try EtcdServer(folder: stack.folder) : nil
            let instances = try (etcd.map { etcd in
                try (0..<(side == "sharded" ? 2 : 1)).map { index -> ChildProcess in
                    let instance = try stack.startService(
                        policy, logName: "sharded-pp-\(index)", endpoints: nil,
                        extra: ["ETCD_ENDPOINTS": etcd.endpoint, "INSTANCE_ID": "pp-\(index)", "SHARD_LEASE_TTL_SECONDS": "\(shardLease)"])
                    try ShardScaling.waitForMembers(index + 1, etcd: [etcd.endpoint], leaseSeconds: Double(shardLease))
                    return instance
                }
            }) ?? []
            // Both signalled at once: one stopped before the other gives its lease up, and the
            // other, seeing it go, would take its devices over in some runs and not in others.
            defer {
                for instance in instances { instance.signal(SIGTERM) }
                for instance in instances where instance.waitForExit(timeout: 5) == nil { instance.stop() }
            }
            let product = try ProductClient(context: context, config: config, service: service)
            defer { product.close() }
            try product.handshake(services: [service], timeout: 120)
            if side.hasPrefix("sharded") {
                // Until the device's owner has been handed its bucket (when the older instance
                // next reads the members; a bucket gained waits at most the TTL): a wait of the
                // same length in each run, and no action before it, so that it cancels out.
                usleep(useconds_t(shardLease + 2) * 1_000_000)
                guard try product.roundTrip(device: "bench-ipad", timeout: 60) != nil else { throw BenchError("the sharded instances never answered") }
            }
            monsterBenchMeasure()
            for _ in 0..<count {
                guard try product.roundTrip(device: "bench-ipad", timeout: 30) != nil else { throw BenchError("a round trip to \(service) was lost") }
            }
        default:
            throw BenchError("--callgrind-run: the side is one of \(sides.joined(separator: ", "))")
        }
    }
}

/// The Python peer (`Benchmarks/peer/presentation_peer.py`): the same decision with pyzmq and orjson.
enum Peer {
    /// The name it answers pings with and signs its messages with.
    static let service = "presentation-peer"
}

/// Called once the side is connected and before its round trips: `Scripts/callgrind` zeroes
/// this process's counts when it is entered (`--zero-before`), so that the handshake's retries,
/// which depend on how fast the others start under valgrind, do not count.
@_silgen_name("monster_bench_measure")
@_optimize(none)
@inline(never)
func monsterBenchMeasure() {}
