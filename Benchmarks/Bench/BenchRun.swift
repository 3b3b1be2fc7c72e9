// One bench run: start the stack, then measure baseline and product side by side, round after
// round, so that the machine's other work weighs on both alike.

import Domain
import Glibc
import ProcessSupport
import ZeroMQ

/// Everything measured in one run.
struct Measurements {
    var options: Options
    var payloadBytes = 0
    var rawLatency: [Double] = []
    var productLatency: [Double] = []
    var rawLatencyLost = 0
    /// The raw echo answering like the product: two messages as large as the decision and the ack.
    var shape: RawClient.Shape?
    var rawShapedLatency: [Double] = []
    /// The weapon tap (`TapClient`): its round trips, the services it went through, and
    /// the taps that never completed.
    var weaponTapLatency: [Double] = []
    var weaponTapHops = 0
    var weaponTapLost = 0
    var rawOneWay: [Throughput] = []
    var rawEcho: [Throughput] = []
    var rawShapedEcho: [Throughput] = []
    /// Device creation runs and sustained runs, by device count.
    var creation: [Int: [Throughput]] = [:]
    var sustained: [Int: [Throughput]] = [:]
    var codec: [CodecCost] = []
    /// VmRSS and private memory (MiB) of each process after start and handshake, and after the load.
    var idleRSS: [(name: String, megabytes: Double, privateMegabytes: Double)] = []
    var loadRSS: [(name: String, megabytes: Double, privateMegabytes: Double)] = []
    /// presentation-policy's VmRSS with each number of devices (last round).
    var policyRSS: [Int: Double] = [:]
    /// CPU seconds used per process during each kind of run, and what was completed meanwhile.
    var cpu: CPUTally = [:]
    /// The product client's own time in the latency blocks: making/encoding/sending, decoding.
    var clientTime = ClientTime()
    /// The raw client's mean time in `send` per round trip, µs.
    var rawSendMicroseconds = 0.0
    var lost = 0
    /// What is known of each run that lost actions.
    var lossNotes: [String] = []
    var duplicates = 0
    var refused = 0
    /// The bus's cost per message: its own loop (with its checks, on CURVE) and zmq_proxy.
    var proxyCost: (own: [ProxyCostRun], zmqProxy: [ProxyCostRun]) = ([], [])
    /// The Python peer (pyzmq + orjson) on a bus of its own: round trips, and sustained runs at
    /// `throughputScale` devices.
    var peerLatency: [Double] = []
    var peerSustained: [Throughput] = []
    var peerLost = 0
    /// Round trips with several product clients at once, by number of clients.
    var clients: [Int: ConcurrentClients.Run] = [:]
    /// The same with raw clients of the echo answering with one message.
    var rawClients: [Int: ConcurrentClients.Run] = [:]
    /// The same with raw clients of the echo answering in the product's shape.
    var rawShapedClients: [Int: ConcurrentClients.Run] = [:]
    /// Sustained runs with 1, 2 and 3 sharded instances of presentation-policy.
    var sharded = ShardedRuns()
    /// `Scripts/callgrind`'s JSON line and table, when it ran.
    var callgrind: (json: String, table: [String])?

    /// The device count whose sustained run is the product's throughput: 1,000, else the middle scale.
    var throughputScale: Int { options.scales.contains(1_000) ? 1_000 : options.scales[options.scales.count / 2] }
}

enum BenchRun {
    /// Runs every measurement. Progress goes to standard error.
    static func run(_ options: Options) throws -> Measurements {
        var m = Measurements(options: options)
        progress("starting the bus, \(BenchStack.serviceNames.joined(separator: ", ")) and the raw echo")
        let stack = try BenchStack()
        defer { stack.stop(keep: options.keep) }
        do {
            try measure(&m, stack)
        } catch {
            throw BenchError("\(error)\nlogs:\n\(stack.logTails)")
        }
        return m
    }

    private static func measure(_ m: inout Measurements, _ stack: BenchStack) throws {
        let options = m.options
        let policy = MonsterBus.Service.presentationPolicy
        let context = try ZMQContext()
        let product = try ProductClient(context: context, config: stack.config)
        defer { product.close() }
        try product.handshake(services: BenchStack.serviceNames, timeout: 20)

        // The raw payload is as large as the product's action envelope.
        let actionSample = product.bus.envelope(product.action, device: "bench-ipad")
        let payload = try product.bus.codec.encode(actionSample)
        m.payloadBytes = payload.count
        let raw = try RawClient(context: context, config: stack.config, payload: payload)
        defer { raw.close() }
        try raw.handshake(timeout: 20)
        m.idleRSS = memory(stack)
        progress("starting the Python peer (pyzmq + orjson) on a bus of its own")
        var peerConfig = stack.config
        (peerConfig.frontend, peerConfig.backend) = try stack.startPeer(ownBus: true)
        let peer = try ProductClient(context: context, config: peerConfig, service: Peer.service)
        defer { peer.close() }
        try peer.handshake(services: [Peer.service], timeout: 30)
        let weaponTap = try TapClient(context: context, config: stack.config, addressed: true)
        defer { weaponTap.close() }
        try weaponTap.prepare(services: BenchStack.serviceNames, timeout: 20)

        // 1-2. Latency: warm both up, then alternate short blocks (25 round trips, a few ms), so
        // that a burst of other work on the machine falls on every side alike.
        progress("latency: \(options.roundTrips) round trips on each side, alternating every 25")
        for _ in 0..<options.warmUp {
            _ = try raw.roundTrip()
            _ = try product.roundTrip(device: "bench-ipad")
            _ = try peer.roundTrip(device: "bench-ipad")
            _ = try weaponTap.roundTrip()
        }
        // The product's answer, in sizes, for the product-shaped raw reference.
        if let decision = product.samples[.presented], let ack = product.samples[.ack] {
            let shape = RawClient.Shape(
                first: try product.bus.codec.encode(decision).count, second: try product.bus.codec.encode(ack).count)
            m.shape = shape
            for _ in 0..<options.warmUp { _ = try raw.roundTrip(shape: shape) }
        }
        let perBlock = min(25, options.roundTrips)
        let blocks = max(1, options.roundTrips / perBlock)
        let me = getpid()
        let policyPid = stack.services[policy]!.pid
        // The processes a round trip goes through, metered: the raw echo's and the product's.
        let echoing: [(name: String, pid: pid_t)] = [("bench", me), ("bus", stack.bus.pid), ("raw-echo", stack.echo!.pid)]
        let deciding: [(name: String, pid: pid_t)] = [("bench", me), ("bus", stack.bus.pid), (policy, policyPid)]
        product.resetClientTime()
        raw.sendTime = (0, 0)
        // The sides in turn, block by block, each first in one block out of five: what a side
        // leaves behind (a service still writing, a CPU kept awake) falls on every side alike.
        let sides = 5
        for block in 0..<blocks {
            for turn in 0..<sides {
                switch (block + turn) % sides {
                case 0:
                    let meter = CPUMeter(echoing)
                    for _ in 0..<perBlock { if let seconds = try raw.roundTrip() { m.rawLatency.append(seconds) } }
                    m.cpu.add("round trip raw", meter.used(), perBlock)
                case 1:
                    let meter = CPUMeter(deciding)
                    for _ in 0..<perBlock { if let seconds = try product.roundTrip(device: "bench-ipad") { m.productLatency.append(seconds) } }
                    m.cpu.add("round trip product", meter.used(), perBlock)
                case 2:
                    guard let shape = m.shape else { continue }
                    let meter = CPUMeter(echoing)
                    for _ in 0..<perBlock { if let seconds = try raw.roundTrip(shape: shape) { m.rawShapedLatency.append(seconds) } }
                    m.cpu.add("round trip raw 1→2", meter.used(), perBlock)
                case 3:
                    for _ in 0..<perBlock { if let seconds = try peer.roundTrip(device: "bench-ipad") { m.peerLatency.append(seconds) } }
                default:
                    for _ in 0..<perBlock { if let times = try weaponTap.roundTrip() { m.weaponTapLatency.append(times.weaponChanged) } }
                }
            }
        }
        (m.weaponTapHops, m.weaponTapLost) = (weaponTap.hops, weaponTap.lost)
        m.clientTime = product.clientTime
        m.rawSendMicroseconds = raw.sendTime.count > 0 ? raw.sendTime.seconds * 1e6 / Double(raw.sendTime.count) : 0
        m.rawLatencyLost = raw.lost
        try stack.checkAlive()

        // 1 → 8 clients at once, each with its own device (or address): the product's clients,
        // libzmq's echo answering with one message, and answering in the product's shape, in
        // turn, each first in one round out of three, so that the machine's load falls on all.
        for clients in options.clientCounts {
            let each = max(100, options.roundTrips / 5 / options.rounds)
            progress("\(clients) client(s) at once: \(options.rounds) round(s) of \(each) round trips each, product and raw in turn")
            for round in 0..<options.rounds {
                for kind in 0..<3 {
                    switch (kind + round) % 3 {
                    case 0:
                        let run = try ConcurrentClients.run(
                            clients: clients, roundTrips: each, config: stack.config, metering: deciding)
                        m.cpu.add("\(clients) client(s)", run.cpu, run.latencies.count)
                        m.clients[clients, default: .init()].add(run)
                    case 1:
                        let raw = try ConcurrentClients.runRaw(
                            clients: clients, roundTrips: each, config: stack.config, payload: payload, shape: nil, metering: echoing)
                        m.cpu.add("raw, \(clients) client(s)", raw.cpu, raw.latencies.count)
                        m.rawClients[clients, default: .init()].add(raw)
                    default:
                        guard let shape = m.shape else { continue }
                        let shaped = try ConcurrentClients.runRaw(
                            clients: clients, roundTrips: each, config: stack.config, payload: payload, shape: shape, metering: echoing)
                        m.cpu.add("raw 1→2, \(clients) client(s)", shaped.cpu, shaped.latencies.count)
                        m.rawShapedClients[clients, default: .init()].add(shaped)
                    }
                }
            }
        }

        // 3. The codec, on the envelopes just exchanged.
        progress("codec: \(options.codecIterations) encodes and decodes of each envelope")
        let replies = [MessageType.presented, .dismissed, .ack].compactMap { product.samples[$0] }
        m.codec = try CodecBench.run(bus: product.bus, action: actionSample, replies: replies, iterations: options.codecIterations)

        // 1, 2, 4. Throughput and scale, round after round.
        let names = (0..<(options.scales.max() ?? 0)).map { "bench-\($0)" }
        for round in 0..<options.rounds {
            let label = "round \(round + 1)/\(options.rounds)"
            try stack.checkAlive()
            var meter = CPUMeter([("bench", me), ("bus", stack.bus.pid)])
            let oneWay = try raw.oneWay(seconds: options.seconds, window: options.window)
            m.cpu.add("raw one-way", meter.used(), oneWay.completed)
            m.rawOneWay.append(oneWay)
            progress("\(label): raw one-way \(format(oneWay.rate, 0)) msg/s (\(oneWay.completed) of \(oneWay.sent) received)")

            meter = CPUMeter(echoing)
            let echo = try raw.windowedEcho(seconds: options.seconds, window: options.window)
            m.cpu.add("raw echo", meter.used(), echo.completed)
            m.rawEcho.append(echo)
            progress("\(label): raw windowed echo \(format(echo.rate, 0)) round trips/s (\(echo.completed) of \(echo.sent) answered)")
            if let shape = m.shape {
                meter = CPUMeter(echoing)
                let shaped = try raw.windowedEcho(seconds: options.seconds, window: options.window, shape: shape)
                m.cpu.add("raw echo 1→2", meter.used(), shaped.completed)
                m.rawShapedEcho.append(shaped)
                progress("\(label): raw product-shaped echo \(format(shaped.rate, 0)) round trips/s (\(shaped.completed) of \(shaped.sent) answered)")
            }

            if round > 0 {
                // A fresh presentation-policy, so that each scale has exactly its devices.
                try stack.restart(policy)
                product.policyRestarted()
                try product.handshake(services: [policy], timeout: 20)
            }
            var created = 0
            for scale in options.scales {
                let creation = try product.sustained(devices: Array(names[created..<scale]), window: options.window, length: .oncePerDevice)
                m.creation[scale, default: []].append(creation)
                try explainLoss(creation, "creating \(scale) devices", product, &m)
                created = scale
                // Warm up on these devices (caches, allocator), unmeasured: the scales always run
                // in the same order, and the first would otherwise pay for it.
                _ = try product.sustained(devices: Array(names[0..<scale]), window: options.window, length: .seconds(min(0.5, options.seconds / 3)))
                let policyPid = stack.services[policy]!.pid
                meter = CPUMeter([("bench", me), ("bus", stack.bus.pid), (policy, policyPid)])
                let run = try product.sustained(devices: Array(names[0..<scale]), window: options.window, length: .seconds(options.seconds))
                m.cpu.add("product \(scale)", meter.used(), run.completed)
                m.sustained[scale, default: []].append(run)
                try explainLoss(run, "\(scale) devices", product, &m)
                m.policyRSS[scale] = ProcessStats.residentMegabytes(policyPid)
                progress("\(label): \(scale) devices: \(format(run.rate, 0)) actions/s, \(format(run.microsecondsEach, 1)) µs/action (\(run.completed) of \(run.sent) acknowledged, \(run.decided) decided)")
            }
        }
        // The peer's throughput at the product's throughput scale, after the product's rounds.
        let peerDevices = Array(names[0..<m.throughputScale])
        _ = try peer.sustained(devices: peerDevices, window: options.window, length: .oncePerDevice)
        for round in 0..<options.rounds {
            let run = try peer.sustained(devices: peerDevices, window: options.window, length: .seconds(options.seconds))
            m.peerSustained.append(run)
            progress("round \(round + 1)/\(options.rounds): Python peer, \(m.throughputScale) devices: \(format(run.rate, 0)) actions/s (\(run.completed) of \(run.sent) acknowledged)")
        }
        m.peerLost = peer.lost
        try stack.checkAlive()
        m.loadRSS = memory(stack)

        // 5. What the bus's own loop costs per message against zmq_proxy.
        progress("bus cost per message: own loop vs zmq_proxy, two more buses on CURVE, \(options.rounds) round(s)")
        m.proxyCost = try ProxyCostBench.run(stack: stack, envelope: payload, rounds: options.rounds, seconds: options.seconds, window: options.window)
        m.lost = product.lost
        m.duplicates = product.duplicates
        m.refused = product.refused

        // 6. Sharded instances of presentation-policy: how the work divides.
        progress("sharded presentation-policy: \(ShardScaling.instanceCounts.map(String.init).joined(separator: ", ")) instance(s) with etcd, \(ShardScaling.devices) devices")
        m.sharded = try ShardScaling.run(stack: stack, seconds: options.seconds, window: options.window, rounds: options.rounds)
        if let skipped = m.sharded.skipped { progress("sharded row skipped: \(skipped)") }

        // 7. Instructions per action, by callgrind (Scripts/callgrind, its own stacks under valgrind).
        if options.callgrind {
            progress("instructions per action: Scripts/callgrind, \(options.callgrindActions) round trips per side under valgrind (a few minutes)")
            m.callgrind = try stack.runCallgrind(actions: options.callgrindActions)
        }
    }
}

/// When `run` lost actions, finds out from presentation-policy's next heartbeat whether they
/// reached it (its `handled` counter against the actions sent to it) and notes the answer.
private func explainLoss(_ run: Throughput, _ what: String, _ product: ProductClient, _ m: inout Measurements) throws {
    guard run.lost > 0 else { return }
    let note: String
    if let handled = try product.policyHandledCount() {
        let missing = product.actionsSinceStart - Int(handled)
        note = "\(what): \(run.lost) of \(run.sent) actions not acknowledged; presentation-policy handled \(handled) of the "
            + "\(product.actionsSinceStart) actions sent to it, so \(missing) never reached it"
            + (missing < run.lost ? " and \(run.lost - missing) were handled but their answers were lost" : "")
    } else {
        note = "\(what): \(run.lost) of \(run.sent) actions not acknowledged (no heartbeat from presentation-policy to say more)"
    }
    m.lossNotes.append(note)
    progress(note)
}

/// Each process's VmRSS and private memory, in MiB.
private func memory(_ stack: BenchStack) -> [(name: String, megabytes: Double, privateMegabytes: Double)] {
    stack.processes.map { ($0.name, ProcessStats.residentMegabytes($0.pid) ?? 0, ProcessStats.privateMegabytes($0.pid) ?? 0) }
}

/// Writes a progress line to standard error.
func progress(_ text: String) {
    Log.standardError("bench: \(text)\n")
}
