import Domain
import JSON
import Wire

/// What went wrong talking to etcd.
public struct EtcdError: Error, CustomStringConvertible, Sendable {
    /// For a person: what was asked and what happened.
    public let description: String
}

/// One key of etcd with its value and revisions.
public struct EtcdKeyValue: Sendable, Equatable {
    /// The full key, prefix included (`/monsterbus/…`).
    public let key: String
    /// The stored bytes, as written (etcd does not interpret them).
    public let value: [UInt8]
    /// The revision that created the key (its incarnation: a deleted and re-created key gets a new one).
    public let createRevision: Int64
    /// The revision of its last change.
    public let modRevision: Int64
}

/// A small client of etcd's v3 JSON gateway over plain HTTP (`/v3/kv/...`, `/v3/lease/...`;
/// keys and values base64), synchronous: each call blocks the calling thread (never call it
/// from the cooperative pool) until etcd answers or `timeout` passes. It speaks HTTP/1.1 itself
/// (`HTTPClient`) and codes JSON with the project's coders, so that no process loads Foundation
/// (and its resident memory) for it.
public final class EtcdClient: Sendable {
    private typealias M = EtcdMessages
    private let endpoint: String
    private let basePath: String
    private let http: HTTPClient
    private let timeout: Double

    /// A client of the etcd at `endpoint` (`http://HOST:PORT`, e.g. `http://127.0.0.1:2379`;
    /// a path after it prefixes every call's).
    public init(endpoint: String, timeout: Double = 2) throws(EtcdError) {
        let scheme = "http://"
        guard endpoint.hasPrefix(scheme) else {
            throw EtcdError(description: endpoint.hasPrefix("https://")
                ? "etcd endpoint '\(endpoint)': https is not supported (etcd's client URL must be http://HOST:PORT)"
                : "etcd endpoint '\(endpoint)' is not an http URL (http://HOST:PORT)")
        }
        let rest = endpoint.dropFirst(scheme.count)
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
        let port = portText.map { UInt16($0) } ?? 80
        guard let port, port > 0, !host.isEmpty,
              host.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f && $0 != "@" && $0 != "/" })
        else {
            throw EtcdError(description: "etcd endpoint '\(endpoint)' is not an http URL (http://HOST:PORT)")
        }
        self.endpoint = endpoint
        basePath = path
        http = HTTPClient(host: String(host), port: port)
        self.timeout = timeout
    }

    /// Grants a lease of `ttl` seconds; returns its id.
    public func grantLease(ttl: Int) throws(EtcdError) -> Int64 {
        let answer = try call("/v3/lease/grant", M.LeaseGrant(ttl: ttl), as: M.Lease.self)
        guard let id = answer.id?.value else { throw EtcdError(description: "lease grant: no ID in etcd's answer") }
        return id
    }

    /// Refreshes lease `id`; returns its TTL in seconds (0 or less: the lease has expired).
    public func keepAlive(lease id: Int64) throws(EtcdError) -> Int64 {
        let answer = try call("/v3/lease/keepalive", M.LeaseID(id: M.Int64Text(id)), as: M.Streamed<M.Lease>.self)
        return answer.result?.ttl?.value ?? 0
    }

    /// Revokes lease `id`, deleting its keys.
    public func revoke(lease id: Int64) throws(EtcdError) {
        _ = try call("/v3/lease/revoke", M.LeaseID(id: M.Int64Text(id)), as: M.Header.self)
    }

    /// Puts `value` at `key`, attached to `lease` if given.
    public func put(_ key: String, _ value: [UInt8], lease: Int64? = nil) throws(EtcdError) {
        _ = try call("/v3/kv/put", M.Put(key: Base64.encode(key.utf8), value: Base64.encode(value), lease: lease.map(M.Int64Text.init)), as: M.Header.self)
    }

    /// The key `key`, if it exists.
    public func get(_ key: String) throws(EtcdError) -> EtcdKeyValue? {
        try range(M.Range(key: Base64.encode(key.utf8))).first
    }

    /// Every key starting with `prefix`, in key order.
    public func list(prefix: String) throws(EtcdError) -> [EtcdKeyValue] {
        var end = Array(prefix.utf8)
        if let last = end.indices.last { end[last] += 1 }
        return try range(M.Range(key: Base64.encode(prefix.utf8), rangeEnd: Base64.encode(end)))
    }

    /// Deletes `key` (nothing if it does not exist).
    public func delete(_ key: String) throws(EtcdError) {
        _ = try call("/v3/kv/deleterange", M.Key(key: Base64.encode(key.utf8)), as: M.Header.self)
    }

    /// Puts `value` at `key` (or deletes `key` when `value` is nil) only if `guardKey` exists
    /// with create revision `createRevision` — a write fenced by an epoch — and, when
    /// `keyRevision` is given, only if `key` was last changed at that revision (0: `key` does not
    /// exist). Returns the revision of the write, or nil when it was not done.
    public func write(
        _ key: String, _ value: [UInt8]?, ifKey guardKey: String, wasCreatedAt createRevision: Int64,
        andKeyIsAt keyRevision: Int64? = nil
    ) throws(EtcdError) -> Int64? {
        let encodedKey = Base64.encode(key.utf8)
        let operation = if let value {
            M.Operation(put: M.Put(key: encodedKey, value: Base64.encode(value)))
        } else {
            M.Operation(deleteRange: M.Key(key: encodedKey))
        }
        var compare = [M.Compare(key: Base64.encode(guardKey.utf8), target: "CREATE", createRevision: M.Int64Text(createRevision))]
        if let keyRevision {
            compare.append(M.Compare(key: encodedKey, target: "MOD", modRevision: M.Int64Text(keyRevision)))
        }
        let answer = try call("/v3/kv/txn", M.Transaction(compare: compare, success: [operation]), as: M.TransactionAnswer.self)
        guard answer.succeeded ?? false else { return nil }
        return answer.header?.revision?.value
    }

    private func range(_ request: M.Range) throws(EtcdError) -> [EtcdKeyValue] {
        let answer = try call("/v3/kv/range", request, as: M.RangeAnswer.self)
        return (answer.kvs ?? []).compactMap { kv in
            guard let key = kv.key.flatMap(Base64.decode), let text = String(validating: key, as: UTF8.self) else { return nil }
            return EtcdKeyValue(
                key: text, value: kv.value.flatMap(Base64.decode) ?? [],
                createRevision: kv.createRevision?.value ?? 0, modRevision: kv.modRevision?.value ?? 0)
        }
    }

    /// Posts `request` as JSON to `path` and returns etcd's JSON answer as an `Answer`.
    private func call<Request: FieldValue, Answer: FieldValue>(_ path: String, _ request: Request, as: Answer.Type) throws(EtcdError) -> Answer {
        let body: [UInt8]
        do {
            body = try JSONCoding.encode(request)
        } catch {
            throw EtcdError(description: "\(path): cannot encode the request: \(error)")
        }
        let response: HTTPClient.Response
        do {
            response = try http.post(basePath + path, body: body, contentType: "application/json", timeout: timeout)
        } catch {
            throw EtcdError(description: "\(path): etcd at \(endpoint) (timeout \(timeout) s): \(error.description)")
        }
        let text = String(decoding: response.body.prefix(300), as: UTF8.self)
        guard response.status == 200 else { throw EtcdError(description: "\(path): etcd answered \(response.status): \(text)") }
        // A streamed RPC (keepalive) answers {"result": …} or {"error": …}.
        if let failure = (try? JSONValue.parse(response.body))?["error"] {
            throw EtcdError(description: "\(path): \(failure["message"]?.stringValue ?? text)")
        }
        do {
            return try JSONCoding.decode(Answer.self, from: response.body)
        } catch {
            throw EtcdError(description: "\(path): etcd's answer is not what was expected (\(error)): \(text)")
        }
    }
}
