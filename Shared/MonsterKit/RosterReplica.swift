/// A copy of the roster kept up to date from the bus, following the Clone pattern of the ZeroMQ
/// guide: subscribe to `roster.monster.updated` first, then ask for a `roster.snapshot`; updates
/// that arrive before the snapshot are held and applied after it if newer; afterwards each
/// update must be the next revision — a gap means updates were lost, and a new snapshot is
/// needed. Pure: the caller sends the snapshot requests it asks for.
public struct RosterReplica: Sendable {
    /// What the caller should do after feeding the replica.
    public enum Need: Sendable, Equatable {
        /// Nothing: the replica is up to date as far as it knows.
        case nothing
        /// Ask roster for a snapshot (`roster.snapshot.request`).
        case snapshot
    }

    /// The monsters, once a snapshot has arrived.
    public private(set) var monsters: [Monster]?
    /// The revision the replica is at.
    public private(set) var revision: UInt64 = 0
    /// How many gaps were detected (and so snapshots asked for) since the start.
    public private(set) var gapsDetected = 0
    private var held: [MonsterUpdated] = []
    private var awaitingSnapshot = true

    /// A replica that has nothing yet: ask for a snapshot.
    public init() {}

    /// Whether the replica has a snapshot and no known gap.
    public var isCurrent: Bool { monsters != nil && !awaitingSnapshot }

    /// Takes a snapshot and the held updates newer than it; returns `.snapshot` if those
    /// updates still have a gap.
    public mutating func receive(_ snapshot: RosterSnapshot) -> Need {
        if monsters != nil, !awaitingSnapshot, snapshot.revision < revision {
            // An old snapshot (an answer to an earlier request): keep what is newer.
            return .nothing
        }
        monsters = snapshot.monsters
        revision = snapshot.revision
        awaitingSnapshot = false
        let pending = held.sorted { $0.revision < $1.revision }
        held = []
        for update in pending where update.revision > revision {
            if receive(update) == .snapshot { return .snapshot }
        }
        return .nothing
    }

    /// Takes an update; returns `.snapshot` when a gap shows that updates were missed.
    public mutating func receive(_ update: MonsterUpdated) -> Need {
        if awaitingSnapshot {
            held.append(update)
            return .nothing
        }
        if update.revision <= revision { return .nothing }
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
        return .nothing
    }
}
