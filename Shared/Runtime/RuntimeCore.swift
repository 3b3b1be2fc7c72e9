import Domain
import JSON
import ProcessSupport
import Wire

/// The clocks a runtime reads: seconds since 1970 (`wall`, for message times and expiry) and a
/// monotonic clock (for heartbeats, retries and durations). Injected, so tests set the time.
public struct RuntimeClock: Sendable {
    /// Seconds since 1970.
    public var wall: @Sendable () -> Double
    /// Seconds on a clock that never goes back.
    public var monotonic: @Sendable () -> Double

    /// A clock reading `wall` and `monotonic`.
    public init(wall: @escaping @Sendable () -> Double, monotonic: @escaping @Sendable () -> Double) {
        self.wall = wall; self.monotonic = monotonic
    }

    /// The system's clocks.
    public static let system = RuntimeClock(wall: { Timestamp.wallClock() }, monotonic: { Timestamp.monotonic() })

    /// Both clocks now.
    public func now() -> RuntimeInstant { RuntimeInstant(wall: wall(), monotonic: monotonic()) }
}

/// One moment on both clocks.
public struct RuntimeInstant: Sendable, Equatable {
    /// Seconds since 1970.
    public var wall: Double
    /// Seconds on the monotonic clock.
    public var monotonic: Double

    /// The moment `wall` (since 1970) and `monotonic`.
    public init(wall: Double, monotonic: Double) { self.wall = wall; self.monotonic = monotonic }
}

/// What the runtime's I/O loop does for the core, in order.
public enum Outgoing: Sendable, Equatable {
    /// Publish these frames (already encoded: the decision's messages).
    case frames([[UInt8]])
    /// Encode this envelope when its turn comes, then publish it (the acknowledgement, encoded
    /// only after the messages before it have gone; pongs, heartbeats, pings, errors).
    case message(Envelope)
    /// Receive the topics starting with this prefix too (a sharded instance's new buckets).
    case subscribe(String)
    /// Stop receiving the topics starting with this prefix.
    case unsubscribe(String)
}

/// What a service has done since it started, in its heartbeat and its last log line. Plain
/// fields: counting a message is an addition, not a dictionary lookup.
public struct RuntimeCounters: Sendable, Equatable {
    /// Messages taken off the bus, readable or not.
    public var received: UInt64 = 0
    /// Messages of a handled type this instance decided on (refusals included).
    public var handled: UInt64 = 0
    /// Messages subscribed to but not this instance's (another sharded instance's device).
    public var ignored: UInt64 = 0
    /// Repeats of an id already handled, answered with the first ack.
    public var duplicates: UInt64 = 0
    /// Unreadable messages and refusals answered with `error`.
    public var errors: UInt64 = 0
    /// Messages older than ACTION_TTL_MS or the idempotence window, refused as `overloaded`.
    public var refusedOverload: UInt64 = 0
    /// Devices forgotten for being idle longer than DEVICE_IDLE_EXPIRY_SECONDS.
    public var devicesExpired: UInt64 = 0
    /// Sends that had to wait for the bus's queue (the transport's count).
    public var sendWaits: UInt64 = 0
    /// Sends the bus would not take in time (the transport's count).
    public var sendsDropped: UInt64 = 0
    /// Second copies dropped on receipt from a pair of buses (the transport's count): not
    /// duplicates, each message's other bus delivering it too.
    public var pairCopies: UInt64 = 0
    /// Messages one bus of a pair did not take (full: slow or hung) while the other did (the
    /// transport's count).
    public var pairSkips: UInt64 = 0

    /// A service that has done nothing yet.
    public init() {}

    /// By name, as heartbeats carry them: those counted at least once, and always the two of
    /// the transport.
    public var byName: [String: UInt64] {
        var named: [String: UInt64] = ["sendWaits": sendWaits, "sendsDropped": sendsDropped]
        for (name, value) in [
            ("received", received), ("handled", handled), ("ignored", ignored), ("duplicates", duplicates),
            ("errors", errors), ("refusedOverload", refusedOverload), ("devicesExpired", devicesExpired), ("pairCopies", pairCopies),
            ("pairSkips", pairSkips),
        ] where value > 0 { named[name] = value }
        return named
    }

    /// `name=value` pairs sorted by name, for the last log line.
    public var summary: String {
        byName.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }
}

/// A service's runtime decisions, without sockets, threads or clocks of its own (as
/// Hummingbird's connection state machines): what it receives goes in as frames with the time,
/// what it must publish comes out as `Outgoing` values for the I/O loop (`ServiceRuntime`).
/// It decodes and refuses, answers pings, waits for its own ready ping, checks the time to live
/// and duplicates (`DeliveryWindow`), hands messages to the handler, builds the acknowledgement,
/// heartbeats, expires idle devices and counts. Log lines go to an injected sink, built only
/// when its level lets them through.
public struct RuntimeCore<Handler: ServiceHandler> {
    /// Receives each log line the core writes (level, text, context).
    public typealias LogSink = (LogLevel, String, LogContext?) -> Void

    /// How the core is set up.
    public struct Settings: Sendable {
        /// The service's name, in `service` of what it sends.
        public var name: String
        /// The process id, in heartbeats and pongs.
        public var pid: Int32
        /// `HEARTBEAT_INTERVAL_MS`, as heartbeats say it.
        public var heartbeatIntervalMilliseconds: Int
        /// `ACTION_TTL_MS`.
        public var timeToLiveMilliseconds: Int
        /// `CLOCK_SKEW_MS`.
        public var clockSkewMilliseconds: Int
        /// `IDEMPOTENCE_WINDOW`.
        public var idempotenceWindow: Int
        /// `BUS_MAX_MESSAGE_BYTES`.
        public var maxMessageBytes: Int

        /// The settings of service `name` (process `pid`) from `config`.
        public init(name: String, pid: Int32, config: BusConfig) {
            self.name = name; self.pid = pid
            heartbeatIntervalMilliseconds = config.heartbeatIntervalMilliseconds
            timeToLiveMilliseconds = config.actionTimeToLiveMilliseconds
            clockSkewMilliseconds = config.clockSkewMilliseconds
            idempotenceWindow = config.idempotenceWindow
            maxMessageBytes = config.maxMessageBytes
        }
    }

    /// The handler the messages go to.
    public private(set) var handler: Handler
    /// What has been done so far.
    public private(set) var counters = RuntimeCounters()
    /// Whether this service has heard its own ping back: the path through the bus is live.
    public private(set) var isReady = false
    /// The codec (the bus's size limit), also for the loop's encoding of `Outgoing.message`.
    public let codec: EnvelopeCodec
    /// Where the decisions' JSON is written, one message after another (the core runs on one thread).
    private let writer = JSONWriter()
    /// The large bodies decided lately, whose JSON is copied when an equal one is decided again.
    private var memo: BodyMemo? = BodyMemo()
    /// The `replyTo` of the message received last: the next one's, when the same, is that text.
    private var recent = TextMemo()
    /// The topic frames of the decisions sent lately, taken again for the same client.
    private var topics: TopicMemo? = TopicMemo()
    private let settings: Settings
    private let clock: RuntimeClock
    private var maker: EnvelopeMaker
    private let logLevel: LogLevel
    private let sink: LogSink
    private var window: DeliveryWindow
    private var heartbeats: HeartbeatSchedule
    /// The message decided last, until `settle` acknowledges it.
    private var settling: Settling?
    private var readyPingIds: Set<String> = []
    private var nextReadyPing = -Double.infinity
    private var readyRetry = 0.01

    /// A core for `handler` with `settings`, reading `clock`, taking ids from `ids` (a fresh
    /// `IDGenerator` if nil), writing log lines at `logLevel` and above to `log`.
    public init(
        handler: Handler, settings: Settings, clock: RuntimeClock = .system, ids: (@Sendable () -> String)? = nil,
        logLevel: LogLevel = .info, log: @escaping LogSink
    ) {
        self.handler = handler
        self.settings = settings
        self.clock = clock
        self.logLevel = logLevel
        sink = log
        codec = EnvelopeCodec(maxMessageBytes: settings.maxMessageBytes)
        maker = EnvelopeMaker(service: settings.name, ids: ids, wallClock: clock.wall)
        window = DeliveryWindow(
            timeToLive: Double(settings.timeToLiveMilliseconds) / 1000,
            clockSkew: Double(settings.clockSkewMilliseconds) / 1000, capacity: settings.idempotenceWindow)
        heartbeats = HeartbeatSchedule(intervalMilliseconds: settings.heartbeatIntervalMilliseconds, started: clock.monotonic())
    }

    /// The topic prefixes to subscribe to at the start: the handler's, and `sys.ping`.
    public var subscriptions: [String] { handler.subscriptions + [MessageType.ping.rawValue] }

    /// When (monotonic seconds) `tick` next has something to do.
    public var nextWake: Double { isReady ? min(heartbeats.next, handler.nextWake) : min(heartbeats.next, nextReadyPing) }

    /// The transport's own counters, for the next heartbeat.
    public mutating func noteTransport(sendWaits: UInt64, sendsDropped: UInt64, pairCopies: UInt64 = 0, pairSkips: UInt64 = 0) {
        counters.sendWaits = sendWaits; counters.sendsDropped = sendsDropped
        counters.pairCopies = pairCopies; counters.pairSkips = pairSkips
    }

    /// What is due at `now`: a heartbeat (and forgetting idle devices) every interval, and until
    /// the service is ready a ping to itself, retried at growing intervals up to 250 ms.
    public mutating func tick(now: RuntimeInstant) -> [Outgoing] {
        var outgoing: [Outgoing] = []
        if heartbeats.isDue(at: now.monotonic) {
            outgoing.append(heartbeat(now: now))
            let forgotten = handler.forgetIdleDevices(now: now.wall)
            if !forgotten.isEmpty {
                counters.devicesExpired += UInt64(forgotten.count)
                write(.info, "forgot \(forgotten.count) device(s) unused for more than DEVICE_IDLE_EXPIRY_SECONDS: \(forgotten.prefix(10).joined(separator: ", "))\(forgotten.count > 10 ? ", …" : "")")
            }
        }
        if !isReady && now.monotonic >= nextReadyPing {
            let ping = maker.envelope(.ping(Ping()))
            readyPingIds.insert(ping.id)
            outgoing.append(.message(ping))
            nextReadyPing = now.monotonic + readyRetry
            readyRetry = min(readyRetry * 2, 0.25)
        }
        // Most passes add nothing: no array is put together for them.
        let changes = subscriptionChanges(), own = messagesOfItsOwn()
        if !changes.isEmpty { outgoing += changes }
        if !own.isEmpty { outgoing += own }
        return outgoing
    }

    /// What the handler publishes on its own, once the path through the bus is live (kept until then).
    private mutating func messagesOfItsOwn() -> [Outgoing] {
        guard isReady else { return [] }
        return handler.messagesOfItsOwn().compactMap { own(maker.envelope($0.body, device: $0.device)) }
    }

    /// `envelope` to publish: as a message the loop encodes, or, for an update, which has more
    /// than two frames, as its frames (encoded now; nil, logged, when it cannot be).
    private mutating func own(_ envelope: Envelope) -> Outgoing? {
        guard case .replica(var update) = envelope.body else { return .message(envelope) }
        var envelope = envelope
        // An update no action caused (a handover, a new standby) names the device's last action:
        // what that sent onward goes with it, from the delivery window, for a retry of it.
        if let action = update.action, update.onward == nil {
            let forwards = window.forwards(of: action)
            if !forwards.isEmpty {
                update.onward = Self.onward(forwards)
                envelope.body = .replica(update)
            }
        }
        do {
            return .frames(try codec.frames(envelope, using: writer, memo: &memo, topics: &topics))
        } catch {
            write(.error, "refused to publish \(envelope.type.rawValue): \(error)")
            return nil
        }
    }

    /// The loop's wake-up (`ServiceHandler.wakeup`).
    public var wakeup: Wakeup? { handler.wakeup }

    /// What the handler asks to publish at once because it followed a change of its members
    /// while handling the last message: its new subscriptions, then the states it sends. Left to
    /// `tick`, they would wait for the end of the batch (up to 1,000 messages), and the bus would
    /// keep the new owner's buckets from it until then.
    public mutating func changesOfMembers() -> [Outgoing] {
        guard handler.hasPendingChanges else { return [] }
        let changes = subscriptionChanges(), own = messagesOfItsOwn()
        return changes + own
    }

    /// The subscriptions the handler asks to change (a sharded instance's buckets moved).
    private mutating func subscriptionChanges() -> [Outgoing] {
        let (add, remove) = handler.subscriptionChanges()
        guard !add.isEmpty || !remove.isEmpty else { return [] }
        write(.info, "subscriptions: +\(add.count) -\(remove.count)")
        return add.map(Outgoing.subscribe) + remove.map(Outgoing.unsubscribe)
    }

    /// What to publish because `frames` arrived at `now`: `decide`, then `settle`'s
    /// acknowledgement last (for a loop with nothing to do in between, and for tests).
    public mutating func received(_ frames: [[UInt8]], now: RuntimeInstant) -> [Outgoing] {
        var outgoing = decide(frames, now: now)
        if let ack = settle() { outgoing.append(ack) }
        return outgoing
    }

    /// What to publish at once because `frames` arrived at `now`: the decision's messages (or a
    /// refusal, a pong, a duplicate's first answers). What the decision does not need (its
    /// acknowledgement, remembering the message against duplicates, the log line) waits for
    /// `settle()`, which the loop calls once these have gone; a message left unsettled is
    /// settled before the next is decided.
    public mutating func decide(_ frames: [[UInt8]], now: RuntimeInstant) -> [Outgoing] {
        if let ack = settle() { return [ack] + decide(frames, now: now) }
        counters.received += 1
        if let topic = frames.first, handler.takesAsItCame(topic: topic) { return takeAsItCame(frames) }
        let envelope: Envelope
        // Its `time`, as the decoder read it to check it (not parsed twice).
        let sent: Double
        do {
            (envelope, sent) = try codec.receive(frames: frames, recent: &recent).parts
        } catch {
            return unreadable(frames, error)
        }
        if case .ping = envelope.body { return ping(envelope, now: now) }
        guard handler.accepts(envelope) else {
            counters.ignored += 1
            return []
        }
        let verdict = window.check(id: envelope.id, sent: sent, now: now.wall)
        // A repeat or a refusal of an action this instance only stands by for is its owner's to answer.
        if case .fresh = verdict {} else if handler.standsBy(for: envelope) { return [] }
        let reply: Reply
        var remembered: Double?
        switch verdict {
        case .fresh(let sent):
            reply = handler.handle(envelope)
            switch reply.acknowledgement {
            case .nobody:
                return []
            case .only:
                return shadow(reply, of: envelope, now: now)
            case .published, .byStandby, .byStandbyDeciding:
                break
            }
            // Remembered against duplicates unless it only says to send it again (another
            // instance decides now): a repeat is then handled afresh, where it is decided by then.
            // A closure, not a key path: a key-path literal here kept `decide` (and the handler it
            // calls) from being specialized for the service (callgrind: 5,500 more in a sharded owner).
            if !reply.effects.contains(where: { $0.asksToSendAgain }) { remembered = sent }
            // A read nobody waits for (`Routing.quietReaders`), which published nothing: no ack.
            if reply.effects.isEmpty, Routing.quietReaders[envelope.type]?.contains(settings.name) == true {
                counters.handled += 1
                write(
                    .info, "span: handled \(envelope.type.rawValue) from \(envelope.service) in \(Int(((clock.monotonic() - now.monotonic) * 1_000_000).rounded())) µs; published nothing",
                    context: LogContext(envelope))
                return []
            }
        case .duplicate(var ack):
            // Already handled: what it passed on or another service reads, again (the same
            // messages: a hop lost on the way is completed, a hop that was not is answered as a
            // duplicate), then its first acknowledgement, marked duplicate. Nothing is decided again.
            // A sharded owner's repeat goes by its standby too, with the device's state: the
            // standby may have decided it otherwise, or missed it.
            counters.duplicates += 1
            ack.duplicate = true
            let forwards = window.forwards(of: envelope.id)
            let acknowledgement = maker.envelope(.ack(ack), causedBy: envelope)
            let last: Outgoing? = switch handler.acknowledgement(ofRepeat: envelope) {
            case .byStandby(let update, let device):
                byStandby(update, of: device, acknowledging: acknowledgement, cause: envelope, forwards: forwards, trace: nil, time: nil)
            case .published, .byStandbyDeciding, .only, .nobody: .message(acknowledgement)
            }
            return forwards.map(Outgoing.frames) + (last.map { [$0] } ?? [])
        case .tooOld(let waited), .forgotten(let waited):
            counters.refusedOverload += 1
            let why = if case .forgotten = verdict {
                "it was sent \(waited) ms ago, before ids this service had to forget (IDEMPOTENCE_WINDOW \(settings.idempotenceWindow)), so it cannot tell whether it handled it"
            } else {
                "it waited \(waited) ms on the bus, more than ACTION_TTL_MS (\(settings.timeToLiveMilliseconds) ms)"
            }
            reply = Reply(
                [.error(RefusalCode.overloaded, "refused: \(why); the service is overloaded", offendingId: envelope.id)],
                acknowledgement: handler.acknowledgement(ofRefused: envelope))
        case .fromTheFuture(let ahead):
            reply = Reply(
                [.error(
                    MessageError.Code.badTime,
                    "refused: its time \(envelope.time) is \(ahead) ms ahead of this service's clock, more than CLOCK_SKEW_MS (\(settings.clockSkewMilliseconds) ms)",
                    offendingId: envelope.id)],
                acknowledgement: handler.acknowledgement(ofRefused: envelope))
        case .unreadableTime:
            reply = Reply(
                [.error(MessageError.Code.badTime, "refused: its time is not a timestamp", offendingId: envelope.id)],
                acknowledgement: handler.acknowledgement(ofRefused: envelope))
        }
        counters.handled += 1
        let time = maker.now()
        // Everything it causes, the ack included, in one trace (a new one if it came without).
        let trace = TraceContext.handling(envelope.traceparent)
        var (outgoing, emitted, forwarded, forwards) = encode(reply.effects, causedBy: envelope, inTrace: trace, at: time, ids: reply.ids)
            // A decision held a number JSON cannot carry: refuse rather than send what no peer decodes.
            ?? encode(
                [.error(MessageError.Code.nonFinite, "refused: its outcome held a number that is not finite; nothing was sent", offendingId: envelope.id)],
                causedBy: envelope, inTrace: trace, at: time)
            ?? ([], [], [], [])
        if !reply.republished.isEmpty {
            // Sent onward again, and again on the next repeat.
            outgoing = reply.republished.map(Outgoing.frames) + outgoing
            forwards = reply.republished + forwards
        }
        settling = Settling(
            cause: envelope, trace: trace, time: time, emitted: emitted, forwarded: forwarded, forwards: forwards,
            duplicate: reply.duplicate, acknowledgement: reply.acknowledgement, remembered: remembered, published: reply.effects, received: now)
        return outgoing
    }

    /// The acknowledgement of the message `decide` handled last, once its decision has gone (nil
    /// if there is none to give); the message is remembered against duplicates, and logged.
    /// When the standby acknowledges it, what goes is the update with the acknowledgement as
    /// its last two frames, encoded here.
    public mutating func settle() -> Outgoing? {
        guard let handled = settling.take() else { return nil }
        let cause = handled.cause
        let ack = Ack(
            handled: cause.type.rawValue, handledId: cause.id, emitted: handled.emitted, forwarded: handled.forwarded,
            duplicate: handled.duplicate)
        var sent: Outgoing?
        var last = MessageType.ack.rawValue
        switch handled.acknowledgement {
        case .byStandby(let update, let device):
            let acknowledgement = maker.envelope(.ack(ack), causedBy: cause, inTrace: handled.trace, time: handled.time)
            guard let frames = byStandby(
                update, of: device, acknowledging: acknowledgement, cause: cause, forwards: handled.forwards, trace: handled.trace, time: handled.time)
            else { return nil }
            sent = frames
            last = MessageType.replica.rawValue
        case .byStandbyDeciding:
            // Its standby acknowledges its own decision, which named the same messages: none is
            // made here (the delivery window keeps the `Ack`, for a repeat).
            last = "its standby's ack"
        case .published, .only, .nobody:
            sent = .message(maker.envelope(.ack(ack), causedBy: cause, inTrace: handled.trace, time: handled.time))
        }
        if let sent = handled.remembered {
            window.remember(id: cause.id, sent: sent, ack: ack, forwards: handled.forwards, now: handled.received.wall)
        }
        write(
            .info,
            "span: \(handled.acknowledgement == .only ? "stood by for" : "handled") \(cause.type.rawValue) from \(cause.service) in \(Int(((clock.monotonic() - handled.received.monotonic) * 1_000_000).rounded())) µs; \(handled.acknowledgement == .only ? "decided" : "published") \((handled.published.map(\.body.type.rawValue) + [last]).joined(separator: ", "))",
            context: LogContext(cause))
        return sent
    }

    /// A standby's decision of `envelope` (`Reply.Acknowledgement.only`): its effects are the
    /// owner's to publish, so only their ids are made, for the acknowledgement `settle` publishes.
    /// Not remembered: the handler answers a repeat.
    private mutating func shadow(_ reply: Reply, of envelope: Envelope, now: RuntimeInstant) -> [Outgoing] {
        counters.handled += 1
        // A read nobody waits for, which published nothing: no ack, as its owner gives none.
        guard !reply.effects.isEmpty || Routing.quietReaders[envelope.type]?.contains(settings.name) != true else { return [] }
        var emitted: [String] = []
        var forwarded: [Forward] = []
        emitted.reserveCapacity(reply.effects.count)
        for (index, effect) in reply.effects.enumerated() {
            let id = reply.ids?.id(index) ?? maker.ids()
            emitted.append(id)
            if let service = effect.forwardTo { forwarded.append(Forward(id: id, service: service)) }
        }
        settling = Settling(
            cause: envelope, trace: TraceContext.handling(envelope.traceparent), time: maker.now(), emitted: emitted, forwarded: forwarded,
            forwards: [], duplicate: reply.duplicate, acknowledgement: .only, remembered: nil, published: reply.effects, received: now)
        return []
    }

    /// `update` of `device` to its standby, with `acknowledgement` of `cause` (which sent
    /// `forwards` onward) as its last two frames, for the standby to publish once it holds the
    /// state; nil (logged) if it cannot be encoded.
    private mutating func byStandby(
        _ update: Replica, of device: String, acknowledging acknowledgement: Envelope, cause: Envelope, forwards: [[[UInt8]]],
        trace: TraceContext.Handling?, time: String?
    ) -> Outgoing? {
        var update = update
        update.action = cause.id
        if !forwards.isEmpty { update.onward = Self.onward(forwards) }
        let replica = maker.envelope(.replica(update), causedBy: cause, inTrace: trace, device: device, time: time)
        do {
            return .frames(try codec.frames(replica, using: writer, memo: &memo, topics: &topics) + codec.frames(acknowledgement, using: writer, memo: &memo, topics: &topics))
        } catch {
            // Nothing in an update or an ack is a number JSON cannot carry: not reached.
            write(.error, "refused to publish the update of \(device) for \(cause.id): \(error)")
            return nil
        }
    }

    /// The frames of messages sent onward, as an update carries them.
    private static func onward(_ forwards: [[[UInt8]]]) -> [Onward] {
        forwards.map { Onward(topic: String(decoding: $0[0], as: UTF8.self), message: NestedValue(bytes: $0[1])) }
    }

    /// A message the handler takes as it came (a sharded instance's update): what it says to
    /// publish, the refusals made messages of this service.
    private mutating func takeAsItCame(_ frames: [[UInt8]]) -> [Outgoing] {
        guard let reply = handler.take(asItCame: frames) else {
            counters.ignored += 1
            return []
        }
        counters.handled += 1
        var outgoing = reply.republished.map(Outgoing.frames)
        for effect in reply.effects {
            if case .error(let error) = effect.body {
                counters.errors += 1
                write(.warn, "refused a \(MessageType.replica.rawValue): \(error.code): \(error.message)")
            }
            if let message = own(maker.envelope(effect.body, device: effect.device)) { outgoing.append(message) }
        }
        return outgoing
    }

    /// A message that could not be read: an `error` about it, and, when its id could be read, an
    /// acknowledgement saying it was unreadable.
    private mutating func unreadable(_ frames: [[UInt8]], _ error: MessageError) -> [Outgoing] {
        counters.errors += 1
        write(.warn, "refused a message: \(error)")
        let excerpt = frames.count >= 2 ? EnvelopeCodec.excerpt(frames[1]) : frames.first.map(EnvelopeCodec.excerpt)
        let body = ErrorBody(code: error.code.rawValue, message: error.reason, offendingId: error.offendingId, excerpt: excerpt)
        let sent = maker.envelope(.error(body), correlationId: error.offendingId)
        var outgoing = [Outgoing.message(sent)]
        if let offendingId = error.offendingId {
            outgoing.append(.message(maker.envelope(
                .ack(Ack(handled: "unreadable", handledId: offendingId, emitted: [sent.id], forwarded: [])), correlationId: offendingId)))
        }
        return outgoing
    }

    /// Its own ping back makes the service ready (and says so to the bus at once, with a
    /// heartbeat); anyone else's is answered with a pong — after a heartbeat while not ready, so
    /// that whoever the pong reassures also finds the service in the bus's status.
    private mutating func ping(_ envelope: Envelope, now: RuntimeInstant) -> [Outgoing] {
        if readyPingIds.contains(envelope.id) {
            readyPingIds = []
            guard !isReady else { return [] }
            isReady = true
            write(.info, "ready: the path through the bus is live")
            handler.busIsLive()
            return [heartbeat(now: now)]
        }
        let pong = Outgoing.message(maker.envelope(.pong(Pong(service: settings.name, version: MonsterBus.version, pid: settings.pid)), causedBy: envelope))
        return isReady ? [pong] : [heartbeat(now: now), pong]
    }

    private mutating func heartbeat(now: RuntimeInstant) -> Outgoing {
        .message(maker.envelope(.heartbeat(heartbeats.heartbeat(
            service: settings.name, pid: settings.pid, counters: counters.byName, now: now.monotonic))))
    }

    /// The frames of `effects` as messages caused by `envelope` (handled in `trace`) at `time`
    /// with ids from `ids` (fresh ones if nil), their ids, those passed on to another service
    /// and their frames; nil if one of them cannot be encoded (logged).
    private mutating func encode(
        _ effects: [Effect], causedBy envelope: Envelope, inTrace trace: TraceContext.Handling, at time: String, ids: DerivedIds? = nil
    ) -> (outgoing: [Outgoing], emitted: [String], forwarded: [Forward], forwards: [[[UInt8]]])? {
        var outgoing: [Outgoing] = []
        var emitted: [String] = []
        var forwarded: [Forward] = []
        var forwards: [[[UInt8]]] = []
        outgoing.reserveCapacity(effects.count + 1)
        emitted.reserveCapacity(effects.count)
        for (index, effect) in effects.enumerated() {
            let message = maker.envelope(effect.body, causedBy: envelope, inTrace: trace, device: effect.device, time: time, id: ids?.id(index))
            let frames: [[UInt8]]
            do {
                frames = try codec.frames(message, using: writer, memo: &memo, topics: &topics)
            } catch {
                write(.error, "refused to publish what \(envelope.type.rawValue) \(envelope.id) caused: \(error)")
                return nil
            }
            outgoing.append(.frames(frames))
            emitted.append(message.id)
            if let service = effect.forwardTo {
                forwarded.append(Forward(id: message.id, service: service))
                forwards.append(frames)
            } else if Routing.readers[message.type] != nil {
                // Read and acknowledged by another service (`layout.changed`): a repeat sends it
                // again too, so that a reader's new owner completes the hop.
                forwards.append(frames)
            }
            if case .error(let error) = effect.body {
                counters.errors += 1
                write(.info, "refused \(envelope.type.rawValue) \(envelope.id): \(error.code): \(error.message)", context: LogContext(envelope))
            }
        }
        return (outgoing, emitted, forwarded, forwards)
    }

    private func write(_ level: LogLevel, _ text: @autoclosure () -> String, context: @autoclosure () -> LogContext? = nil) {
        guard level >= logLevel else { return }
        sink(level, text(), context())
    }
}

/// A message decided and not yet settled: what its acknowledgement, its place in the delivery
/// window and its log line need.
private struct Settling {
    /// The message handled.
    var cause: Envelope
    /// The trace it is handled in (its ack is a span of it).
    var trace: TraceContext.Handling
    /// The moment it was handled, the `time` of all it caused.
    var time: String
    /// The ids of the messages it caused, in order.
    var emitted: [String]
    /// Those passed on to another service.
    var forwarded: [Forward]
    /// Their frames, resent when the message comes again.
    var forwards: [[[UInt8]]]
    /// Whether the handler found it a repeat of its own (`Reply.duplicate`).
    var duplicate: Bool
    /// Who publishes its acknowledgement (`Reply.acknowledgement`).
    var acknowledgement: Reply.Acknowledgement
    /// When it was sent, if it is to be remembered against duplicates.
    var remembered: Double?
    /// What it caused, for the log line.
    var published: [Effect]
    /// When it arrived.
    var received: RuntimeInstant
}
