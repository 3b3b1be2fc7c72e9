import Domain
import ProcessSupport
import Runtime
import Wire
import ZeroMQ
import ZeroMQTransport

/// Why the gateway gave up waiting.
public struct NoAnswer: Error, CustomStringConvertible {
    /// What went unanswered; for no answer at all, what to check (is the stack running, the CURVE keys).
    public let description: String
}

/// The gateway's connection to the bus: proves the path to the services is live, sends one
/// action and collects everything it causes until the tracker says it is complete.
/// Owned by the calling thread.
public final class GatewayClient {
    private let context: ZMQContext?
    private let bus: any BusTransport
    private var maker: EnvelopeMaker
    private let config: BusConfig
    /// Every service heard answering a ping so far.
    public private(set) var heard: Set<String> = []
    /// When set (`GATEWAY_RETRY_MS`), an action not complete after this many seconds is sent again
    /// with the same id, until the timeout: its device may be moving between instances, or an
    /// instance or a bus lost (docs/scaling.md), and idempotence makes a repeat safe.
    public var retryInterval: Double?
    /// This client's address (`replyTo` of everything it sends; `Topic.newAddress()`), or nil
    /// for a watcher, which subscribes to everything and so hears every client's answers.
    public let address: String?

    /// Connects to the bus described by `config`: subscribed to everything when `watching`
    /// (`gateway watch`), otherwise with an address of its own, to the answers on it and to the
    /// rest of what its actions cause (`Topic.clientSubscriptions(address:)`).
    public init(config: BusConfig, service: String = MonsterBus.Service.gateway, watching: Bool = false) throws {
        self.config = config
        address = watching ? nil : Topic.newAddress()
        let context = try ZMQContext()
        self.context = context
        let connection = try BusConnection(
            context: context, config: config, service: Self.sender(config, otherwise: service),
            subscriptions: address.map(Topic.clientSubscriptions(address:)) ?? [""], lingerMilliseconds: 100)
        bus = connection
        maker = EnvelopeMaker(service: connection.service, ids: { [ids = connection.ids] in ids.next() })
    }

    /// A client on `transport` (already subscribed to everything), e.g. an in-memory bus's
    /// connection (`gateway --embedded`), sending as `service` with an address of its own.
    public init(transport: any BusTransport, config: BusConfig, service: String = MonsterBus.Service.gateway) {
        self.config = config
        address = Topic.newAddress()
        context = nil
        bus = transport
        maker = EnvelopeMaker(service: service)
    }

    /// The `service` this client sends as: `name`, or the component whose role its certificate
    /// holds (a health check run with a service's own certificate, as in compose: the bus holds
    /// that key to that name).
    static func sender(_ config: BusConfig, otherwise name: String) -> String {
        guard let path = config.curve?.certificatePath, let role = (try? Certificate.load(path))?.role,
              let component = Role(rawValue: role), component.isComponent else { return name }
        return component.rawValue
    }

    deinit { bus.close() }

    /// Pings until each of `services` has answered (so their messages reach this subscriber),
    /// or `deadline` (monotonic seconds) passes.
    public func handshake(services: [String], deadline: Double) throws {
        var waiting = Set(services)
        var pingIds: Set<String> = []
        var retry = 0.01
        while !waiting.isEmpty {
            let now = Timestamp.monotonic()
            guard now < deadline else {
                let names = waiting.sorted().joined(separator: ", ")
                throw NoAnswer(description: "no answer from \(names) through the bus at \(config.frontend) / \(config.backend) — is the stack running?" + CurveHint.text(config))
            }
            pingIds.insert(try publish(.ping(Ping())).id)
            let resendAt = min(deadline, now + retry)
            retry = min(retry * 2, 0.2)
            while waiting.count > 0, let envelope = try next(until: resendAt) {
                if case .pong(let pong) = envelope.body, pingIds.contains(envelope.correlationId) {
                    waiting.remove(pong.service)
                }
            }
        }
    }

    /// Sends `body` for `device` and waits until everything it causes has arrived, calling
    /// `onMessage` for each message as it comes. Throws `NoAnswer` at `deadline`.
    /// The action starts a new trace (`traceparent`); `onSent` sees it as sent.
    public func perform(
        _ body: Body, device: String?, firstHop: [String], deadline: Double,
        onSent: (Envelope) -> Void = { _ in }, onMessage: (Envelope) -> Void
    ) throws -> ActionTracker {
        let action = maker.envelope(body, device: device, trace: .newTrace(), replyTo: address)
        var tracker = ActionTracker(actionId: action.id, firstHop: firstHop, retrying: retryInterval != nil)
        try send(action)
        onSent(action)
        var resendAt = retryInterval.map { Timestamp.monotonic() + $0 } ?? deadline
        while !tracker.isComplete {
            // Sent again until everything has answered (those that had see a repeat, and re-send
            // what they passed on: a hop lost on the way is completed).
            guard let envelope = try next(until: retryInterval == nil ? deadline : min(deadline, resendAt)) else {
                if let retryInterval, Timestamp.monotonic() < deadline {
                    try send(action)
                    resendAt = Timestamp.monotonic() + retryInterval
                    continue
                }
                let refused = tracker.lastSetAside.map { "; \($0.service) last answered \($0.error.code): \($0.error.message)" } ?? ""
                throw NoAnswer(description: "\(action.type.rawValue) \(action.id): still waiting for \(tracker.awaiting) after the timeout\(refused)")
            }
            if tracker.observe(envelope) { onMessage(envelope) }
        }
        return tracker
    }

    /// Sends `body` and returns the first message answering it that `isAnswer` accepts.
    public func request(_ body: Body, deadline: Double, isAnswer: (Envelope) -> Bool) throws -> Envelope {
        let request = try publish(body)
        while true {
            guard let envelope = try next(until: deadline) else {
                throw NoAnswer(description: "no answer to \(request.type.rawValue) after the timeout")
            }
            if envelope.correlationId == request.id && isAnswer(envelope) { return envelope }
        }
    }

    /// Publishes `body`, expecting no answer.
    public func notify(_ body: Body) throws {
        try publish(body)
    }

    @discardableResult
    private func publish(_ body: Body) throws -> Envelope {
        let envelope = maker.envelope(body, replyTo: address)
        try send(envelope)
        return envelope
    }

    private func send(_ envelope: Envelope) throws {
        try bus.sendRaw(try bus.codec.frames(envelope))
    }

    /// Calls `onFrames` with every message's frames as they came, readable or not, until it
    /// returns false or the file descriptor `stop` becomes readable.
    public func listenRaw(stop: Int32, onFrames: ([[UInt8]]) -> Bool) throws {
        while true {
            if try bus.wait(timeoutMilliseconds: -1, stopDescriptor: stop).stop { return }
            while let frames = try bus.receiveFramesNow() {
                if !onFrames(frames) { return }
            }
        }
    }

    /// The next readable message before `deadline`, skipping unreadable ones; `nil` at the deadline.
    private func next(until deadline: Double) throws -> Envelope? {
        while true {
            let remaining = deadline - Timestamp.monotonic()
            guard remaining > 0 else { return nil }
            guard let frames = try bus.receiveFrames(timeoutMilliseconds: max(1, Int(remaining * 1000))) else { return nil }
            if let envelope = try? bus.codec.decode(frames: frames) {
                if case .pong(let pong) = envelope.body { heard.insert(pong.service) }
                return envelope
            }
        }
    }

    /// An envelope from this gateway (not sent) caused by `action`, in its trace: e.g. the
    /// gateway's verdict on it, for printing.
    public func envelope(_ body: Body, causedBy action: Envelope) -> Envelope {
        maker.envelope(body, causedBy: action)
    }
}
