/// One device's state, sent by the instance that owns the device to the instance that stands by
/// for it (docs/scaling.md): a new standby's catch-up, a repair answering a repeat, a handover
/// to a new owner. Its frames: the topic, this body's envelope, the state (frame 3, as the owner
/// wrote it; empty when the device was forgotten) and, answering a repeat or a refusal, the
/// owner's acknowledgement of it as two more frames (topic, JSON), which the standby publishes as
/// they came once it holds the state. A standby reads the envelope's few header members, and the
/// state only when it takes it (not when its history is the owner's).
public struct Replica: Sendable, Equatable {
    /// The instance it is for (its topic's key: `shard.replica/SERVICE/STANDBY`).
    public var standby: String
    /// The instance that owns the device and sent it.
    public var owner: String
    /// The owner's epoch (its membership key's create revision in etcd): a standby takes
    /// updates only from the owner, at the epoch, that its own view of the members shows.
    public var epoch: Int64
    /// Counts the owner's updates in its epoch, so that an update sent again is never taken
    /// over a later one.
    public var sequence: UInt64
    /// The device's whole state in the service's own form and the ids of its last actions
    /// (`{"state":…,"recent":[…]}`: a retry of one is a duplicate), carried in the message's
    /// third frame rather than in its JSON: a standby reads it only when it takes the device
    /// over. Absent (an empty frame): the device was forgotten.
    public var snapshot: NestedValue?
    /// The id of the device's last action: the one that made this state, whose acknowledgement
    /// the message carries, or, in an update no action caused (a handover, a new standby), the
    /// last one decided before it. Absent: none.
    public var action: String?
    /// What that action sent onward to another service (passed on, or read there), as it went:
    /// an heir answering a retry of the action publishes it again. Absent: nothing.
    public var onward: [Onward]?
    /// The device's history after that action (`DeviceHistory`, 16 hex digits): a standby whose
    /// own is the same holds the same state and takes nothing. Absent: a device with no history.
    public var history: String?

    /// An update of the device's state from `owner` at `epoch` and `sequence`, for `standby`.
    public init(standby: String, owner: String, epoch: Int64, sequence: UInt64, snapshot: NestedValue?, action: String? = nil) {
        self.standby = standby; self.owner = owner; self.epoch = epoch; self.sequence = sequence
        self.snapshot = snapshot; self.action = action
    }
}

extension Replica: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Replica { Replica(standby: "", owner: "", epoch: 0, sequence: 0, snapshot: nil) }

    /// The fields of the JSON, in the order they are written (the state is a frame of its own).
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("standby", &standby)
        try fields.field("owner", &owner)
        try fields.field("epoch", &epoch)
        try fields.field("sequence", &sequence)
        try fields.field("action", &action)
        try fields.field("onward", &onward)
        try fields.field("history", &history)
    }
}

/// A message an owner published for an action that another service handles too (passed on to
/// it, `Ack.forwarded`, or read by it, `Routing.readers`), as it went on the wire: the owner's
/// heir publishes it again, the same message with the same id, when it answers a retry of the
/// action, so that the other service's new owner completes its hop.
public struct Onward: Sendable, Equatable {
    /// Its topic frame.
    public var topic: String
    /// Its envelope, as written.
    public var message: NestedValue

    /// The message `message` on `topic`.
    public init(topic: String, message: NestedValue) { self.topic = topic; self.message = message }
}

extension Onward: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Onward { Onward(topic: "", message: NestedValue(bytes: [])) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("topic", &topic)
        try fields.field("message", &message)
    }
}
