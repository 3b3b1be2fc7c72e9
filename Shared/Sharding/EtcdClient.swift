import Domain
import Glibc
import JSON
import ProcessSupport
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

/// A small client of etcd's v3 JSON gateway over HTTP, with TLS or without (`/v3/kv/...`, `/v3/lease/...`;
/// keys and values base64), synchronous: each call blocks the calling thread (never call it
/// from the cooperative pool) until etcd answers or `timeout` passes. It speaks HTTP/1.1 itself
/// (`HTTPClient`) and codes JSON with the project's coders, so that no process loads Foundation
/// (and its resident memory) for it.
///
/// It knows every member of the cluster and asks one at a time; a member that cannot be reached,
/// does not answer in time, or answers that it is unavailable (no leader, an election under way)
/// is left for the next, within the same deadline (`EtcdRotation`), so that a client keeps its
/// lease while a majority of the members is up. Retrying on another member is safe for every
/// call made here: ranges, keep-alives, puts and deletes are idempotent in their effect (a put
/// of the same value, a second delete, a second keep-alive change nothing that is read); a lease
/// granted by an attempt whose answer was lost expires unused after its TTL; and a fenced write
/// (`write`) compares the key's revision, so a retry of one that had been applied is refused and
/// changes nothing (see `write`).
public final class EtcdClient: Sendable {
    private typealias M = EtcdMessages
    private let members: [(endpoint: EtcdEndpoint, http: HTTPClient)]
    private let rotation: Locked<EtcdRotation>
    private let timeout: Double

    /// A client of the cluster whose members' client URLs are `endpoints` (at least one), over
    /// TLS with `tls`'s files when they are https (its files read here: a bad one is an error),
    /// each call given `timeout` seconds in all.
    public init(endpoints: [EtcdEndpoint], tls: EtcdTLS? = nil, timeout: Double = 2) throws(EtcdError) {
        guard !endpoints.isEmpty else { throw EtcdError(description: "no etcd endpoint given") }
        guard tls == nil || endpoints.allSatisfy(\.secure) else {
            throw EtcdError(description: "TLS files given for http:// etcd members: etcd over TLS needs https://")
        }
        let context = endpoints.contains(where: \.secure) ? try TLSContext(tls ?? EtcdTLS()) : nil
        members = endpoints.map { ($0, HTTPClient(host: $0.host, port: $0.port, tls: $0.secure ? context : nil)) }
        rotation = Locked(EtcdRotation(members: endpoints.count))
        self.timeout = timeout
    }

    /// A client of the etcd at `endpoint` (`http://HOST:PORT`, e.g. `http://127.0.0.1:2379`, or
    /// https with `tls`; a path after it prefixes every call's).
    public convenience init(endpoint: String, tls: EtcdTLS? = nil, timeout: Double = 2) throws(EtcdError) {
        try self.init(endpoints: [EtcdEndpoint(endpoint)], tls: tls, timeout: timeout)
    }

    /// The member that requests go to first now.
    public var endpoint: EtcdEndpoint { members[rotation.current.preferred].endpoint }

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

    private func range(_ request: M.Range) throws(EtcdError) -> [EtcdKeyValue] {
        let answer = try call("/v3/kv/range", request, as: M.RangeAnswer.self)
        return (answer.kvs ?? []).compactMap { kv in
            guard let key = kv.key.flatMap(Base64.decode), let text = String(validating: key, as: UTF8.self) else { return nil }
            return EtcdKeyValue(
                key: text, value: kv.value.flatMap(Base64.decode) ?? [],
                createRevision: kv.createRevision?.value ?? 0, modRevision: kv.modRevision?.value ?? 0)
        }
    }

    /// The id of the member that answers and of the leader it follows (etcd's ids, as decimal
    /// text), or nil for a leader when it knows none.
    public func status() throws(EtcdError) -> (member: String, leader: String?) {
        let answer = try call("/v3/maintenance/status", M.Empty(), as: M.Status.self)
        guard let member = answer.header?.memberID else { throw EtcdError(description: "status: no member_id in etcd's answer") }
        return (member, answer.leader.flatMap { $0 == "0" ? nil : $0 })
    }

    /// What one attempt at one member came to.
    private enum Outcome {
        /// The member's answer, status 200 and no error in it.
        case answered([UInt8])
        /// Not reached, no answer in time, or etcd unavailable there: another member may do.
        case unavailable(String)
        /// An answer that another member would give too (a bad request, a lease not found).
        case refused(EtcdError)
    }

    /// Posts `request` as JSON to `path` and returns etcd's JSON answer as an `Answer`, asking
    /// the members in turn (`EtcdRotation`) until one answers or `timeout` has passed.
    func call<Request: FieldValue, Answer: FieldValue>(_ path: String, _ request: Request, as: Answer.Type) throws(EtcdError) -> Answer {
        let body: [UInt8]
        do {
            body = try JSONCoding.encode(request)
        } catch {
            throw EtcdError(description: "\(path): cannot encode the request: \(error)")
        }
        let deadline = Timestamp.monotonic() + timeout
        var attempts = EtcdAttempts(members: members.count, first: rotation.current.preferred)
        var reasons: [Int: String] = [:]
        while let attempt = attempts.next(secondsLeft: deadline - Timestamp.monotonic()) {
            if attempt.pause > 0 { usleep(UInt32(attempt.pause * 1_000_000)) }
            switch post(path, body, to: attempt.member, seconds: attempt.seconds) {
            case .answered(let answer):
                do {
                    return try JSONCoding.decode(Answer.self, from: answer)
                } catch {
                    throw EtcdError(description: "\(path): etcd's answer is not what was expected (\(error)): \(String(decoding: answer.prefix(300), as: UTF8.self))")
                }
            case .refused(let error):
                throw error
            case .unavailable(let reason):
                reasons[attempt.member] = reason
                rotation.withLock { $0.failed(attempt.member) }
            }
        }
        if members.count == 1 {
            throw EtcdError(description: "\(path): etcd at \(members[0].endpoint) (timeout \(timeout) s): \(reasons[0] ?? "no time left")")
        }
        let tried = reasons.keys.sorted().map { "\(members[$0].endpoint): \(reasons[$0] ?? "")" }
        throw EtcdError(description: "\(path): no etcd member answered within \(timeout) s (\(tried.joined(separator: "; ")))")
    }

    /// One attempt: `body` posted to `path` at member `index`, within `seconds`.
    private func post(_ path: String, _ body: [UInt8], to index: Int, seconds: Double) -> Outcome {
        let member = members[index]
        let response: HTTPClient.Response
        do {
            response = try member.http.post(member.endpoint.basePath + path, body: body, contentType: "application/json", timeout: seconds)
        } catch where error.unanswered && !member.endpoint.secure {
            return .unavailable(error.description + " (a member started with TLS does that with plain HTTP: is its URL https://?)")
        } catch {
            return .unavailable(error.description)
        }
        let text = String(decoding: response.body.prefix(300), as: UTF8.self)
        // A unary call's error is the body {"error", "code", "message"} with an HTTP status; a
        // streamed one's (keepalive) is {"error": {"grpc_code", "http_code", "message"}} with 200.
        let failure: (code: Int?, message: String)
        if response.status == 200 {
            guard let error = (try? JSONValue.parse(response.body))?["error"] else { return .answered(response.body) }
            failure = (error["grpc_code"]?.doubleValue.flatMap { Int(exactly: $0) }, error["message"]?.stringValue ?? text)
        } else {
            let error = try? JSONValue.parse(response.body)
            failure = (error?["code"]?.doubleValue.flatMap { Int(exactly: $0) }, error?["message"]?.stringValue ?? text)
        }
        let reason = response.status == 200 ? failure.message : "etcd answered \(response.status): \(text)"
        return Self.isUnavailable(status: response.status, code: failure.code, message: failure.message)
            ? .unavailable(reason) : .refused(EtcdError(description: "\(path): \(reason)"))
    }

    /// Whether an error answer means that this member cannot serve now, where another may: gRPC's
    /// Unavailable (14; HTTP 503: no leader, a request timed out as the leader failed, a member
    /// stopping), a gateway time-out (504), or a proposal dropped by a follower that has no
    /// leader during an election (etcd answers it as Unknown, 500). Anything else (a bad
    /// request, a lease not found, no space) any member would answer alike.
    static func isUnavailable(status: Int, code: Int?, message: String) -> Bool {
        status == 503 || status == 504 || code == 14 || message == "raft proposal dropped"
    }
}
