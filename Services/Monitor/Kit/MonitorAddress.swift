/// Where the monitor serves HTTP (`MONITOR_ADDRESS`, default `http://127.0.0.1:8080`), and
/// `/healthz` and `/metrics` on a listener of their own (`MONITOR_HEALTH_ADDRESS`).
public struct MonitorAddress: Sendable, Equatable, CustomStringConvertible {
    /// The default address: loopback, port 8080.
    public static let defaultText = "http://127.0.0.1:8080"

    /// The IPv4 address to bind (`127.0.0.1`, `0.0.0.0` for every interface).
    public var host: String
    /// The TCP port; 0 asks the system for a free one.
    public var port: UInt16

    /// `http://HOST:PORT`.
    public var description: String { "http://\(host):\(port)" }

    /// The health listener's address: `MONITOR_HEALTH_ADDRESS` when set (`text`), else this
    /// address's host and the next port (port 0: any free port as well).
    public func healthAddress(_ text: String?) throws(AddressError) -> MonitorAddress {
        if let text, !text.isEmpty { return try MonitorAddress(parsing: text, variable: "MONITOR_HEALTH_ADDRESS") }
        guard port < UInt16.max else {
            throw AddressError("MONITOR_ADDRESS's port is 65535: set MONITOR_HEALTH_ADDRESS (the health listener's) explicitly")
        }
        var health = self
        if port != 0 { health.port = port + 1 }
        return health
    }

    /// Parses `http://HOST:PORT` (HOST an IPv4 address or `localhost`; a trailing `/` is allowed).
    public init(parsing text: String, variable: String = "MONITOR_ADDRESS") throws(AddressError) {
        var rest = Substring(text)
        guard rest.hasPrefix("http://") else { throw AddressError("\(variable) must be http://HOST:PORT, not '\(text)'") }
        rest = rest.dropFirst(7)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let colon = rest.lastIndex(of: ":"), let port = UInt16(rest[rest.index(after: colon)...]) else {
            throw AddressError("\(variable) needs a port from 0 to 65535: http://HOST:PORT, not '\(text)'")
        }
        var host = String(rest[..<colon])
        if host == "localhost" { host = "127.0.0.1" }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else {
            throw AddressError("\(variable)'s host must be an IPv4 address such as 127.0.0.1 or 0.0.0.0, not '\(host)'")
        }
        self.host = host
        self.port = port
    }
}

/// A `MONITOR_ADDRESS` that cannot be used, and why.
public struct AddressError: Error, CustomStringConvertible {
    /// What is wrong, naming the variable.
    public let description: String
    init(_ description: String) { self.description = description }
}
