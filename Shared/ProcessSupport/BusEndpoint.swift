/// The ZeroMQ endpoints `BUS_FRONTEND` and `BUS_BACKEND` may name: `tcp://HOST:PORT`,
/// `ipc://PATH` or `inproc://NAME`, read as libzmq reads them. A value libzmq would refuse is a
/// configuration error when the process starts (exit 2, naming the variable), not a failure to
/// bind or connect later.
enum BusEndpoint {
    /// The longest `ipc://` path: a Unix socket's `sun_path` holds 108 bytes with its NUL.
    static let longestPath = 107

    /// Checks `value` of `variable`; `binds` allows the port `*` (any free one, for the bus).
    static func check(_ value: String, variable: String, binds: Bool) throws(ConfigError) {
        if let problem = problem(value, binds: binds) {
            throw ConfigError("\(variable)=\(value) is not a ZeroMQ endpoint the bus can use: \(problem)")
        }
    }

    /// Why `value` cannot be used, or nil.
    static func problem(_ value: String, binds: Bool) -> String? {
        if let path = value.dropPrefix("ipc://") {
            if path.isEmpty { return "ipc:// needs a path" }
            if path.utf8.count > longestPath { return "an ipc:// path is at most \(longestPath) bytes, not \(path.utf8.count)" }
            return nil
        }
        if let name = value.dropPrefix("inproc://") { return name.isEmpty ? "inproc:// needs a name" : nil }
        guard let address = value.dropPrefix("tcp://") else { return "it must be tcp://HOST:PORT, ipc://PATH or inproc://NAME" }
        guard let colon = address.lastIndex(of: ":") else { return "tcp:// needs HOST:PORT" }
        let host = address[..<colon], port = address[address.index(after: colon)...]
        // libzmq's own check of a host: a letter, a digit, `[` or `:` first (IPv6), then these;
        // `*` (every interface) only to bind.
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:%;[]_*")
        guard let first = host.first, first.isASCII && (first.isLetter || first.isNumber || first == "[" || first == ":" || (binds && first == "*")),
              host.allSatisfy(allowed.contains)
        else { return "'\(host)' is not a host name or address" }
        if binds && port == "*" { return nil }
        guard !port.isEmpty, port.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(port), number <= 65_535 else {
            return "'\(port)' is not a port number" + (binds ? " or *" : "")
        }
        return nil
    }
}

private extension String {
    /// The rest of the string after `prefix`, if it starts with it.
    func dropPrefix(_ prefix: String) -> Substring? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }
}
