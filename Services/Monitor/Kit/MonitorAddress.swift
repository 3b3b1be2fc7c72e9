/// Where the monitor serves HTTP (`MONITOR_ADDRESS`, default `http://127.0.0.1:8080`).
public struct MonitorAddress: Sendable, Equatable, CustomStringConvertible {
    /// The default address: loopback, port 8080.
    public static let defaultText = "http://127.0.0.1:8080"

    /// The IPv4 address to bind (`127.0.0.1`, `0.0.0.0` for every interface).
    public var host: String
    /// The TCP port; 0 asks the system for a free one.
    public var port: UInt16

    /// `http://HOST:PORT`.
    public var description: String { "http://\(host):\(port)" }

    /// Parses `http://HOST:PORT` (HOST an IPv4 address or `localhost`; a trailing `/` is allowed).
    public init(parsing text: String) throws(AddressError) {
        var rest = Substring(text)
        guard rest.hasPrefix("http://") else { throw AddressError("MONITOR_ADDRESS must be http://HOST:PORT, not '\(text)'") }
        rest = rest.dropFirst(7)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let colon = rest.lastIndex(of: ":"), let port = UInt16(rest[rest.index(after: colon)...]) else {
            throw AddressError("MONITOR_ADDRESS needs a port from 0 to 65535: http://HOST:PORT, not '\(text)'")
        }
        var host = String(rest[..<colon])
        if host == "localhost" { host = "127.0.0.1" }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else {
            throw AddressError("MONITOR_ADDRESS's host must be an IPv4 address such as 127.0.0.1 or 0.0.0.0, not '\(host)'")
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
