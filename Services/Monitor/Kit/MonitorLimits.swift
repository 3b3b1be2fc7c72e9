/// How much of the monitor any client may hold, from the environment: connections in all and
/// per client address, `/events` streams, and how long a request may take to arrive whole.
/// Beyond a limit a client is refused cheaply (a connection closed at once past its address's
/// limit, left in the system's queue past the total, or a `503` with `Retry-After` for a
/// stream) and everyone else is served as before.
public struct MonitorLimits: Sendable, Equatable {
    /// Connections held at once on the page's listener (`MONITOR_MAX_CONNECTIONS`), shared
    /// evenly among its threads.
    public var maxConnections = 2048
    /// Connections held at once from one client address (`MONITOR_MAX_CONNECTIONS_PER_ADDRESS`).
    public var maxConnectionsPerAddress = 128
    /// `/events` streams open at once (`MONITOR_MAX_STREAMS`); the next is answered `503`.
    public var maxStreams = 1024
    /// Seconds a connection may stay silent before its request has arrived whole, and between
    /// two requests (`MONITOR_REQUEST_TIMEOUT_SECONDS`).
    public var requestTimeout = 5

    /// Seconds a refused stream is told to wait (`Retry-After`), and the page waits, before trying again.
    public static let retryAfter = 5
    /// Seconds an `/events` stream may make no progress (its client reads nothing) before it is
    /// closed; a client that reads is never cut (every stream carries the health each second).
    public static let streamStallTimeout = 60
    /// Connections held at once on the health listener.
    public static let healthConnections = 32
    /// Connections held at once from one address on the health listener.
    public static let healthConnectionsPerAddress = 8

    /// The defaults.
    public init() {}

    /// The limits the environment sets; unset or empty variables keep their defaults.
    public init(environment: [String: String]) throws(LimitsError) {
        func number(_ name: String, _ fallback: Int, in range: ClosedRange<Int>) throws(LimitsError) -> Int {
            guard let text = environment[name], !text.isEmpty else { return fallback }
            guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let value = Int(text), range.contains(value) else {
                throw LimitsError("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return value
        }
        maxConnections = try number("MONITOR_MAX_CONNECTIONS", maxConnections, in: 1...1_000_000)
        maxConnectionsPerAddress = try number("MONITOR_MAX_CONNECTIONS_PER_ADDRESS", maxConnectionsPerAddress, in: 1...1_000_000)
        maxStreams = try number("MONITOR_MAX_STREAMS", maxStreams, in: 0...1_000_000)
        requestTimeout = try number("MONITOR_REQUEST_TIMEOUT_SECONDS", requestTimeout, in: 1...3600)
        guard maxConnectionsPerAddress <= maxConnections else {
            throw LimitsError("MONITOR_MAX_CONNECTIONS_PER_ADDRESS (\(maxConnectionsPerAddress)) must not be above MONITOR_MAX_CONNECTIONS (\(maxConnections))")
        }
    }

    /// These limits within `descriptors` open files (the process's limit): the connections
    /// leave room for the process's own files and sockets (`reserved`), and the streams and
    /// per-address limit stay within the connections. `nil` when nothing had to change.
    public func fitting(descriptors: Int, reserved: Int = 128) -> MonitorLimits? {
        let room = max(1, descriptors - reserved - Self.healthConnections)
        guard maxConnections > room else { return nil }
        var fitted = self
        fitted.maxConnections = room
        fitted.maxConnectionsPerAddress = min(maxConnectionsPerAddress, room)
        fitted.maxStreams = min(maxStreams, room)
        return fitted
    }
}

/// A limit that cannot be used, and why (naming the variable).
public struct LimitsError: Error, CustomStringConvertible {
    /// What is wrong, naming the variable.
    public let description: String
    init(_ description: String) { self.description = description }
}
