#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MonsterKit
import ZeroMQ

/// Runs one service on the bus: receives, hands each message to the handler, publishes what
/// it says and an `ack`, answers pings, heartbeats, and leaves cleanly on SIGTERM/SIGINT
/// after handling whatever had already arrived. Everything happens on the calling thread.
public final class ServiceRuntime<Handler: ServiceHandler> {
    private let name: String
    private let config: BusConfig
    private let log: Log
    private var handler: Handler
    private var counters: [String: UInt64] = [:]
    private let started = Timestamp.monotonic()
    private var readyPingIds: Set<String> = []
    private var signalledAt: Double?
    private var isReady = false
    private var window: DeliveryWindow

    /// A runtime for the service `name` with `handler`, configured by `config`.
    public init(name: String, handler: Handler, config: BusConfig) {
        self.name = name
        self.handler = handler
        self.config = config
        self.log = Log(service: name, level: config.logLevel, format: config.logFormat)
        window = DeliveryWindow(
            timeToLive: Double(config.actionTimeToLiveMilliseconds) / 1000,
            clockSkew: Double(config.clockSkewMilliseconds) / 1000, capacity: config.idempotenceWindow)
    }

    /// Runs until SIGTERM or SIGINT; returns the process exit status.
    public func run() -> Int32 {
        let waker = SignalWaker()
        do {
            let context = try ZMQContext()
            let bus = try BusConnection(
                context: context, config: config, service: name,
                subscriptions: handler.subscriptions + [MessageType.ping.rawValue], lingerMilliseconds: 500)
            defer { bus.close() }
            log.info("version \(MonsterBus.version), pid \(getpid()), publishing to \(config.frontend), subscribed at \(config.backend)")
            try loop(bus, waker: waker)
            bus.close()
            let took = Int(((Timestamp.monotonic() - (signalledAt ?? Timestamp.monotonic())) * 1000).rounded())
            log.info("stopped \(took) ms after the signal: \(counterSummary)")
            return 0
        } catch {
            log.error("\(error)")
            return 1
        }
    }

    private func loop(_ bus: BusConnection, waker: SignalWaker) throws {
        let interval = Double(config.heartbeatIntervalMilliseconds) / 1000
        var nextHeartbeat = Timestamp.monotonic()
        var nextReadyPing = Timestamp.monotonic()
        var readyRetry = 0.01
        while true {
            let now = Timestamp.monotonic()
            if now >= nextHeartbeat {
                try publishHeartbeat(bus)
                nextHeartbeat = now + interval
                let forgotten = handler.forgetIdleDevices(now: Timestamp.wallClock())
                if !forgotten.isEmpty {
                    counters["devicesExpired", default: 0] += UInt64(forgotten.count)
                    log.info("forgot \(forgotten.count) device(s) unused for more than DEVICE_IDLE_EXPIRY_SECONDS: \(forgotten.prefix(10).joined(separator: ", "))\(forgotten.count > 10 ? ", …" : "")")
                }
            }
            if !isReady && now >= nextReadyPing {
                readyPingIds.insert(try bus.publish(.ping(Ping())).id)
                nextReadyPing = now + readyRetry
                readyRetry = min(readyRetry * 2, 0.25)
            }
            let wakeAt = isReady ? nextHeartbeat : min(nextHeartbeat, nextReadyPing)
            let timeout = max(0, Int((wakeAt - Timestamp.monotonic()) * 1000) + 1)
            let ready = try poll([bus.pollItem, .fileDescriptor(waker.readDescriptor)], timeoutMilliseconds: timeout)
            if ready[1] {
                signalledAt = Timestamp.monotonic()
                // Stop: first handle everything that has already arrived.
                var drained = 0
                while let frames = try bus.receiveFramesNow() {
                    try processCounted(frames, on: bus)
                    drained += 1
                }
                log.info("signal received; handled \(drained) waiting message(s), leaving")
                return
            }
            if ready[0] {
                // Take what is waiting in one go, but let heartbeats through under load.
                var batch = 0
                while batch < 1000, let frames = try bus.receiveFramesNow() {
                    try processCounted(frames, on: bus)
                    batch += 1
                }
            }
        }
    }

    private func count(_ key: String) { counters[key, default: 0] += 1 }

    private var counterSummary: String {
        counters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    /// Processes one message; a message the bus would not take in time has been counted and
    /// logged, and the service goes on.
    private func processCounted(_ frames: [[UInt8]], on bus: BusConnection) throws {
        do {
            try process(frames, on: bus)
        } catch let error as BusBackpressure {
            log.error("\(error)")
        }
    }

    /// Decodes one message and does what it asks.
    private func process(_ frames: [[UInt8]], on bus: BusConnection) throws {
        count("received")
        let started = Timestamp.monotonic()
        let envelope: Envelope
        do {
            envelope = try bus.codec.decode(frames: frames)
        } catch {
            count("errors")
            log.warn("refused a message: \(error)")
            let excerpt = frames.count >= 2 ? EnvelopeCodec.excerpt(frames[1]) : frames.first.map(EnvelopeCodec.excerpt)
            let body = ErrorBody(code: error.code.rawValue, message: error.reason, offendingId: error.offendingId, excerpt: excerpt)
            let sent = try bus.publish(.error(body), correlationId: error.offendingId)
            if let offendingId = error.offendingId {
                try bus.publish(
                    .ack(Ack(handled: "unreadable", handledId: offendingId, emitted: [sent.id], forwarded: [])),
                    correlationId: offendingId)
            }
            return
        }
        if case .ping = envelope.body {
            if readyPingIds.contains(envelope.id) {
                if !isReady {
                    log.info("ready: the path through the bus is live")
                    // Tell the bus at once, rather than at the next interval.
                    try publishHeartbeat(bus)
                }
                isReady = true
                readyPingIds = []
            } else {
                // Until this service has heard its own ping, the bus may not have its heartbeat
                // yet: send one first, so whoever this pong reassures also finds it in status.
                if !isReady { try publishHeartbeat(bus) }
                try bus.send(bus.envelope(.pong(Pong(service: name, version: MonsterBus.version, pid: getpid())), causedBy: envelope))
            }
            return
        }
        guard handler.accepts(envelope) else {
            count("ignored")
            return
        }
        let verdict = window.check(id: envelope.id, time: envelope.time, now: Timestamp.wallClock())
        let reply: Reply
        switch verdict {
        case .fresh:
            reply = handler.handle(envelope)
        case .duplicate(var ack):
            // Already handled: its first acknowledgement again, marked duplicate; nothing is
            // decided or published again (what it lists was sent the first time).
            count("duplicates")
            ack.duplicate = true
            try bus.send(bus.envelope(.ack(ack), causedBy: envelope))
            return
        case .tooOld(let waited), .forgotten(let waited):
            count("refusedOverload")
            let why = if case .forgotten = verdict {
                "it was sent \(waited) ms ago, before ids this service had to forget (IDEMPOTENCE_WINDOW \(config.idempotenceWindow)), so it cannot tell whether it handled it"
            } else {
                "it waited \(waited) ms on the bus, more than ACTION_TTL_MS (\(config.actionTimeToLiveMilliseconds) ms)"
            }
            reply = Reply([.error(.overloaded, "refused: \(why); the service is overloaded", offendingId: envelope.id)])
        case .fromTheFuture(let ahead):
            reply = Reply([.error(
                MessageError.Code.badTime,
                "refused: its time \(envelope.time) is \(ahead) ms ahead of this service's clock, more than CLOCK_SKEW_MS (\(config.clockSkewMilliseconds) ms)",
                offendingId: envelope.id)])
        case .unreadableTime:
            reply = Reply([.error(MessageError.Code.badTime, "refused: its time is not a timestamp", offendingId: envelope.id)])
        }
        count("handled")
        // Everything is encoded first and then sent back to back, so that libzmq's I/O thread
        // can write it in one go.
        var (outgoing, emitted, forwarded) = try encode(reply.effects, causedBy: envelope, on: bus)
        if outgoing.isEmpty && !reply.effects.isEmpty {
            // A decision held a number JSON cannot carry: refuse rather than send what no peer decodes.
            (outgoing, emitted, forwarded) = try encode(
                [.error(MessageError.Code.nonFinite, "refused: its outcome held a number that is not finite; nothing was sent", offendingId: envelope.id)],
                causedBy: envelope, on: bus)
        }
        let ackBody = Ack(handled: envelope.type.rawValue, handledId: envelope.id, emitted: emitted, forwarded: forwarded, duplicate: reply.duplicate)
        outgoing.append(try bus.codec.frames(bus.envelope(.ack(ackBody), causedBy: envelope)))
        log.info(
            "span: handled \(envelope.type.rawValue) from \(envelope.service) in \(Int(((Timestamp.monotonic() - started) * 1_000_000).rounded())) µs; published \((reply.effects.map(\.body.type.rawValue) + ["ack"]).joined(separator: ", "))",
            context: LogContext(envelope))
        for frames in outgoing { try bus.sendRaw(frames) }
        if case .fresh(let sent) = verdict {
            window.remember(id: envelope.id, sent: sent, ack: ackBody, now: Timestamp.wallClock())
        }
    }

    /// The frames of `effects` as messages caused by `envelope`, their ids, and those passed on
    /// to another service; nothing at all if one of them cannot be encoded (logged; the caller
    /// sends an `error` instead, counted then).
    private func encode(
        _ effects: [Effect], causedBy envelope: Envelope, on bus: BusConnection
    ) throws(MessageError) -> ([[[UInt8]]], [String], [Forward]) {
        var outgoing: [[[UInt8]]] = []
        var emitted: [String] = []
        var forwarded: [Forward] = []
        for effect in effects {
            let message = bus.envelope(effect.body, causedBy: envelope, device: effect.device)
            do {
                outgoing.append(try bus.codec.frames(message))
            } catch {
                log.error("refused to publish what \(envelope.type.rawValue) \(envelope.id) caused: \(error)")
                return ([], [], [])
            }
            emitted.append(message.id)
            if let service = effect.forwardTo { forwarded.append(Forward(id: message.id, service: service)) }
            if case .error(let error) = effect.body {
                count("errors")
                log.info("refused \(envelope.type.rawValue) \(envelope.id): \(error.code): \(error.message)", context: LogContext(envelope))
            }
        }
        return (outgoing, emitted, forwarded)
    }

    private func publishHeartbeat(_ bus: BusConnection) throws {
        counters["sendWaits"] = bus.sendWaits
        counters["sendsDropped"] = bus.sendsDropped
        let heartbeat = Heartbeat(
            service: name, version: MonsterBus.version, pid: getpid(),
            uptimeSeconds: (Timestamp.monotonic() - started).rounded(toPlaces: 3),
            intervalMilliseconds: config.heartbeatIntervalMilliseconds, counters: counters)
        do {
            try bus.publish(.heartbeat(heartbeat))
        } catch let error as BusBackpressure {
            log.error("heartbeat: \(error)")
        }
    }
}

extension Double {
    /// This number rounded to `places` decimal places.
    func rounded(toPlaces places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (self * scale).rounded() / scale
    }
}
