import Domain
import ProcessSupport
import RosterCore
import RosterStore
import Runtime
import Wire

/// Connects `RosterCore` to the bus and to its database: a change is stored (and the marker of
/// the acknowledged position updated) before it is published or acknowledged, and a message
/// already applied is acknowledged as a duplicate.
public struct RosterHandler: ServiceHandler {
    var core: RosterCore
    let database: RosterDatabase
    let marker: AcknowledgedMarker
    /// Where `roster.backup.request` may write.
    let backups: BackupFolder
    /// The changes committed to the database so far (its count, as `store` returns it).
    var commits: UInt64
    /// Where the roster stands, as the marker records it after every change: the rest is the core's.
    var position: StoredPosition { StoredPosition(databaseId: core.databaseId, revision: core.revision, commits: commits) }
    var activity: DeviceActivity
    let log: Log

    /// A handler for `core` as loaded from `database` with `commits` committed, recording
    /// acknowledged positions with `marker`, forgetting devices as `activity` says, writing
    /// backups only in `backups`.
    public init(
        core: RosterCore, database: RosterDatabase, marker: AcknowledgedMarker, commits: UInt64,
        activity: DeviceActivity, backups: BackupFolder, log: Log
    ) {
        self.core = core; self.database = database; self.marker = marker; self.commits = commits
        self.activity = activity; self.backups = backups; self.log = log
    }

    /// The core's actions, and `roster.backup.request`.
    public let handledTypes: [MessageType] = RosterAction.types + [.backupRequest]

    /// Opens the database at `path` as `mode` says, loads it and makes the handler (the roster's
    /// start, shared by the `roster` process and `gateway --embedded`); backups go in `backups`
    /// (default: `backups` beside the database).
    public static func open(path: String, mode: StartMode, expiry: Double, backups: BackupFolder? = nil, log: Log) throws -> RosterHandler {
        let (database, position, notes) = try RosterStartup.open(path: path, mode: mode, now: Int(Timestamp.wallClock()))
        for note in notes { log.warn(note) }
        let (core, stored) = try database.load()
        log.info("database \(path) at \(position)")
        let backups = backups ?? BackupFolder(besideDatabase: path)
        do { try backups.make() } catch { log.warn("\(error); backups will be refused") }
        // Rows from before the time was recorded (0) count from now.
        let now = Timestamp.wallClock()
        let lastUsed = stored.mapValues { $0 > 0 ? $0 : now }
        return RosterHandler(
            core: core, database: database, marker: AcknowledgedMarker(databasePath: path), commits: position.commits,
            activity: DeviceActivity(limit: expiry, lastUsed: lastUsed), backups: backups, log: log)
    }

    /// Answers a backup request, or decides a roster action and stores it before it is published.
    public mutating func handle(_ envelope: Envelope) -> Reply {
        if case .backupRequest(let request) = envelope.body { return Reply([backup(to: request.path)]) }
        if let device = envelope.device, core.selections[device] != nil { activity.touch(device, at: Timestamp.wallClock()) }
        guard let action = RosterAction(envelope.body) else {
            return Reply([.error(MessageError.Code.unknownType, "roster does not handle \(envelope.type.rawValue)")])
        }
        let decision = core.decide(device: envelope.device, action: action)
        guard let change = decision.change else { return Reply(decision.effects) }
        do {
            if try database.hasApplied(envelope.id) { return Reply([], duplicate: true) }
            commits = try database.store(change, messageId: envelope.id, now: Timestamp.wallClock())
        } catch {
            log.error("could not store a change: \(error)")
            return Reply([.error(.storage, "the change could not be stored: \(error)")])
        }
        core.apply(change)
        do {
            try marker.write(position)
        } catch {
            // The change is committed; only the evidence of what was acknowledged lags.
            log.error("\(error)")
        }
        switch change {
        case .selection(let device, _): activity.touch(device, at: Timestamp.wallClock())
        case .forget(let device): activity.remove(device)
        case .monster: break
        }
        return Reply(decision.effects)
    }

    /// Writes a consistent copy of the database to `requested` (a new file in the backup folder).
    private func backup(to requested: String) -> Effect {
        let path: String
        switch backups.file(for: requested) {
        case .success(let file): path = file
        case .failure(let refusal): return .error(.backupPath, refusal.description)
        }
        do {
            try database.backup(to: path)
        } catch {
            return .error(.backupFailed, "cannot write a backup to \(path): \(error.message)")
        }
        log.info("backup written to \(path) at \(position)")
        return .publish(.backup(BackupDone(path: path, revision: core.revision, databaseId: core.databaseId)))
    }

    /// Forgets the selections of the idle devices, in the database too.
    public mutating func forgetIdleDevices(now: Double) -> [String] {
        let idle = activity.expire(at: now).filter { core.selections[$0] != nil }
        guard !idle.isEmpty else { return [] }
        do {
            try database.forget(idle)
        } catch {
            log.error("could not forget idle devices: \(error)")
            return []
        }
        for device in idle { core.apply(.forget(device: device)) }
        return idle
    }
}
