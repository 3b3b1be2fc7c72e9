import BusKit
import Glibc
import MonsterKit
import ZeroMQ

// bus: the XSUB/XPUB proxy every other process connects to. Publishers connect to
// BUS_FRONTEND (XSUB), subscribers to BUS_BACKEND (XPUB).

if case .exit(let status) = ProgramStart.begin(name: "bus", versionDetail: " (libzmq \(zmqVersion))", help: {
    ProgramHelp(
        usage: "bus",
        summary: """
            Runs the message bus: an XSUB/XPUB proxy that enforces each client's role (the `role` in its
            certificate's metadata; see the README's Security section). With BUS_KEYS_DIR it serves with
            bus.key_secret and admits only authorized/*.key.
            """,
        options: [.help, .version], environment: EnvironmentVariable.bus
    )
}) {
    exit(status)
}

let config: BusConfig
do {
    config = try BusConfig.fromEnvironment(component: MonsterBus.Service.bus)
} catch {
    Log.standardError("bus: \(error)\n")
    exit(2)
}
let log = Log(service: MonsterBus.Service.bus, level: config.logLevel, format: config.logFormat)
let security: BusSecurity
do {
    security = try BusSecurity(config: config, log: log)
} catch {
    Log.standardError("bus: \(error)\n")
    exit(2)
}

/// In-process endpoints the bus's own registry client uses, and where it watches the proxy.
let inprocFrontend = "inproc://bus-frontend"
let inprocBackend = "inproc://bus-backend"
let frontendMonitor = "inproc://bus-frontend-monitor"
let backendMonitor = "inproc://bus-backend-monitor"
let proxyControl = "inproc://bus-proxy-control"
let refusalsEndpoint = "inproc://bus-refusals"
/// `BUS_PROXY=zmq_proxy` runs libzmq's proxy instead of the bus's own loop: no roles, no
/// checks, no limits on subscriptions. Only the benchmark uses it, to measure what the loop costs.
/// The largest frame a subscriber may send the bus: room for the handshake's commands (a CURVE
/// INITIATE with its metadata is about 300 bytes; the limit applies to them too) and for any
/// subscription the policy could accept (at most the longest topic).
let subscriberFrameLimit = 1024
let useZMQProxy = getenv("BUS_PROXY").map { String(cString: $0) == "zmq_proxy" } ?? false

do {
    let context = try ZMQContext()
    // SIGHUP's reload wakes the proxy loop through this pipe (non-blocking at both ends).
    var reloadPipe: [Int32] = [0, 0]
    guard pipe(&reloadPipe) == 0 else { throw ConfigError("pipe() failed") }
    for fd in reloadPipe { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    let reloadWriter = reloadPipe[1]
    try security.start(context: context) {
        var byte: UInt8 = 1
        _ = write(reloadWriter, &byte, 1)
    }
    let policy = BusPolicy()
    let frontend = try ZMQSocket(context, .xsub)
    let backend = try ZMQSocket(context, .xpub)
    try security.secure(frontend)
    try security.secure(backend)
    try frontend.set(.receiveHighWaterMark, config.highWaterMark)
    try backend.set(.sendHighWaterMark, config.highWaterMark)
    // Oversized messages are refused at the socket: libzmq drops the message and the sender's
    // connection (which reconnects); the registry counts such disconnects.
    try frontend.set(.maxMessageSize, Int64(config.maxMessageBytes + 1024))
    if useZMQProxy {
        try backend.set(.xpubNoDrop, Int32(1))
    } else {
        // A slow subscriber loses what overflows its own queue and nobody else waits for it
        // (no XPUB_NODROP); the watcher sees the gap in the senders' sequence numbers.
        // Subscriptions are the bus's to accept (manual mode), and a subscriber can send
        // nothing longer than `subscriberFrameLimit`: libzmq cuts the connection before anything
        // larger reaches the subscription trie (a ~112 KiB one overflows its stack).
        try backend.set(.xpubManual, Int32(1))
        try backend.set(.maxMessageSize, Int64(subscriberFrameLimit))
    }
    try frontend.monitor(frontendMonitor, kinds: [.accepted, .disconnected])
    try backend.monitor(backendMonitor, kinds: [.accepted, .disconnected])
    let backendEvents = try ZMQSocket(context, .pair)
    try backendEvents.connect(backendMonitor)
    let control = try ZMQSocket(context, .rep)
    try control.bind(proxyControl)
    try frontend.bind(config.frontend)
    let frontendEndpoint = frontend.lastEndpoint
    try frontend.bind(inprocFrontend)
    try backend.bind(config.backend)
    let backendEndpoint = backend.lastEndpoint
    try backend.bind(inprocBackend)
    log.info("version \(MonsterBus.version), libzmq \(zmqVersion), pid \(getpid()); publishers connect to XSUB \(frontendEndpoint), subscribers to XPUB \(backendEndpoint)")
    if useZMQProxy { log.warn("BUS_PROXY=zmq_proxy: libzmq's proxy, without roles, checks or subscription limits (for the benchmark)") }

    let signals = ShutdownSignals(log: log) { context.shutdown() }
    var registryConfig = config
    registryConfig.frontend = inprocFrontend
    registryConfig.backend = inprocBackend
    let counters = ProxyCounters()
    let registry = BusRegistryLoop(
        context: context, config: registryConfig, log: log, frontendMonitor: frontendMonitor,
        proxy: useZMQProxy ? .zmqProxy(control: proxyControl) : .own(counters), refusalsEndpoint: refusalsEndpoint)
    let thread = OSThread { registry.run() }

    if useZMQProxy {
        try runSteerableProxy(frontend: frontend, backend: backend, control: control)
    } else {
        let refusals = try ZMQSocket(context, .push)
        try refusals.set(.sendHighWaterMark, Int32(10_000))
        try refusals.connect(refusalsEndpoint)
        let identities = ClientIdentities(allowList: security.allowList, ownKey: security.ownKey)
        try BusProxy(
            frontend: frontend, backend: backend, refusals: refusals, backendEvents: backendEvents,
            reloads: reloadPipe[0], policy: policy, identities: identities, counters: counters
        ).run()
        refusals.close()
    }
    thread.join()
    security.join()
    backendEvents.close()
    control.close()
    frontend.close()
    backend.close()
    withExtendedLifetime(signals) {}
    log.info("stopped")
    exit(0)
} catch {
    log.error("\(error)")
    exit(1)
}
