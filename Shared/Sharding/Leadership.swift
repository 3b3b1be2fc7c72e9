import Glibc
import ProcessSupport
import Wire

/// Which one of a service's instances is its one writer, kept in etcd: the key
/// `/monsterbus/leader/<service>` put on the writer's lease only if absent, refreshed every third
/// of the TTL. The key's create revision is the writer's epoch: writes fenced by it are refused
/// once another instance holds the key. The others wait and take the key once its lease expires.
public final class Leadership: Sendable {
    /// What the keeping thread holds: the epoch, and the lease behind it.
    private struct State: Sendable {
        /// This instance's epoch while it leads, else nil.
        var epoch: Int64?
        /// The lease the key is on, while leading.
        var lease: Int64 = 0
        /// When the last renewal that etcd answered was sent, in seconds of the monotonic clock:
        /// etcd keeps the lease at least the TTL from then.
        var renewed = 0.0
        /// True once `leave()` was called: this instance leads no more and tries no more.
        var left = false
    }

    /// This instance's name (the key's value, with its lease).
    public let instance: String
    /// The key that names the writer.
    public let key: String
    private let client: EtcdClient
    private let ttl: Int
    private let log: Log
    private let state = Locked(State())

    /// Tries once to lead `service` (blocking until etcd answers: an error when it does not);
    /// `keep()` goes on from there.
    public init(service: String, config: ShardConfig, client: EtcdClient, log: Log) throws(EtcdError) {
        instance = config.instance
        key = "/monsterbus/leader/\(service)"
        self.client = client
        ttl = config.leaseSeconds
        self.log = log
        try acquire()
    }

    /// This instance's epoch while it leads, else nil. Nil too once the TTL has passed since
    /// the last renewal etcd answered was sent, even before the keeping thread notices: etcd
    /// may have expired the lease then, and another instance may lead.
    public var epoch: Int64? {
        let current = state.current
        guard let epoch = current.epoch, Timestamp.monotonic() - current.renewed < Double(ttl) else { return nil }
        return epoch
    }

    /// Refreshes the leadership every third of the TTL from a thread of its own, until `leave()`.
    public func keep() {
        let interval = max(0.2, Double(ttl) / 3)
        _ = OSThread { [self] in
            while true {
                usleep(UInt32(interval * 1_000_000))
                refresh()
            }
        }
    }

    /// One refresh: the writer renews its lease (and stops leading when the lease is lost or
    /// was not renewed within its TTL); any other instance tries to take the key.
    private func refresh() {
        guard !state.current.left else { return }
        do {
            guard state.current.epoch != nil else { return try acquire() }
            let lease = state.current.lease
            let sent = Timestamp.monotonic()
            guard try client.keepAlive(lease: lease) > 0 else {
                return stepDown("its lease \(lease) expired")
            }
            state.withLock { $0.renewed = sent }
        } catch {
            log.warn("leadership: \(error)")
            if state.current.epoch != nil, epoch == nil {
                stepDown("its lease was not renewed for \(ttl) s")
            }
        }
    }

    /// Stops leading (a write fenced off says another instance leads): the lease is revoked,
    /// which deletes the key if it is still this instance's, and the next refresh tries again.
    public func stepDown(_ reason: String) {
        let lease: Int64? = state.withLock { state in
            guard state.epoch != nil else { return nil }
            state.epoch = nil
            return state.lease
        }
        guard let lease else { return }
        log.warn("\(instance) no longer leads \(key): \(reason)")
        try? client.revoke(lease: lease)
    }

    /// Gives the lead up at once (a planned stop, once the instance has sent its last
    /// messages): the lease revoked, the key goes, and another instance takes it at its next
    /// refresh instead of a TTL later. This instance tries no more.
    public func leave() {
        let lease: Int64? = state.withLock { state in
            defer { state.left = true; state.epoch = nil }
            return state.left || state.epoch == nil ? nil : state.lease
        }
        guard let lease else { return }
        do {
            try client.revoke(lease: lease)
            log.info("\(instance) left \(key): lease \(lease) revoked")
        } catch {
            log.warn("\(instance) leaving \(key): \(error); the key goes when its lease expires")
        }
    }

    /// Takes the key if nobody holds it. A lost answer retried is refused (the key exists by
    /// then): the key read back, holding this attempt's token, tells that it was this instance's.
    private func acquire() throws(EtcdError) {
        guard try client.get(key) == nil else { return }
        let sent = Timestamp.monotonic()
        let lease = try client.grantLease(ttl: ttl)
        let token = Array("\(instance) \(lease)".utf8)
        _ = try client.transaction([.created(key, at: 0)], [.put(key, token, lease: lease)])
        guard let held = try client.get(key), held.value == token else {
            try? client.revoke(lease: lease)
            return
        }
        // Left while taking it (the process is stopping): given up at once.
        let left = state.withLock { state in
            guard !state.left else { return true }
            state.epoch = held.createRevision
            state.lease = lease
            state.renewed = sent
            return false
        }
        guard !left else {
            try? client.revoke(lease: lease)
            return
        }
        log.info("\(instance) leads \(key) at epoch \(held.createRevision)")
    }
}
