/// `sys.ping`: asks every service to answer with `sys.pong` (proves the path through the bus).
public struct Ping: Codable, Sendable, Equatable {
    /// A ping.
    public init() {}
}

/// `sys.pong`: a service's answer to a ping.
public struct Pong: Codable, Sendable, Equatable {
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

/// `sys.heartbeat`: published by every service at a fixed interval.
public struct Heartbeat: Codable, Sendable, Equatable {
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

    /// Decodes a heartbeat as the synthesized decoder does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        service = try container.decode(String.self, forKey: .service)
        version = try container.decode(String.self, forKey: .version)
        pid = try container.decode(Int32.self, forKey: .pid)
        uptimeSeconds = try container.decode(Double.self, forKey: .uptimeSeconds)
        intervalMilliseconds = try container.decode(Int.self, forKey: .intervalMilliseconds)
        counters = try container.decode([String: UInt64].self, forKey: .counters)
    }

    /// The members' keys, in the order they are written.
    private enum CodingKeys: String, CodingKey {
        case service, version, pid, uptimeSeconds, intervalMilliseconds, counters
    }

    /// Encodes the heartbeat with its counters in key order, so the same heartbeat is always the
    /// same JSON text (a dictionary's own order changes from process to process).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(service, forKey: .service)
        try container.encode(version, forKey: .version)
        try container.encode(pid, forKey: .pid)
        try container.encode(uptimeSeconds, forKey: .uptimeSeconds)
        try container.encode(intervalMilliseconds, forKey: .intervalMilliseconds)
        try container.encode(SortedCounters(counters: counters), forKey: .counters)
    }

    /// Counters written as a JSON object in key order.
    private struct SortedCounters: Encodable {
        let counters: [String: UInt64]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CounterKey.self)
            for (name, value) in counters.sorted(by: { $0.key < $1.key }) {
                try container.encode(value, forKey: CounterKey(stringValue: name))
            }
        }
    }

    /// A counter's name as a coding key.
    private struct CounterKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// `sys.status.request`: asks the bus which services it has heard from.
public struct StatusRequest: Codable, Sendable, Equatable {
    /// A request.
    public init() {}
}

/// One service as the bus last heard from it.
public struct ServiceStatus: Codable, Sendable, Equatable {
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

/// `sys.status`: the bus's answer to `sys.status.request`.
public struct StatusReport: Codable, Sendable, Equatable {
    /// The bus's own heartbeat (its version, pid, uptime, counters).
    public var bus: Heartbeat
    /// Every service heard from since the bus started, by name.
    public var services: [ServiceStatus]
    /// A report from its parts.
    public init(bus: Heartbeat, services: [ServiceStatus]) { self.bus = bus; self.services = services }
}

/// `sys.loss`: a reader fell behind and the bus dropped what overflowed its queue; it says how
/// many messages of each sender it missed (gaps in their `seq`), and the bus counts them.
public struct LossReport: Codable, Sendable, Equatable {
    /// Messages missed since the reader's last report, by sender (`roster`, `bus`, …).
    public var missed: [String: UInt64]
    /// A report of `missed`.
    public init(missed: [String: UInt64]) { self.missed = missed }
}

/// A message a service passed on to another service, which will acknowledge it in turn.
public struct Forward: Codable, Sendable, Equatable, Hashable {
    /// The id of the message passed on.
    public var id: String
    /// The service that will acknowledge it.
    public var service: String
    /// `id`, to be acknowledged by `service`.
    public init(id: String, service: String) { self.id = id; self.service = service }
}

/// `ack`: a service has handled a message and published everything it caused.
public struct Ack: Codable, Sendable, Equatable {
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

/// `error`: a message was refused or could not be read.
public struct ErrorBody: Codable, Sendable, Equatable {
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
