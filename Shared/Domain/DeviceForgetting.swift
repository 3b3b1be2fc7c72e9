/// `device.forget`: every service that holds state for the envelope's device drops it now
/// (`gateway forget DEVICE`); each answers `device.forgotten` and acknowledges.
public struct Forget: Sendable, Equatable {
    /// A request to forget the envelope's device.
    public init() {}
}

extension Forget: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Forget { Forget() }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
    }
}

/// `device.forgotten`: a service dropped (or never held) the envelope's device's state.
public struct Forgotten: Sendable, Equatable {
    /// The service that answers (`presentation-policy`, `roster`, `input-handling`).
    public var service: String
    /// Whether it held anything for the device.
    public var held: Bool
    /// An answer from `service`.
    public init(service: String, held: Bool) {
        self.service = service; self.held = held
    }
}

extension Forgotten: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Forgotten { Forgotten(service: "", held: false) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("service", &service)
        try fields.field("held", &held)
    }
}

/// When each device was last used, so that devices unused for `limit` seconds can be forgotten.
/// Pure: the caller passes the clock's reading (seconds) in.
public struct DeviceActivity: Sendable {
    /// Seconds without use after which a device is forgotten.
    public let limit: Double
    private var lastUsed: [String: Double] = [:]
    private var nextSweep: Double = 0

    /// Activity tracking that forgets devices idle for more than `limit` seconds, starting from
    /// `lastUsed` (e.g. what a database recorded).
    public init(limit: Double, lastUsed: [String: Double] = [:]) { self.limit = limit; self.lastUsed = lastUsed }

    /// How many devices are tracked.
    public var count: Int { lastUsed.count }

    /// Notes that `device` was used at `now`.
    public mutating func touch(_ device: String, at now: Double) { lastUsed[device] = now }

    /// Notes that `device` was used at `now` if it is tracked (one look-up); false if it is not.
    public mutating func touchIfTracked(_ device: String, at now: Double) -> Bool {
        guard let index = lastUsed.index(forKey: device) else { return false }
        lastUsed.values[index] = now
        return true
    }

    /// Stops tracking `device`.
    public mutating func remove(_ device: String) { lastUsed[device] = nil }

    /// The devices idle for more than `limit` at `now`, no longer tracked. The dictionary is
    /// scanned once a minute, or every tenth of the limit when that is shorter, so sweeps cost
    /// little whatever the number of devices.
    public mutating func expire(at now: Double) -> [String] {
        guard now >= nextSweep else { return [] }
        nextSweep = now + min(60, limit / 10)
        let idle = lastUsed.filter { now - $0.value > limit }.map(\.key).sorted()
        for device in idle { lastUsed[device] = nil }
        return idle
    }
}
