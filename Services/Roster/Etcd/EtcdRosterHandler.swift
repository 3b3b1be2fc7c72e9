import Domain
import ProcessSupport
import RosterCore
import RosterStore
import Runtime
import Sharding
import Wire

/// Connects `RosterCore` to the bus with its data in etcd, for several roster instances of which
/// one writes (docs/scaling.md, The roster's one writer): only the instance holding the leader
/// key handles roster messages; it reads the roster from etcd when it takes the key, and stores
/// each change in one transaction fenced by its epoch before the runtime acknowledges it (etcd
/// commits on a majority of its members: stored on more than one host). A message applied before,
/// by this instance or an earlier writer, is acknowledged as a duplicate.
public struct EtcdRosterHandler: ServiceHandler {
    /// How long the ids of applied messages are kept against duplicates, in seconds (each on a
    /// lease that etcd expires: a retry comes within seconds, a redelivery within hours).
    static let appliedSeconds = 86_400
    /// How long one lease takes new applied ids before the next is granted, in seconds: an id
    /// is kept between `appliedSeconds` less this and `appliedSeconds`.
    static let appliedLeaseTurn = 3_600.0

    private let leadership: Leadership
    private let client: EtcdClient
    private let expiry: Double
    private let log: Log
    /// The roster as read at `loadedEpoch` and changed since; nil until read, or when a write's
    /// outcome is unknown (it is read again before the next decision).
    private var core: RosterCore?
    private var loadedEpoch: Int64?
    private var activity: DeviceActivity
    /// The lease the applied ids go on, and when it was granted (monotonic seconds).
    private var appliedLease: (id: Int64, granted: Double)?
    /// Counts this instance's writes: with its name and epoch, a write's token.
    private var writes: UInt64 = 0

    /// A handler that handles roster messages while `leadership` says this instance leads,
    /// its data in etcd through `client`, forgetting devices idle for `expiry` seconds.
    public init(leadership: Leadership, client: EtcdClient, expiry: Double, log: Log) {
        self.leadership = leadership; self.client = client; self.expiry = expiry; self.log = log
        activity = DeviceActivity(limit: expiry)
    }

    /// Joins the roster's instances (an error when etcd does not answer), reads the roster if
    /// this instance leads, and keeps the leadership from then on (the `roster` process's start
    /// with `ETCD_ENDPOINTS`).
    public static func start(config: ShardConfig, client: EtcdClient, expiry: Double, log: Log) throws -> EtcdRosterHandler {
        let leadership = try Leadership(service: MonsterBus.Service.roster, config: config, client: client, log: log)
        var handler = EtcdRosterHandler(leadership: leadership, client: client, expiry: expiry, log: log)
        if let epoch = leadership.epoch {
            _ = try handler.loaded(at: epoch)
        } else {
            let holder = try client.get(RosterKeys.leader).map { String(decoding: $0.value, as: UTF8.self) } ?? "nobody"
            log.info("standing by: \(holder) leads \(RosterKeys.leader); this instance takes over when its lease expires")
        }
        leadership.keep()
        return handler
    }

    /// Gives the lead up (a planned stop): the instance standing by takes it at its next
    /// refresh, not a TTL later.
    public func leave() { leadership.leave() }

    /// The core's actions, and `roster.backup.request` (refused: see `noBackup`).
    public let handledTypes: [MessageType] = RosterAction.types + [.backupRequest]

    /// Only while this instance leads: the others stand by.
    public func accepts(_ envelope: Envelope) -> Bool {
        accepts(envelope.type) && leadership.epoch != nil
    }

    /// Why `gateway roster backup` is refused here.
    static let noBackup = """
        the roster's data is in etcd (ETCD_ENDPOINTS), kept on a majority of its members: back it up with etcd's own snapshot \
        (etcdctl snapshot save FILE); gateway roster backup copies a roster's SQLite database
        """

    /// Decides a roster action while this instance leads, stored in etcd before it is published;
    /// refused, asking to send it again, while it does not.
    public mutating func handle(_ envelope: Envelope) -> Reply {
        guard let epoch = leadership.epoch else {
            return Reply([.error(.fenced, "this roster instance does not lead now; nothing was decided, send it again", offendingId: envelope.id)])
        }
        if case .backupRequest = envelope.body { return Reply([.error(.backupFailed, Self.noBackup)]) }
        guard let action = RosterAction(envelope.body) else {
            return Reply([.error(MessageError.Code.unknownType, "roster does not handle \(envelope.type.rawValue)")])
        }
        let core: RosterCore
        do {
            core = try loaded(at: epoch)
        } catch {
            log.error("cannot read the roster from etcd: \(error)")
            return Reply([.error(.storage, "the roster cannot be read from etcd: \(error); nothing was decided", offendingId: envelope.id)])
        }
        let now = Timestamp.wallClock()
        if let device = envelope.device, core.selections[device] != nil { activity.touch(device, at: now) }
        let decision = core.decide(device: envelope.device, action: action)
        guard let change = decision.change else { return Reply(decision.effects) }
        writes += 1
        let token = Array("\(leadership.instance) \(epoch) \(writes)".utf8)
        do {
            let write = try RosterWrites.storing(
                change, decidedBy: core, messageId: envelope.id, token: token, appliedLease: try leaseForApplied(), epoch: epoch, now: now)
            if try client.transaction(write.conditions, write.operations) == nil {
                let leader = try client.get(RosterKeys.leader)?.createRevision
                let applied = try client.get(RosterKeys.applied(envelope.id))?.value
                switch RosterWrites.refusal(leaderEpoch: leader, epoch: epoch, applied: applied, token: token) {
                case .storedEarlier:
                    break
                case .duplicate:
                    return Reply([], duplicate: true)
                case .fenced:
                    self.core = nil
                    leadership.stepDown("a write at epoch \(epoch) was refused: another instance leads")
                    return Reply([.error(
                        .fenced, "this roster instance's epoch \(epoch) is over (another instance leads): nothing was stored, send it again",
                        offendingId: envelope.id)])
                case .unexplained:
                    return Reply([.error(.storage, "etcd refused the change; nothing was stored, send it again", offendingId: envelope.id)])
                }
            }
        } catch {
            // Stored or not, nobody knows: the roster is read back before the next decision.
            self.core = nil
            appliedLease = nil
            log.error("could not store a change: \(error)")
            return Reply([.error(.storage, "the change could not be stored: \(error)", offendingId: envelope.id)])
        }
        var next = core
        next.apply(change)
        self.core = next
        switch change {
        case .selection(let device, _): activity.touch(device, at: now)
        case .forget(let device): activity.remove(device)
        case .monster: break
        }
        return Reply(decision.effects)
    }

    /// Forgets the selections of the idle devices, in etcd too, while this instance leads.
    public mutating func forgetIdleDevices(now: Double) -> [String] {
        guard let epoch = leadership.epoch, loadedEpoch == epoch, var core else { return [] }
        let idle = activity.expire(at: now).filter { core.selections[$0] != nil }
        guard !idle.isEmpty else { return [] }
        let write = RosterWrites.forgetting(idle, epoch: epoch)
        do {
            guard try client.transaction(write.conditions, write.operations) != nil else {
                self.core = nil
                log.warn("idle devices were not forgotten: epoch \(epoch) is over")
                return []
            }
        } catch {
            self.core = nil
            log.error("could not forget idle devices: \(error)")
            return []
        }
        for device in idle { core.apply(.forget(device: device)) }
        self.core = core
        return idle
    }

    /// The roster as this instance holds it at `epoch`, read from etcd first if it was read at
    /// another epoch or not at all; a roster is made (the catalogue, a new identity) when etcd
    /// holds none.
    mutating func loaded(at epoch: Int64) throws -> RosterCore {
        if let core, loadedEpoch == epoch { return core }
        core = nil
        var stored = try RosterWrites.load(roster: try client.get(RosterKeys.roster), selections: try client.list(prefix: RosterKeys.selections))
        if stored == nil {
            let identity = RosterDatabase.newIdentity()
            let create = try RosterWrites.creating(databaseId: identity, epoch: epoch)
            if try client.transaction(create.conditions, create.operations) != nil { log.info("a new roster in etcd: database \(identity)") }
            stored = try RosterWrites.load(roster: try client.get(RosterKeys.roster), selections: try client.list(prefix: RosterKeys.selections))
        }
        guard let (core, used) = stored else { throw RosterDataError("etcd holds no roster and epoch \(epoch) is over: another instance leads") }
        // Selections from before the time was recorded (0) count from now.
        let now = Timestamp.wallClock()
        activity = DeviceActivity(limit: expiry, lastUsed: used.mapValues { $0 > 0 ? $0 : now })
        self.core = core
        loadedEpoch = epoch
        log.info("roster read from etcd at epoch \(epoch): revision \(core.revision) of database \(core.databaseId), \(core.selections.count) selections")
        return core
    }

    /// The lease for new applied ids: the current one, or a new one once it has taken ids for
    /// `appliedLeaseTurn` seconds.
    private mutating func leaseForApplied() throws(EtcdError) -> Int64 {
        let now = Timestamp.monotonic()
        if let lease = appliedLease, now - lease.granted < Self.appliedLeaseTurn { return lease.id }
        let id = try client.grantLease(ttl: Self.appliedSeconds)
        appliedLease = (id, now)
        return id
    }
}
