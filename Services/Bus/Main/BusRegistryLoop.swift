import BusCore
import Domain
import Glibc
import ProcessSupport
import Runtime
import Wire
import ZeroMQ
import ZeroMQTransport

/// The bus's own client, inside the bus process: it listens to heartbeats, answers
/// `sys.status.request` with what it heard and `sys.ping` as `bus`, and heartbeats itself with
/// the proxy's counters (messages through it and refused, subscriptions, publisher connections
/// made and dropped). It answers each refusal the proxy hands it with an `error` to the sender
/// (correlated with the refused message) and logs them, at most one line per code every 10 s.
/// Runs on its own thread until the context is shut down.
struct BusRegistryLoop {
    let context: ZMQContext
    let config: BusConfig
    let log: Log
    /// The proxy's counters (the bus's own loop), or its control socket (`zmq_proxy`).
    let proxy: ProxyKind
    /// Where the frontend's socket events are published, and where the proxy pushes its refusals.
    let frontendMonitor, refusalsEndpoint: String

    /// Which proxy the bus runs, and so where its counters come from.
    enum ProxyKind {
        /// The bus's own loop, with its counters.
        case own(ProxyCounters)
        /// libzmq's steerable proxy (`BUS_PROXY=zmq_proxy`, for the benchmark), asked over its control socket.
        case zmqProxy(control: String)
    }

    func run() {
        do {
            let bus = try BusConnection(
                context: context, config: config, service: MonsterBus.Service.bus,
                subscriptions: [MessageType.heartbeat, .statusRequest, .ping, .lossReport].map(\.rawValue), lingerMilliseconds: 0)
            defer { bus.close() }
            let events = try ZMQSocket(context, .pair)
            try events.connect(frontendMonitor)
            defer { events.close() }
            let refusals = try ZMQSocket(context, .pull)
            try refusals.bind(refusalsEndpoint)
            defer { refusals.close() }
            var control: ZMQSocket?
            if case .zmqProxy(let endpoint) = proxy {
                control = try ZMQSocket(context, .req)
                try control?.connect(endpoint)
            }
            defer { control?.close() }
            try loop(bus, events: events, refusals: refusals, control: control)
        } catch let error as ZMQError where error.isTerminated {
            return
        } catch {
            log.error("registry stopped: \(error)")
        }
    }

    /// The proxy's statistics, asked over its control socket.
    private func statistics(_ control: ZMQSocket) throws -> ProxyStatistics {
        try control.send([Array("STATISTICS".utf8)])
        guard let frames = try control.receive(), let statistics = ProxyStatistics(frames: frames) else { return ProxyStatistics() }
        return statistics
    }

    private func loop(_ bus: BusConnection, events: ZMQSocket, refusals: ZMQSocket, control: ZMQSocket?) throws {
        var registry = BusRegistry()
        var counters: [String: UInt64] = [:]
        var refusalLog = RefusalLog()
        var heartbeats = HeartbeatSchedule(intervalMilliseconds: config.heartbeatIntervalMilliseconds, started: Timestamp.monotonic())
        func heartbeat() throws -> Heartbeat {
            switch proxy {
            case .own(let proxyCounters):
                counters.merge(proxyCounters.snapshot) { $1 }
            case .zmqProxy:
                guard let control else { break }
                let statistics = try statistics(control)
                counters["messagesIn"] = statistics.frontendMessagesIn
                counters["messagesOut"] = statistics.backendMessagesOut
            }
            counters["sendWaits"] = bus.sendWaits
            counters["sendsDropped"] = bus.sendsDropped
            return heartbeats.heartbeat(service: MonsterBus.Service.bus, pid: getpid(), counters: counters, now: Timestamp.monotonic())
        }
        while true {
            if heartbeats.isDue(at: Timestamp.monotonic()) {
                try bus.publish(.heartbeat(try heartbeat()))
            }
            let timeout = max(1, Int((heartbeats.next - Timestamp.monotonic()) * 1000) + 1)
            let ready = try poll([bus.pollItem, .socket(events), .socket(refusals)], timeoutMilliseconds: timeout)
            if ready[2] {
                while let frames = try refusals.receive(dontWait: true), let refusal = RefusedMessage(frames: frames) {
                    if let line = refusalLog.line(for: refusal, now: Timestamp.monotonic()) { log.warn(line) }
                    try bus.publish(
                        .error(ErrorBody(code: refusal.code, message: refusal.explanation, offendingId: refusal.offendingId)),
                        correlationId: refusal.correlationId ?? refusal.offendingId, device: refusal.device, replyTo: refusal.replyTo)
                }
            }
            if ready[1], let frames = try events.receive(dontWait: true), let event = MonitorEvent(frames: frames) {
                // A dropped publisher connection: a client that left, or one refused for an
                // oversized message (libzmq 4.3.4 does not say which).
                counters[event.is(.accepted) ? "publishersConnected" : "publishersDisconnected", default: 0] += 1
            }
            guard ready[0], let frames = try bus.receiveFramesNow() else { continue }
            // Its own heartbeats come back to it (it hears every service's): dropped unread.
            if Self.isOwnHeartbeat(frames) { continue }
            guard let envelope = try? bus.codec.decode(frames: frames) else {
                counters["unreadable", default: 0] += 1
                continue
            }
            switch envelope.body {
            case .heartbeat(let beat) where beat.service != MonsterBus.Service.bus:
                registry.record(beat, at: Timestamp.monotonic())
            case .statusRequest:
                counters["statusRequests", default: 0] += 1
                let report = StatusReport(bus: try heartbeat(), services: registry.services(now: Timestamp.monotonic()))
                try bus.publish(.statusReport(report), correlationId: envelope.correlationId, device: envelope.device)
            case .lossReport(let report):
                let missed = report.missed.values.reduce(0, &+)
                counters["slowReaderReports", default: 0] += 1
                counters["slowReaderLosses", default: 0] &+= missed
                log.info("\(envelope.service) fell behind: the bus dropped \(missed) message(s) it was sent (\(report.missed.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")))")
            case .ping:
                try bus.publish(
                    .pong(Pong(service: MonsterBus.Service.bus, version: MonsterBus.version, pid: getpid())),
                    correlationId: envelope.correlationId, device: envelope.device, replyTo: envelope.replyTo)
            default:
                break
            }
        }
    }

    /// Whether `frames` are a heartbeat whose header's `service` is the bus: the registry's own
    /// (in CURVE, no other client may send as `bus`; in plaintext anyone may send anything).
    private static func isOwnHeartbeat(_ frames: [[UInt8]]) -> Bool {
        guard frames.count == 2, Topic.typePart(frames[0]).elementsEqual(MessageType.heartbeat.rawValue.utf8),
              let heartbeat = try? EnvelopeCodec().decode(frames[1]) else { return false }
        return heartbeat.service == MonsterBus.Service.bus
    }
}
