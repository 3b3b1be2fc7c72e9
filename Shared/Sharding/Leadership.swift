import Glibc
import ProcessSupport
import Wire

/// Which one of a service's instances is its one writer, kept in etcd: the key
/// `/monsterbus/leader/<service>` put on the writer's lease only if absent, refreshed every third
/// of the TTL. The key's create revision is the writer's epoch: writes fenced by it are refused
/// once another instance holds the key. The others wait and take the key once its lease expires.
public final class Leadership: Sendable {
    /// What this instance knows of its leadership at one moment.
    public struct View: Sendable, Equatable {
        /// This instance's epoch while it leads, else nil.
        public var epoch: Int64?
        /// Counts changes of `epoch`.
        public var generation: UInt64
    }

    /// What the keeping thread holds: the view, and the lease behind it.
    private struct State: Sendable {
        var view = View(epoch: nil, generation: 0)
        /// The lease the key is on, while leading.
        var lease: Int64 = 0
        /// When the lease was last renewed, in seconds of the monotonic clock.
        var lastRenewed = 0.0
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
    /// `refresh()` or `keep()` goes on from there.
    public init(service: String, config: ShardConfig, client: EtcdClient, log: Log) throws(EtcdError) {
        instance = config.instance
        key = "/monsterbus/leader/\(service)"
        self.client = client
        ttl = config.leaseSeconds
        self.log = log
        try acquire()
    }

    /// The leadership now.
    public var view: View { state.current.view }

    /// Refreshes the leadership every third of the TTL from a thread of its own, for ever.
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
    public func refresh() {
        do {
            guard view.epoch != nil else { return try acquire() }
            let lease = state.current.lease
            guard try client.keepAlive(lease: lease) > 0 else {
                return stepDown("its lease \(lease) expired")
            }
            state.withLock { $0.lastRenewed = Timestamp.monotonic() }
        } catch {
            log.warn("leadership: \(error)")
            let current = state.current
            if current.view.epoch != nil, Timestamp.monotonic() - current.lastRenewed >= Double(ttl) {
                stepDown("its lease was not renewed for \(ttl) s")
            }
        }
    }

    /// Stops leading (a write fenced off says another instance leads): the lease is revoked,
    /// which deletes the key if it is still this instance's, and the next refresh tries again.
    public func stepDown(_ reason: String) {
        let lease: Int64? = state.withLock { state in
            guard state.view.epoch != nil else { return nil }
            state.view = View(epoch: nil, generation: state.view.generation + 1)
            return state.lease
        }
        guard let lease else { return }
        log.warn("\(instance) no longer leads \(key): \(reason)")
        try? client.revoke(lease: lease)
    }

    /// Takes the key if nobody holds it. A lost answer retried is refused (the key exists by
    /// then): the key read back, holding this attempt's token, tells that it was this instance's.
    private func acquire() throws(EtcdError) {
        guard try client.get(key) == nil else { return }
        let lease = try client.grantLease(ttl: ttl)
        let token = Array("\(instance) \(lease)".utf8)
        _ = try client.transaction([.created(key, at: 0)], [.put(key, token, lease: lease)])
        guard let held = try client.get(key), held.value == token else {
            try? client.revoke(lease: lease)
            return
        }
        state.withLock { state in
            state.view = View(epoch: held.createRevision, generation: state.view.generation + 1)
            state.lease = lease
            state.lastRenewed = Timestamp.monotonic()
        }
        log.info("\(instance) leads \(key) at epoch \(held.createRevision)")
    }
}
