import Foundation
import FoundationNetworking

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

/// A small client of etcd's v3 JSON gateway over HTTP (`/v3/kv/...`, `/v3/lease/...`; keys and
/// values base64), synchronous: each call blocks the calling thread (never call it from the
/// cooperative pool) until etcd answers or `timeout` passes.
public final class EtcdClient: Sendable {
    private let endpoint: URL
    private let session: URLSession
    private let timeout: Double

    /// A client of the etcd at `endpoint` (e.g. `http://127.0.0.1:2379`).
    public init(endpoint: String, timeout: Double = 2) throws(EtcdError) {
        guard let url = URL(string: endpoint), url.scheme == "http" || url.scheme == "https" else {
            throw EtcdError(description: "etcd endpoint '\(endpoint)' is not an http(s) URL")
        }
        self.endpoint = url
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        session = URLSession(configuration: configuration)
    }

    /// Grants a lease of `ttl` seconds; returns its id.
    public func grantLease(ttl: Int) throws(EtcdError) -> Int64 {
        let answer = try call("/v3/lease/grant", ["TTL": ttl])
        guard let id = Self.int(answer["ID"]) else { throw EtcdError(description: "lease grant: no ID in \(answer)") }
        return id
    }

    /// Refreshes lease `id`; returns its TTL in seconds (0 or less: the lease has expired).
    public func keepAlive(lease id: Int64) throws(EtcdError) -> Int64 {
        let answer = try call("/v3/lease/keepalive", ["ID": String(id)])
        let result = answer["result"] as? [String: Any] ?? answer
        return Self.int(result["TTL"]) ?? 0
    }

    /// Revokes lease `id`, deleting its keys.
    public func revoke(lease id: Int64) throws(EtcdError) {
        _ = try call("/v3/lease/revoke", ["ID": String(id)])
    }

    /// Puts `value` at `key`, attached to `lease` if given.
    public func put(_ key: String, _ value: [UInt8], lease: Int64? = nil) throws(EtcdError) {
        var request: [String: Any] = ["key": Self.base64(key), "value": Data(value).base64EncodedString()]
        if let lease { request["lease"] = String(lease) }
        _ = try call("/v3/kv/put", request)
    }

    /// The key `key`, if it exists.
    public func get(_ key: String) throws(EtcdError) -> EtcdKeyValue? {
        try range(["key": Self.base64(key)]).first
    }

    /// Every key starting with `prefix`, in key order.
    public func list(prefix: String) throws(EtcdError) -> [EtcdKeyValue] {
        var end = Array(prefix.utf8)
        if let last = end.indices.last { end[last] += 1 }
        return try range(["key": Self.base64(prefix), "range_end": Data(end).base64EncodedString()])
    }

    /// Deletes `key` (nothing if it does not exist).
    public func delete(_ key: String) throws(EtcdError) {
        _ = try call("/v3/kv/deleterange", ["key": Self.base64(key)])
    }

    /// Puts `value` at `key` (or deletes `key` when `value` is nil) only if `guardKey` exists
    /// with create revision `createRevision` — a write fenced by an epoch — and, when
    /// `keyRevision` is given, only if `key` was last changed at that revision (0: `key` does not
    /// exist). Returns the revision of the write, or nil when it was not done.
    public func write(
        _ key: String, _ value: [UInt8]?, ifKey guardKey: String, wasCreatedAt createRevision: Int64,
        andKeyIsAt keyRevision: Int64? = nil
    ) throws(EtcdError) -> Int64? {
        let operation: [String: Any] = if let value {
            ["request_put": ["key": Self.base64(key), "value": Data(value).base64EncodedString()]]
        } else {
            ["request_delete_range": ["key": Self.base64(key)]]
        }
        var compare: [[String: Any]] = [
            ["key": Self.base64(guardKey), "target": "CREATE", "result": "EQUAL", "create_revision": String(createRevision)],
        ]
        if let keyRevision {
            compare.append(["key": Self.base64(key), "target": "MOD", "result": "EQUAL", "mod_revision": String(keyRevision)])
        }
        let answer = try call("/v3/kv/txn", ["compare": compare, "success": [operation]])
        guard answer["succeeded"] as? Bool ?? false else { return nil }
        return Self.int((answer["header"] as? [String: Any])?["revision"])
    }

    private func range(_ request: [String: Any]) throws(EtcdError) -> [EtcdKeyValue] {
        let answer = try call("/v3/kv/range", request)
        let kvs = answer["kvs"] as? [[String: Any]] ?? []
        return kvs.compactMap { kv in
            guard let key = (kv["key"] as? String).flatMap({ Data(base64Encoded: $0) }).flatMap({ String(bytes: $0, encoding: .utf8) })
            else { return nil }
            let value = (kv["value"] as? String).flatMap { Data(base64Encoded: $0) } ?? Data()
            return EtcdKeyValue(
                key: key, value: [UInt8](value),
                createRevision: Self.int(kv["create_revision"]) ?? 0, modRevision: Self.int(kv["mod_revision"]) ?? 0)
        }
    }

    /// Posts `body` as JSON to `path` and returns etcd's JSON answer.
    private func call(_ path: String, _ body: [String: Any]) throws(EtcdError) -> [String: Any] {
        var request = URLRequest(url: endpoint.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        do {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
        } catch {
            throw EtcdError(description: "\(path): cannot encode the request: \(error)")
        }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: request) { data, response, error in
            outcome.set(data: data, status: (response as? HTTPURLResponse)?.statusCode, error: error)
            done.signal()
        }.resume()
        if done.wait(timeout: .now() + timeout + 1) == .timedOut {
            throw EtcdError(description: "\(path): etcd at \(endpoint) did not answer within \(timeout) s")
        }
        let (data, status, error) = outcome.get()
        if let error { throw EtcdError(description: "\(path): etcd at \(endpoint): \(error.localizedDescription)") }
        let text = data.map { String(decoding: $0, as: UTF8.self) } ?? ""
        guard status == 200, let data,
              let object = try? JSONSerialization.jsonObject(with: data), let answer = object as? [String: Any]
        else {
            throw EtcdError(description: "\(path): etcd answered \(status.map(String.init) ?? "nothing"): \(text.prefix(300))")
        }
        // A streamed RPC (keepalive) answers {"result": …} or {"error": …}.
        if let failure = answer["error"] { throw EtcdError(description: "\(path): \(failure)") }
        return answer
    }

    private static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

    /// An int64 of etcd's JSON: a string (as the gateway writes them) or a number.
    private static func int(_ value: Any?) -> Int64? {
        if let text = value as? String { return Int64(text) }
        if let number = value as? NSNumber { return number.int64Value }
        return nil
    }
}

/// What a URLSession callback handed back, across threads.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    private var status: Int?
    private var error: (any Error)?

    func set(data: Data?, status: Int?, error: (any Error)?) {
        lock.lock(); defer { lock.unlock() }
        (self.data, self.status, self.error) = (data, status, error)
    }

    func get() -> (Data?, Int?, (any Error)?) {
        lock.lock(); defer { lock.unlock() }
        return (data, status, error)
    }
}
