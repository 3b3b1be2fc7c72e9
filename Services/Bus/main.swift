import BusKit
import Glibc
import MonsterKit
import ZeroMQ

// bus: the XSUB/XPUB proxy every other process connects to. Publishers connect to
// BUS_FRONTEND (XSUB), subscribers to BUS_BACKEND (XPUB).

ParentWatch.start()
let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--version") {
    print("bus \(MonsterBus.version) (libzmq \(zmqVersion))")
    exit(0)
}
if arguments.contains("--help") || arguments.contains("-h") {
    print("""
        usage: bus
        Runs the message bus: an XSUB/XPUB proxy. Configuration comes from the environment:
          BUS_FRONTEND           XSUB endpoint publishers connect to (default tcp://127.0.0.1:5555)
          BUS_BACKEND            XPUB endpoint subscribers connect to (default tcp://127.0.0.1:5556)
          HEARTBEAT_INTERVAL_MS  heartbeat interval (default 1000)
          BUS_KEYS_DIR           CURVE: serve with bus.key_secret, admit only authorized/*.key
                                 (gateway keys init DIR creates them; unset: plaintext)
          LOG_LEVEL              debug, info, warn or error (default info)
        """)
    exit(0)
}
if let unknown = arguments.first {
    Log.standardError("bus: unknown argument '\(unknown)' (try --help)\n")
    exit(2)
}

let config: BusConfig
do {
    config = try BusConfig.fromEnvironment(component: MonsterBus.Service.bus)
} catch {
    Log.standardError("bus: \(error)\n")
    exit(2)
}
let log = Log(service: MonsterBus.Service.bus, level: config.logLevel)
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
let proxyControl = "inproc://bus-proxy-control"

do {
    let context = try ZMQContext()
    try security.start(context: context)
    let frontend = try ZMQSocket(context, .xsub)
    let backend = try ZMQSocket(context, .xpub)
    try security.secure(frontend)
    try security.secure(backend)
    // Deliberate queues, and no silent drop: a subscriber that falls a whole queue behind
    // makes the proxy wait (and so the publishers), rather than lose its messages.
    try frontend.set(.receiveHighWaterMark, config.highWaterMark)
    try backend.set(.sendHighWaterMark, config.highWaterMark)
    try backend.set(.xpubNoDrop, Int32(1))
    // Oversized messages are refused at the socket: libzmq drops the message and the sender's
    // connection (which reconnects); the registry counts such disconnects.
    try frontend.set(.maxMessageSize, Int64(config.maxMessageBytes + 1024))
    try frontend.monitor(frontendMonitor, kinds: [.accepted, .disconnected])
    let control = try ZMQSocket(context, .rep)
    try control.bind(proxyControl)
    try frontend.bind(config.frontend)
    let frontendEndpoint = frontend.lastEndpoint
    try frontend.bind(inprocFrontend)
    try backend.bind(config.backend)
    let backendEndpoint = backend.lastEndpoint
    try backend.bind(inprocBackend)
    log.info("version \(MonsterBus.version), libzmq \(zmqVersion), pid \(getpid()); publishers connect to XSUB \(frontendEndpoint), subscribers to XPUB \(backendEndpoint)")

    let waker = SignalWaker { _ in context.shutdown() }
    var registryConfig = config
    registryConfig.frontend = inprocFrontend
    registryConfig.backend = inprocBackend
    let registry = BusRegistryLoop(
        context: context, config: registryConfig, log: log, frontendMonitor: frontendMonitor, proxyControl: proxyControl)
    let thread = OSThread { registry.run() }

    try runSteerableProxy(frontend: frontend, backend: backend, control: control)
    thread.join()
    security.join()
    control.close()
    frontend.close()
    backend.close()
    withExtendedLifetime(waker) {}
    log.info("stopped")
    exit(0)
} catch {
    log.error("\(error)")
    exit(1)
}
