import Dispatch
import Glibc
import ProcessSupport
import Wire

/// Where a sharded instance reads who the members are: etcd (`ShardMembership`), or a test's list.
public protocol MembershipSource: AnyObject, Sendable {
    /// This instance's name.
    var instance: String { get }
    /// The membership now.
    var view: ShardMembership.View { get }
    /// Joins the members, once the instance hears the bus.
    func start()
    /// Signalled when `view` changes (nil: the view is read when the loop passes anyway).
    var wakeup: Wakeup? { get }
    /// Leaves the members for good: the instance has stopped.
    func leave()
}

extension MembershipSource {
    /// Nothing signals a change.
    public var wakeup: Wakeup? { nil }

    /// Nothing to leave.
    public func leave() {}
}

/// One instance's membership among its service's instances, kept in etcd: a key
/// `/monsterbus/members/<service>/<instance>` on a lease refreshed every third of its TTL, and
/// the member list read every 24th of it. The key's create revision is the instance's
/// epoch: writes fenced by it are refused once the lease is lost. A background thread keeps it.
public final class ShardMembership: MembershipSource, @unchecked Sendable {
    /// What this instance knows of the membership at one moment.
    public struct View: Sendable, Equatable {
        /// The live instances, sorted.
        public var members: [String]
        /// Each live instance's epoch (its member key's create revision): a standby takes a
        /// device's updates only from the owner at the epoch it knows.
        public var epochs: [String: Int64]
        /// This instance's epoch, or nil while it is not a member (its lease lost).
        public var epoch: Int64?
        /// Counts changes of `members` or `epoch`.
        public var generation: UInt64

        /// `members` (sorted) at `epochs`, this instance at `epoch`, the `generation`th change.
        public init(members: [String], epochs: [String: Int64], epoch: Int64?, generation: UInt64) {
            self.members = members; self.epochs = epochs; self.epoch = epoch; self.generation = generation
        }
    }

    /// This instance's name.
    public let instance: String
    /// Where the service's members are listed.
    public let prefix: String
    /// This instance's key.
    public var memberKey: String { prefix + instance }
    private let client: EtcdClient
    private let ttl: Int
    private let log: Log
    private let current = Locked(View(members: [], epochs: [:], epoch: nil, generation: 0))
    /// True once `leave()` was called. Held by the keeping thread while it talks to etcd (it
    /// alone uses `lease` then), so that `leave()` revokes the lease with no renewal or join
    /// under way, and none after.
    private let left = Locked(false)
    /// Signalled at each change of the view: the service's loop follows it at once, even idle.
    public let wakeup: Wakeup? = Wakeup()
    private var lease: Int64 = 0
    /// When the lease was last renewed, in seconds of the monotonic clock.
    private var lastRenewed = 0.0
    /// When this instance last stopped being a member, or last saw its name's key held by an
    /// earlier incarnation, in seconds of the monotonic clock.
    private var leftAt = -Double.infinity
    /// Whether the wait for an earlier incarnation's key to go was logged.
    private var waitLogged = false

    /// Signalled by `start()`.
    private let started = DispatchSemaphore(value: 0)

    /// Reads the members of `service` (blocking until etcd answers: a start without etcd fails
    /// at once); joins them at `start()` and keeps the membership up to date from then on.
    public init(service: String, config: ShardConfig, client: EtcdClient, log: Log) throws {
        instance = config.instance
        prefix = "/monsterbus/members/\(service)/"
        self.client = client
        ttl = config.leaseSeconds
        self.log = log
        update(members: try client.list(prefix: prefix), epoch: nil)
        _ = OSThread { [self] in keep() }
    }

    /// Joins the members: called once this instance hears the bus. A member joining earlier
    /// would be handed devices by the others before it could hear them, and lose them.
    public func start() { started.signal() }

    /// The membership now.
    public var view: View { current.current }

    private func update(members listed: [EtcdKeyValue], epoch: Int64?) {
        var epochs: [String: Int64] = [:]
        for member in listed { epochs[String(member.key.dropFirst(prefix.count))] = member.createRevision }
        let members = epochs.keys.sorted()
        let changed = current.withLock { current in
            guard current.epochs != epochs || current.epoch != epoch else { return false }
            if current.epoch != nil, epoch == nil { leftAt = Timestamp.monotonic() }
            current = View(members: members, epochs: epochs, epoch: epoch, generation: current.generation + 1)
            return true
        }
        if changed {
            wakeup?.signal()
            log.info("shard members: \(members.joined(separator: ", ")); this instance \(instance) \(epoch.map { "at epoch \($0)" } ?? "is not a member")")
        }
    }

    /// Joins unless this name's key is listed, or was less than a TTL ago: an earlier
    /// incarnation's (killed and started again within its lease, as a pod is under the same
    /// name). Put on a new lease, that key would keep its epoch with none of its devices, and the
    /// others, seeing no change, would never hand them over. Joined a TTL after it was last seen,
    /// at least two thirds of one after it went: by then every member has seen it go and taken
    /// its devices over (their standbys held them), to hand them to this one.
    private func joinOnceNoEarlierKey(at now: Double) throws {
        if try client.get(memberKey) != nil {
            if !waitLogged { log.warn("\(memberKey) is still held by an earlier \(instance) (its lease live): joining a TTL after it has gone") }
            waitLogged = true
            leftAt = now
            return
        }
        guard now - leftAt >= Double(ttl) else { return }
        waitLogged = false
        try join()
    }

    private func join() throws {
        lease = try client.grantLease(ttl: ttl)
        try client.put(memberKey, Array(instance.utf8), lease: lease)
        guard let mine = try client.get(memberKey) else { throw EtcdError(description: "\(memberKey) vanished as it was written") }
        lastRenewed = Timestamp.monotonic()
        update(members: try client.list(prefix: prefix), epoch: mine.createRevision)
    }

    /// Refreshes the lease every third of the TTL and reads the member list every 24th of it
    /// (at least 0.1 s apart), until `leave()`; a lease lost (expired at etcd, or not renewed within its
    /// TTL here) makes this instance own nothing until it has joined again with a new epoch, at
    /// the first renewal a TTL after it left.
    private func keep() {
        started.wait()
        guard unlessLeft({
            do {
                try joinOnceNoEarlierKey(at: Timestamp.monotonic())
            } catch {
                // Tried again at the first renewal.
                log.warn("membership: \(error)")
            }
        }) else { return }
        let renewal = max(0.2, Double(ttl) / 3)
        // A lost instance's key goes only when its lease expires at etcd (later still when etcd's
        // leader was lost with it: a new leader renews every lease). Reading the list more often
        // than renewing takes its devices over within a 24th of the TTL of that, not a third (a
        // range of a few keys, 8 a second with a TTL of 3 s: little for etcd, and it bounds how
        // late a survivor sees the loss, a watch's stream not: it can stall on a cut link).
        let reading = max(0.1, Double(ttl) / 24)
        var nextRenewal = Timestamp.monotonic() + renewal
        var nextRead = Timestamp.monotonic() + reading
        while true {
            // Each from its last start, however long etcd took to answer: a slow answer must not
            // push the renewals apart.
            let wait = min(nextRenewal, nextRead) - Timestamp.monotonic()
            if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
            let now = Timestamp.monotonic()
            let renewing = now >= nextRenewal
            if renewing { nextRenewal = max(nextRenewal + renewal, now) }
            // A renewal reads the list too: the reads start again from it.
            nextRead = renewing ? now + reading : max(nextRead + reading, now)
            guard unlessLeft({ step(renewing: renewing, at: now) }) else { return }
        }
    }

    /// One pass of `keep()`: rejoins a TTL after leaving, renews the lease if `renewing`, reads the list.
    private func step(renewing: Bool, at now: Double) {
        do {
            if view.epoch == nil {
                // Out for a TTL first: by then every member has seen this incarnation leave, and
                // nothing said to it (a handover's end, repeated for a TTL) reaches the next.
                if renewing { try joinOnceNoEarlierKey(at: now) }
                return
            }
            if renewing {
                let remaining = try client.keepAlive(lease: lease)
                guard remaining > 0 else {
                    log.warn("membership lease \(lease) expired: this instance stops deciding and joins again")
                    update(members: [], epoch: nil)
                    return
                }
                lastRenewed = Timestamp.monotonic()
            }
            let members = try client.list(prefix: prefix)
            update(members: members, epoch: members.contains { $0.key == memberKey } ? view.epoch : nil)
        } catch {
            log.warn("membership: \(error)")
            if Timestamp.monotonic() - lastRenewed >= Double(ttl), view.epoch != nil {
                log.warn("membership lease not renewed for \(ttl) s: this instance stops deciding")
                update(members: [], epoch: nil)
            }
        }
    }

    /// Runs `body` (a talk with etcd) unless this instance has left; false once it has.
    private func unlessLeft(_ body: () -> Void) -> Bool {
        left.withLock { left in
            guard !left else { return false }
            body()
            return true
        }
    }

    /// Leaves the members at once (a planned stop, once the instance has sent its last
    /// messages): its lease revoked, its key goes, and the others take its devices over (their
    /// standbys hold them) at their next read of the list instead of a TTL later. The keeping thread
    /// stops; the instance is no member from then on.
    public func leave() {
        let lease: Int64? = left.withLock { left in
            defer { left = true }
            return left || view.epoch == nil ? nil : self.lease
        }
        guard let lease else { return }
        do {
            try client.revoke(lease: lease)
            log.info("left the members: lease \(lease) revoked")
        } catch {
            log.warn("leaving the members: \(error); its key goes when its lease expires")
        }
    }
}
