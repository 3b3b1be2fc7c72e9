import Domain
import ProcessSupport
import Wire

/// What a handler did with one message.
public struct Reply: Sendable, Equatable {
    /// Who publishes the acknowledgement of a message (docs/scaling.md, for the last two).
    public enum Acknowledgement: Sendable, Equatable {
        /// This service, after the effects.
        case published
        /// The instance standing by for `device` (a repeat's or a refusal's): the acknowledgement
        /// goes with `update` (its last two frames), sent after the effects in its place, and the
        /// standby publishes it as it came once it holds the state.
        case byStandby(Replica, device: String)
        /// The instance standing by for the device, which decides the action too and publishes
        /// the acknowledgement of its own decision: this one publishes none.
        case byStandbyDeciding
        /// This one, and only it: the standby's decision, whose effects the owner publishes
        /// (the acknowledgement lists their ids, derived as the owner derives them). Not
        /// remembered against duplicates: a retry is the handler's to answer.
        case only
        /// Nobody: a standby's repeat, which the owner answers. Not remembered.
        case nobody
    }

    /// Messages to publish, in order, before the acknowledgement.
    public var effects: [Effect]
    /// True when the message had already been handled (same id): nothing was done again.
    public var duplicate: Bool
    /// Who publishes the acknowledgement.
    public var acknowledgement: Acknowledgement
    /// Messages published again before the effects, as they were (frames): what the instance that
    /// decided a repeated action sent onward, carried to its heir (`Onward`); the owner's
    /// acknowledgement a standby passes on.
    public var republished: [[[UInt8]]]
    /// Where the effects' ids come from (`DerivedIds`): the same on every instance that decides
    /// the action the same way from the same history. Nil: fresh ids.
    public var ids: DerivedIds?

    /// A reply publishing `republished` and `effects`, then the acknowledgement as `acknowledgement` says.
    public init(
        _ effects: [Effect], duplicate: Bool = false, acknowledgement: Acknowledgement = .published, republished: [[[UInt8]]] = [],
        ids: DerivedIds? = nil
    ) {
        self.effects = effects; self.duplicate = duplicate; self.acknowledgement = acknowledgement
        self.republished = republished; self.ids = ids
    }
}

/// A service's adapter between the bus and its pure core.
public protocol ServiceHandler {
    /// Exactly the types this service handles: the runtime subscribes to them (and `sys.ping`)
    /// and hands it nothing else. One declaration gives both subscription and dispatch.
    var handledTypes: [MessageType] { get }
    /// Topics to subscribe to; by default every handled type, bare (every key). A sharded
    /// instance subscribes to its buckets' topics instead.
    var subscriptions: [String] { get }
    /// Whether this service handles `type` (by default: whether it is in `handledTypes`).
    func accepts(_ type: MessageType) -> Bool
    /// Whether this instance handles `envelope` (by default: whether it accepts its type; a
    /// sharded instance only its own devices').
    func accepts(_ envelope: Envelope) -> Bool
    /// Handles one message and says what to publish because of it.
    mutating func handle(_ envelope: Envelope) -> Reply
    /// Whether a message on `topic` is one this handler takes as it came, undecoded: a sharded
    /// instance's updates (`take(asItCame:)`), whose acknowledgement it passes on as it came.
    func takesAsItCame(topic: [UInt8]) -> Bool
    /// Takes a message `takesAsItCame` named, as its frames: what to publish (frames as they
    /// came, refusals), acknowledged by nobody; nil when it is not this instance's.
    mutating func take(asItCame frames: [[UInt8]]) -> Reply?
    /// Who acknowledges `envelope` again, a repeat of a message already handled here that the
    /// delivery window answers: a sharded owner's standby, sent the device's state with it.
    mutating func acknowledgement(ofRepeat envelope: Envelope) -> Reply.Acknowledgement
    /// Who acknowledges the runtime's refusal of `envelope` (too old, or its time unreadable or
    /// ahead): a sharded owner's standby, sent the device's state, since it may have decided it.
    mutating func acknowledgement(ofRefused envelope: Envelope) -> Reply.Acknowledgement
    /// Whether this instance only stands by for `envelope`'s device: what the runtime would
    /// answer without the handler (a repeat, a refusal) is the owner's to say, not its own.
    func standsBy(for envelope: Envelope) -> Bool
    /// Forgets the devices unused for longer than `DEVICE_IDLE_EXPIRY_SECONDS` at `now`
    /// (seconds since 1970); returns their ids. Called about once per heartbeat interval.
    mutating func forgetIdleDevices(now: Double) -> [String]
    /// Subscriptions to add and to remove since the last call (a sharded instance whose buckets
    /// changed); the runtime asks after each batch of messages and each heartbeat interval.
    mutating func subscriptionChanges() -> (add: [String], remove: [String])
    /// Messages to publish that no message caused (a sharded instance's device states for the
    /// instance now standing by for them); the runtime asks after `subscriptionChanges()`.
    mutating func messagesOfItsOwn() -> [Effect]
    /// Called once, when the path through the bus is live (this service's own ping came back):
    /// from then on what is published to it reaches it.
    mutating func busIsLive()
    /// Signalled when the handler has something to say that no message brings (a sharded
    /// instance's members changed): the runtime's loop then passes at once, not at its next
    /// heartbeat. Nil by default.
    var wakeup: Wakeup? { get }
    /// When (monotonic seconds) `messagesOfItsOwn()` next has something to say by itself (a
    /// sharded instance's "handed over", said again every quarter second); infinity by default.
    var nextWake: Double { get }
    /// Whether `subscriptionChanges()` has something to say, known without looking anywhere: a
    /// sharded instance that followed a change of its members while handling a message. The
    /// runtime asks after each message and publishes the changes then, not after the batch.
    var hasPendingChanges: Bool { get }
    /// Called once the service has stopped and its last messages have left: gives up at once
    /// what the other instances would otherwise wait a lease's TTL for (a sharded instance's
    /// membership, a roster's lead). Nothing by default.
    func leave()
}

extension ServiceHandler {
    /// Every handled type, bare.
    public var subscriptions: [String] { handledTypes.map(\.rawValue) }

    /// Whether `type` is one of `handledTypes`.
    public func accepts(_ type: MessageType) -> Bool { handledTypes.contains(type) }

    /// Every message is decoded.
    public func takesAsItCame(topic: [UInt8]) -> Bool { false }

    /// Never called: nothing is taken as it came.
    public mutating func take(asItCame frames: [[UInt8]]) -> Reply? { nil }

    /// This service acknowledges a repeat itself, as it did the first time.
    public mutating func acknowledgement(ofRepeat envelope: Envelope) -> Reply.Acknowledgement { .published }

    /// This service acknowledges its refusals itself.
    public mutating func acknowledgement(ofRefused envelope: Envelope) -> Reply.Acknowledgement { .published }

    /// Every message accepted is this instance's own.
    public func standsBy(for envelope: Envelope) -> Bool { false }

    /// Subscriptions never change.
    public mutating func subscriptionChanges() -> (add: [String], remove: [String]) { ([], []) }

    /// Nothing is published unless a message causes it.
    public mutating func messagesOfItsOwn() -> [Effect] { [] }

    /// Nothing waits for the bus.
    public mutating func busIsLive() {}

    /// Nothing happens without a message.
    public var wakeup: Wakeup? { nil }

    /// Nothing is due by itself.
    public var nextWake: Double { .infinity }

    /// Nothing changes while a message is handled.
    public var hasPendingChanges: Bool { false }

    /// Nothing to give up.
    public func leave() {}

    /// Every message of an accepted type.
    public func accepts(_ envelope: Envelope) -> Bool { accepts(envelope.type) }

    /// A service without per-device state forgets nothing.
    public mutating func forgetIdleDevices(now: Double) -> [String] { [] }
}
