/// One etcd member's client URL, `http://HOST:PORT` or `https://HOST:PORT` (TLS: `EtcdTLS`; a
/// path after it prefixes every call's), as parsed and checked once at start.
public struct EtcdEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// The URL as written.
    public let url: String
    /// The host: a name or an address (IPv6 without its brackets).
    let host: String
    /// The TCP port (80, or 443 with https, when the URL names none).
    let port: UInt16
    /// Whether the member is reached over TLS (`https://`).
    public let secure: Bool
    /// The path before every call's (`/v3/...`), without a trailing slash; usually empty.
    let basePath: String

    /// The endpoint's URL.
    public var description: String { url }

    /// `url` checked: http or https, a host without spaces, control characters or user info,
    /// and a port from 1 to 65535.
    public init(_ url: String) throws(EtcdError) {
        secure = url.hasPrefix("https://")
        let scheme = secure ? "https://" : "http://"
        guard url.hasPrefix(scheme) else {
            throw EtcdError(description: "etcd endpoint '\(url)' is not an http URL (http://HOST:PORT or https://HOST:PORT)")
        }
        let rest = url.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" }
        var path = String(rest.dropFirst(authority.count))
        while path.hasSuffix("/") { path.removeLast() }
        var host = Substring(authority)
        var portText: Substring?
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty { portText = after.hasPrefix(":") ? after.dropFirst() : after }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        let port = portText.map { UInt16($0) } ?? (secure ? 443 : 80)
        guard let port, port > 0, !host.isEmpty,
              host.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f && $0 != "@" && $0 != "/" })
        else {
            throw EtcdError(description: "etcd endpoint '\(url)' is not an http URL (http://HOST:PORT or https://HOST:PORT)")
        }
        self.url = url
        self.host = String(host)
        self.port = port
        basePath = path
    }

    /// The members named in `list` (`ETCD_ENDPOINTS`: URLs separated by commas, spaces around
    /// each ignored), every one checked: an empty entry, a bad URL or a member named twice is an
    /// error naming it, so that a typo is found at start rather than when another member fails.
    public static func list(_ list: String) throws(EtcdError) -> [EtcdEndpoint] {
        let entries = list.split(separator: ",", omittingEmptySubsequences: false).map { entry in
            String(entry.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }
        var endpoints: [EtcdEndpoint] = []
        for (index, entry) in entries.enumerated() {
            guard !entry.isEmpty else {
                throw EtcdError(description: "ETCD_ENDPOINTS '\(list)': entry \(index + 1) of \(entries.count) is empty")
            }
            let endpoint: EtcdEndpoint
            do {
                endpoint = try EtcdEndpoint(entry)
            } catch {
                throw EtcdError(description: "ETCD_ENDPOINTS entry \(index + 1) of \(entries.count): \(error.description)")
            }
            // One cluster speaks TLS on every client URL or on none: a mixed list is a typo that
            // would send some requests in the clear.
            guard endpoints.first.map({ $0.secure == endpoint.secure }) ?? true else {
                throw EtcdError(description: "ETCD_ENDPOINTS mixes http:// and https:// ('\(entry)'): list every member with the same scheme")
            }
            guard !endpoints.contains(where: { $0.host == endpoint.host && $0.port == endpoint.port && $0.basePath == endpoint.basePath }) else {
                throw EtcdError(description: "ETCD_ENDPOINTS names '\(entry)' twice (list each etcd member once)")
            }
            endpoints.append(endpoint)
        }
        return endpoints
    }
}
