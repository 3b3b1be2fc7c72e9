/// `sys.ping`: asks every service to answer with `sys.pong` (proves the path through the bus).
public struct Ping: Sendable, Equatable {
    /// A ping.
    public init() {}
}

extension Ping: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Ping { Ping() }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
    }
}

/// `sys.pong`: a service's answer to a ping.
public struct Pong: Sendable, Equatable {
    /// The answering process's name (`roster`, `bus`, …).
    public var service: String
    /// The answering build's version (`MonsterBus.version`).
    public var version: String
    /// The answering process's id.
    public var pid: Int32
    /// A pong from `service`.
    public init(service: String, version: String, pid: Int32) {
        self.service = service; self.version = version; self.pid = pid
    }
}

extension Pong: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Pong { Pong(service: "", version: "", pid: 0) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("service", &service)
        try fields.field("version", &version)
        try fields.field("pid", &pid)
    }
}

/// `sys.heartbeat`: published by every service at a fixed interval.
public struct Heartbeat: Sendable, Equatable {
    /// The sending process's name (`presentation-policy`, `bus`, …).
    public var service: String
    /// The sending build's version (`MonsterBus.version`).
    public var version: String
    /// The sending process's id: a new one means it was restarted.
    public var pid: Int32
    /// Seconds since the process started (monotonic clock, to the millisecond).
    public var uptimeSeconds: Double
    /// The interval between heartbeats, so observers know when one is late.
    public var intervalMilliseconds: Int
    /// Message counters (`received`, `handled`, `errors`, `ignored`, `refusedOverload`, `sendWaits`, `sendsDropped`; the bus's own are in docs/gateway.md).
    public var counters: [String: UInt64]
    /// A heartbeat from its parts.
    public init(
        service: String, version: String, pid: Int32, uptimeSeconds: Double,
        intervalMilliseconds: Int, counters: [String: UInt64]
    ) {
        self.service = service; self.version = version; self.pid = pid; self.uptimeSeconds = uptimeSeconds
        self.intervalMilliseconds = intervalMilliseconds; self.counters = counters
    }
}

extension Heartbeat: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Heartbeat {
        Heartbeat(service: "", version: "", pid: 0, uptimeSeconds: 0, intervalMilliseconds: 0, counters: [:])
    }

    /// The fields, in the order they are written (the counters in key order: the same heartbeat
    /// is always the same text).
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("service", &service)
        try fields.field("version", &version)
        try fields.field("pid", &pid)
        try fields.field("uptimeSeconds", &uptimeSeconds)
        try fields.field("intervalMilliseconds", &intervalMilliseconds)
        try fields.field("counters", &counters)
    }
}

/// `sys.status.request`: asks the bus which services it has heard from.
public struct StatusRequest: Sendable, Equatable {
    /// A request.
    public init() {}
}

extension StatusRequest: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: StatusRequest { StatusRequest() }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
    }
}

/// One service as the bus last heard from it.
public struct ServiceStatus: Sendable, Equatable {
    /// The last heartbeat received.
    public var heartbeat: Heartbeat
    /// How long ago it arrived.
    public var lastHeartbeatAgeMilliseconds: Int
    /// True when it is older than three heartbeat intervals.
    public var stale: Bool
    /// A status from its parts.
    public init(heartbeat: Heartbeat, lastHeartbeatAgeMilliseconds: Int, stale: Bool) {
        self.heartbeat = heartbeat; self.lastHeartbeatAgeMilliseconds = lastHeartbeatAgeMilliseconds; self.stale = stale
    }
}

extension ServiceStatus: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: ServiceStatus { ServiceStatus(heartbeat: .placeholder, lastHeartbeatAgeMilliseconds: 0, stale: false) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("heartbeat", &heartbeat)
        try fields.field("lastHeartbeatAgeMilliseconds", &lastHeartbeatAgeMilliseconds)
        try fields.field("stale", &stale)
    }
}

/// `sys.status`: the bus's answer to `sys.status.request`.
public struct StatusReport: Sendable, Equatable {
    /// The bus's own heartbeat (its version, pid, uptime, counters).
    public var bus: Heartbeat
    /// Every service heard from since the bus started, by name.
    public var services: [ServiceStatus]
    /// A report from its parts.
    public init(bus: Heartbeat, services: [ServiceStatus]) { self.bus = bus; self.services = services }
}

extension StatusReport: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: StatusReport { StatusReport(bus: .placeholder, services: []) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("bus", &bus)
        try fields.field("services", &services)
    }
}

/// `sys.loss`: a reader fell behind and the bus dropped what overflowed its queue; it says how
/// many messages of each sender it missed (gaps in their `seq`), and the bus counts them.
public struct LossReport: Sendable, Equatable {
    /// Messages missed since the reader's last report, by sender (`roster`, `bus`, …).
    public var missed: [String: UInt64]
    /// A report of `missed`.
    public init(missed: [String: UInt64]) { self.missed = missed }
}

extension LossReport: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: LossReport { LossReport(missed: [:]) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("missed", &missed)
    }
}

/// A message a service passed on to another service, which will acknowledge it in turn.
public struct Forward: Sendable, Equatable, Hashable {
    /// The id of the message passed on.
    public var id: String
    /// The service that will acknowledge it.
    public var service: String
    /// `id`, to be acknowledged by `service`.
    public init(id: String, service: String) { self.id = id; self.service = service }
}

extension Forward: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Forward { Forward(id: "", service: "") }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("id", &id)
        try fields.field("service", &service)
    }
}

/// `ack`: a service has handled a message and published everything it caused.
public struct Ack: Sendable, Equatable {
    /// The handled message's type.
    public var handled: String
    /// The handled message's id.
    public var handledId: String
    /// Ids of every message published because of it (before this ack, on the same socket).
    public var emitted: [String]
    /// Which of those are passed on to another service, which will acknowledge them.
    public var forwarded: [Forward]
    /// True when the message had been handled before (same id): nothing was done again.
    public var duplicate: Bool
    /// An ack from its parts.
    public init(handled: String, handledId: String, emitted: [String], forwarded: [Forward], duplicate: Bool = false) {
        self.handled = handled; self.handledId = handledId; self.emitted = emitted
        self.forwarded = forwarded; self.duplicate = duplicate
    }
}

extension Ack: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Ack { Ack(handled: "", handledId: "", emitted: [], forwarded: []) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("handled", &handled)
        try fields.field("handledId", &handledId)
        try fields.field("emitted", &emitted)
        try fields.field("forwarded", &forwarded)
        try fields.field("duplicate", &duplicate)
    }
}

/// `error`: a message was refused or could not be read.
public struct ErrorBody: Sendable, Equatable {
    /// A stable code: `bad-json`, `unknown-type`, `modal-alert`, `no-such-element`, …
    public var code: String
    /// What went wrong, for a person.
    public var message: String
    /// The id of the offending message, where it could be read.
    public var offendingId: String?
    /// The start of an unreadable message, escaped, to recognise it by.
    public var excerpt: String?
    /// An error from its parts.
    public init(code: String, message: String, offendingId: String? = nil, excerpt: String? = nil) {
        self.code = code; self.message = message; self.offendingId = offendingId; self.excerpt = excerpt
    }
}

extension ErrorBody: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: ErrorBody { ErrorBody(code: "", message: "") }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("code", &code)
        try fields.field("message", &message)
        try fields.field("offendingId", &offendingId)
        try fields.field("excerpt", &excerpt)
    }
}
