/// A copy of the roster kept up to date from the bus, following the Clone pattern of the ZeroMQ
/// guide: subscribe to `roster.monster.updated` first, then ask for a `roster.snapshot`; updates
/// that arrive before the snapshot are held and applied after it if newer; afterwards each
/// update must be the next revision — a gap means updates were lost, and a new snapshot is
/// needed. Revisions count within one roster database (`databaseId`): an update or snapshot
/// from another database (the roster was reset, or started on another file), or an update
/// reusing a revision the replica already applied with other content (the roster was rewound),
/// makes the replica re-synchronise from a snapshot, and it records why
/// (`lastResynchronisation`) so its owner can say so. Pure: the caller sends the snapshot
/// requests it asks for.
public struct RosterReplica: Sendable {
    /// What the caller should do after feeding the replica.
    public enum Need: Sendable, Equatable {
        /// Nothing: the replica is up to date as far as it knows.
        case nothing
        /// Ask roster for a snapshot (`roster.snapshot.request`).
        case snapshot
    }

    /// Why the replica dropped what it held and re-synchronised.
    public enum Resynchronisation: Sendable, Equatable, CustomStringConvertible {
        /// Roster now speaks for another database: its revisions start again.
        case newDatabase(from: String, to: String)
        /// Roster published a revision the replica already held, with other content.
        case revisionReused(UInt64)

        /// For a person: e.g. `roster database changed from 1f…, to 9a…: re-synchronising`.
        public var description: String {
            switch self {
            case .newDatabase(let old, let new):
                "roster database changed from \(old) to \(new) (reset or replaced): re-synchronising from a snapshot"
            case .revisionReused(let revision):
                "roster revision \(revision) came again with other content (the roster was rewound): re-synchronising from a snapshot"
            }
        }
    }

    /// How many applied updates are remembered to tell a reused revision.
    public static let historyKept = 256

    /// The monsters, once a snapshot has arrived.
    public private(set) var monsters: [Monster]?
    /// The revision the replica is at.
    public private(set) var revision: UInt64 = 0
    /// The roster database the replica follows (from its last snapshot).
    public private(set) var databaseId: String?
    /// How many gaps were detected (and so snapshots asked for) since the start.
    public private(set) var gapsDetected = 0
    /// How many times the replica re-synchronised because of a new database or a reused revision.
    public private(set) var resynchronisations = 0
    /// The latest of those, with its reason.
    public private(set) var lastResynchronisation: Resynchronisation?
    private var held: [MonsterUpdated] = []
    private var awaitingSnapshot = true
    private var history: [UInt64: MonsterUpdated] = [:]

    /// A replica that has nothing yet: ask for a snapshot.
    public init() {}

    /// Whether the replica has a snapshot and no known gap.
    public var isCurrent: Bool { monsters != nil && !awaitingSnapshot }

    /// Takes a snapshot and the held updates newer than it; returns `.snapshot` if those
    /// updates still have a gap.
    public mutating func receive(_ snapshot: RosterSnapshot) -> Need {
        if monsters != nil, !awaitingSnapshot, let databaseId {
            if snapshot.databaseId != databaseId {
                resynchronise(.newDatabase(from: databaseId, to: snapshot.databaseId))
            } else if snapshot.revision < revision {
                // An old snapshot (an answer to an earlier request): keep what is newer.
                return .nothing
            }
        }
        monsters = snapshot.monsters
        revision = snapshot.revision
        databaseId = snapshot.databaseId
        awaitingSnapshot = false
        history = [:]
        let pending = held.sorted { $0.revision < $1.revision }
        held = []
        for update in pending where update.databaseId == snapshot.databaseId && update.revision > revision {
            if receive(update) == .snapshot { return .snapshot }
        }
        return .nothing
    }

    /// Takes an update; returns `.snapshot` when a gap, a new database or a reused revision
    /// shows that the replica no longer matches roster.
    public mutating func receive(_ update: MonsterUpdated) -> Need {
        if awaitingSnapshot {
            held.append(update)
            return .nothing
        }
        if let databaseId, update.databaseId != databaseId {
            resynchronise(.newDatabase(from: databaseId, to: update.databaseId))
            held = [update]
            return .snapshot
        }
        if update.revision <= revision {
            if let seen = history[update.revision], seen.monster != update.monster || seen.change != update.change {
                resynchronise(.revisionReused(update.revision))
                return .snapshot
            }
            return .nothing
        }
        guard update.revision == revision + 1 else {
            gapsDetected += 1
            awaitingSnapshot = true
            held = [update]
            return .snapshot
        }
        if let index = monsters?.firstIndex(where: { $0.name == update.monster.name }) {
            monsters?[index] = update.monster
        }
        revision = update.revision
        history[update.revision] = update
        if update.revision > UInt64(Self.historyKept) { history[update.revision - UInt64(Self.historyKept)] = nil }
        return .nothing
    }

    private mutating func resynchronise(_ reason: Resynchronisation) {
        resynchronisations += 1
        lastResynchronisation = reason
        awaitingSnapshot = true
        // The history is read only while current; the snapshot that ends this clears it.
        held = []
    }
}
