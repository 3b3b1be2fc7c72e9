import BusCore
import Domain
import Glibc
import ProcessSupport
import Wire
import ZeroMQ

/// The bus as one lifecycle. It owns the ZeroMQ context and the three parts that live in it:
/// the ZAP handler (`BusSecurity`, on its own thread), the registry (`BusRegistryLoop`, on its
/// own thread: heartbeats, `gateway status`, pings, refusals) and the proxy (`BusProxy`, or
/// libzmq's with `BUS_PROXY=zmq_proxy`, on the thread that calls `run`).
///
/// `run` starts them in order — the ZAP handler before any socket binds, so no client connects
/// unchecked; the proxy's sockets bound before the registry connects to them — and forwards
/// until the first SIGTERM or SIGINT, which shuts the context down. It then stops them in the
/// reverse order: the proxy takes nothing more, the registry and the ZAP handler end, and what
/// the proxy had already passed on goes on to its subscribers for at most
/// `SHUTDOWN_DEADLINE_MS` (the backend's linger) before the bus leaves. A second signal makes
/// it leave at once (`ShutdownSignals`), as a service does.
final class Bus {
    /// Which loop forwards the messages.
    enum Forwarding {
        /// The bus's own (`BusProxy`): roles, checks and limits.
        case ownLoop
        /// libzmq's steerable proxy (`BUS_PROXY=zmq_proxy`): no roles, no checks, no limits on
        /// subscriptions. Only the benchmark uses it, to measure what the own loop costs.
        case zmqProxy
    }

    private let config: BusConfig
    private let forwarding: Forwarding
    private let log: Log
    private let security: BusSecurity

    /// A bus configured by `config`, forwarding with `forwarding`; reads the allow-list (with
    /// CURVE), a missing or invalid one being an error.
    init(config: BusConfig, forwarding: Forwarding) throws(ConfigError) {
        self.config = config
        self.forwarding = forwarding
        log = Log(service: MonsterBus.Service.bus, level: config.logLevel, format: config.logFormat)
        security = try BusSecurity(config: config, log: log)
    }

    /// Runs the bus until SIGTERM or SIGINT (or its ZAP handler fails); returns the exit status:
    /// 0 once stopped, 1 if it could not start.
    func run() -> Int32 {
        let context: ZMQContext
        do {
            context = try ZMQContext()
        } catch {
            log.error("\(error)")
            return 1
        }
        let signalledAt = Locked<Double?>(nil)
        let signals = ShutdownSignals(log: log) {
            signalledAt.withLock { $0 = Timestamp.monotonic() }
            context.shutdown()
        }
        let parts = Parts()
        var status: Int32 = 0
        do {
            let started = try start(parts, in: context)
            try forward(started.sockets, reloads: started.reloads, counters: parts.counters, context: context)
        } catch let error as ZMQError where error.isTerminated {
            // Signalled while starting: nothing to report.
        } catch {
            log.error("\(error)")
            status = 1
        }
        stop(parts, context: context, signalledAt: signalledAt.current)
        withExtendedLifetime(signals) {}
        return status
    }

    /// Starts the parts in order: the ZAP handler (with SIGHUP's reload), the proxy's sockets
    /// (bound), then the registry's thread; each goes into `parts` as soon as it is there.
    /// Returns what the proxy runs on.
    private func start(_ parts: Parts, in context: ZMQContext) throws -> (sockets: ProxySockets, reloads: ReloadPipe) {
        let reloads = try ReloadPipe()
        try security.start(context: context) { reloads.wake() }
        let sockets = try ProxySockets(context: context, config: config, forwarding: forwarding, security: security)
        parts.sockets = sockets
        log.info("version \(MonsterBus.version), libzmq \(zmqVersion), pid \(getpid()); publishers connect to XSUB \(sockets.frontendEndpoint), subscribers to XPUB \(sockets.backendEndpoint)")
        parts.registry = startRegistry(context, counters: parts.counters)
        return (sockets, reloads)
    }

    /// Runs the proxy on this thread until the context is shut down.
    private func forward(_ sockets: ProxySockets, reloads: ReloadPipe, counters: ProxyCounters, context: ZMQContext) throws {
        switch forwarding {
        case .zmqProxy:
            log.warn("BUS_PROXY=zmq_proxy: libzmq's proxy, without roles, checks or subscription limits (for the benchmark)")
            try runSteerableProxy(frontend: sockets.frontend, backend: sockets.backend, control: sockets.control)
        case .ownLoop:
            let refusals = try ZMQSocket(context, .push)
            defer { refusals.close() }
            try refusals.set(.sendHighWaterMark, Int32(10_000))
            try refusals.connect(InProcess.refusals.endpoint)
            let identities = ClientIdentities(allowList: security.allowList, ownKey: security.ownKey)
            try BusProxy(
                frontend: sockets.frontend, backend: sockets.backend, refusals: refusals, backendEvents: sockets.backendEvents,
                reloads: reloads.readDescriptor, policy: BusPolicy(), identities: identities, counters: counters
            ).run()
        }
    }

    /// Starts the registry's thread, connected to the proxy in-process.
    private func startRegistry(_ context: ZMQContext, counters: ProxyCounters) -> OSThread {
        var registryConfig = config
        registryConfig.frontend = InProcess.frontend.endpoint
        registryConfig.backend = InProcess.backend.endpoint
        let proxy: BusRegistryLoop.ProxyKind = switch forwarding {
        case .ownLoop: .own(counters)
        case .zmqProxy: .zmqProxy(control: InProcess.proxyControl.endpoint)
        }
        let registry = BusRegistryLoop(
            context: context, config: registryConfig, log: log, proxy: proxy,
            frontendMonitor: InProcess.frontendMonitor.endpoint, refusalsEndpoint: InProcess.refusals.endpoint)
        return OSThread { registry.run() }
    }

    /// Stops the parts in the reverse order of their start: the registry and the ZAP handler
    /// end (the context is shut down), the proxy's sockets close, and the context ends once the
    /// backend has passed on what it held, or `SHUTDOWN_DEADLINE_MS` has passed.
    private func stop(_ parts: Parts, context: ZMQContext, signalledAt: Double?) {
        context.shutdown()
        parts.registry?.join()
        security.join()
        let deadline = config.shutdownDeadlineMilliseconds
        if signalledAt != nil {
            log.info("signal received; the proxy stopped; what subscribers have not taken yet goes on to them for at most SHUTDOWN_DEADLINE_MS (\(deadline) ms)")
        }
        let closed = Timestamp.monotonic()
        parts.sockets?.close()
        context.terminate()
        let now = Timestamp.monotonic()
        // libzmq's linger timer counts whole milliseconds: it may end a little before the
        // deadline by this clock.
        if deadline > 0, Int(((now - closed) * 1000).rounded()) >= deadline - 2 {
            log.warn("SHUTDOWN_DEADLINE_MS (\(deadline) ms) passed: leaving what subscribers had not taken yet")
        }
        if let signalledAt {
            log.info("stopped \(Int(((now - signalledAt) * 1000).rounded())) ms after the signal")
        } else {
            log.info("stopped")
        }
    }
}

/// What `Bus.start` has started so far: what the proxy runs on and `Bus.stop` ends.
private final class Parts {
    /// The proxy's sockets, bound.
    var sockets: ProxySockets?
    /// The registry's thread.
    var registry: OSThread?
    /// What the bus's own proxy counts, read by the registry for the heartbeat.
    let counters = ProxyCounters()
}

/// In-process endpoints: the registry's connection to the proxy, the proxy's socket monitors,
/// libzmq's proxy's control socket, and where the proxy hands refusals to the registry.
private enum InProcess: String {
    case frontend, backend, frontendMonitor = "frontend-monitor", backendMonitor = "backend-monitor"
    case proxyControl = "proxy-control", refusals

    /// Its address, e.g. `inproc://bus-frontend`.
    var endpoint: String { "inproc://bus-\(rawValue)" }
}

/// The largest frame a subscriber may send the bus: room for the handshake's commands (a CURVE
/// INITIATE with its metadata is about 300 bytes; the limit applies to them too) and for any
/// subscription the policy could accept (at most the longest topic).
private let subscriberFrameLimit = 1024

/// The proxy's sockets, made and bound on the thread that runs the proxy: the XSUB frontend and
/// the XPUB backend (on the configured endpoints and in-process for the registry), the
/// backend's connection events, and libzmq's proxy's control socket.
private final class ProxySockets {
    let frontend, backend, backendEvents, control: ZMQSocket
    /// Where publishers connect, as bound (a `*` port resolved).
    let frontendEndpoint: String
    /// Where subscribers connect, as bound.
    let backendEndpoint: String

    /// Makes the sockets in `context`, secured by `security`, and binds them.
    init(context: ZMQContext, config: BusConfig, forwarding: Bus.Forwarding, security: BusSecurity) throws {
        frontend = try ZMQSocket(context, .xsub)
        // After SIGTERM the backend passes on what it holds for at most the deadline.
        backend = try ZMQSocket(context, .xpub, lingerMilliseconds: Int32(config.shutdownDeadlineMilliseconds))
        try security.secure(frontend)
        try security.secure(backend)
        try frontend.set(.receiveHighWaterMark, config.highWaterMark)
        try backend.set(.sendHighWaterMark, config.highWaterMark)
        // Oversized messages are refused at the socket: libzmq drops the message and the sender's
        // connection (which reconnects); the registry counts such disconnects.
        try frontend.set(.maxMessageSize, Int64(config.maxMessageBytes + 1024))
        switch forwarding {
        case .zmqProxy:
            try backend.set(.xpubNoDrop, Int32(1))
        case .ownLoop:
            // A slow subscriber loses what overflows its own queue and nobody else waits for it
            // (no XPUB_NODROP); the watcher sees the gap in the senders' sequence numbers.
            // Subscriptions are the bus's to accept (manual mode), and a subscriber can send
            // nothing longer than `subscriberFrameLimit`: libzmq cuts the connection before anything
            // larger reaches the subscription trie (a ~112 KiB one overflows its stack).
            try backend.set(.xpubManual, Int32(1))
            try backend.set(.maxMessageSize, Int64(subscriberFrameLimit))
        }
        try frontend.monitor(InProcess.frontendMonitor.endpoint, kinds: [.accepted, .disconnected])
        try backend.monitor(InProcess.backendMonitor.endpoint, kinds: [.accepted, .disconnected])
        backendEvents = try ZMQSocket(context, .pair)
        try backendEvents.connect(InProcess.backendMonitor.endpoint)
        control = try ZMQSocket(context, .rep)
        try control.bind(InProcess.proxyControl.endpoint)
        try frontend.bind(config.frontend)
        frontendEndpoint = frontend.lastEndpoint
        try frontend.bind(InProcess.frontend.endpoint)
        try backend.bind(config.backend)
        backendEndpoint = backend.lastEndpoint
        try backend.bind(InProcess.backend.endpoint)
    }

    /// Closes them all (the backend lingers).
    func close() {
        for socket in [backendEvents, control, frontend, backend] { socket.close() }
    }
}

/// A pipe that wakes the proxy's loop after SIGHUP's reload (non-blocking at both ends).
private final class ReloadPipe: Sendable {
    /// The end the proxy polls and drains.
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    /// Opens the pipe.
    init() throws {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw ConfigError("pipe() failed") }
        for fd in descriptors { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    /// Makes the read end readable (from the SIGHUP thread).
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }
}
