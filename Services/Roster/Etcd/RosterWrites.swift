import Domain
import JSON
import RosterCore
import Sharding
import Wire

/// One etcd transaction: its conditions and its writes.
public struct RosterTransaction: Sendable, Equatable {
    /// What must hold for the writes to be done.
    public var conditions: [EtcdCondition]
    /// The writes, done at once or not at all.
    public var operations: [EtcdOperation]
}

/// What a refused transaction storing a change means, read from the leader key and the
/// message's applied key after the refusal.
public enum RefusedWrite: Sendable, Equatable {
    /// The applied key holds this very write's token: an attempt whose answer was lost stored it.
    case storedEarlier
    /// Another instance leads now (or none): this one's epoch is over, nothing was stored.
    case fenced
    /// The message was applied before (its applied key holds another write's token).
    case duplicate
    /// Neither: the leader key and the applied key allow the write; it may be sent again.
    case unexplained
}

/// The roster writer's transactions in etcd and the meaning of a refusal, apart from etcd:
/// every write is fenced by the writer's epoch (the leader key's create revision), and a write
/// that stores a message's change also creates the message's applied key, so that the same
/// message is never applied twice, not even by a retried transaction.
public enum RosterWrites {
    /// The condition fencing every write: the leader key is still the one created at `epoch`.
    static func fence(_ epoch: Int64) -> EtcdCondition { .created(RosterKeys.leader, at: epoch) }

    /// The transaction storing `change`, decided by `core` about message `id` at `now` (seconds
    /// since 1970): the change's key, and the message's applied key holding `token` on the lease
    /// `appliedLease`; only while the writer's epoch is `epoch` and if `id` was not applied before.
    public static func storing(
        _ change: RosterChange, decidedBy core: RosterCore, messageId id: String, token: [UInt8], appliedLease: Int64,
        epoch: Int64, now: Double
    ) throws(JSONError) -> RosterTransaction {
        let write: EtcdOperation
        switch change {
        case .monster:
            var next = core
            next.apply(change)
            write = .put(RosterKeys.roster, try JSONCoding.encode(next.snapshot(for: nil)), lease: nil)
        case .selection(let device, let monster):
            write = .put(RosterKeys.selection(device), try JSONCoding.encode(StoredSelection(monster: monster, used: now)), lease: nil)
        case .forget(let device):
            write = .delete(RosterKeys.selection(device))
        }
        return RosterTransaction(
            conditions: [fence(epoch), .created(RosterKeys.applied(id), at: 0)],
            operations: [write, .put(RosterKeys.applied(id), token, lease: appliedLease)])
    }

    /// The transaction that makes a new roster (the catalogue, revision 0, identity
    /// `databaseId`) where there is none, while the writer's epoch is `epoch`.
    public static func creating(databaseId: String, epoch: Int64) throws(JSONError) -> RosterTransaction {
        RosterTransaction(
            conditions: [fence(epoch), .created(RosterKeys.roster, at: 0)],
            operations: [.put(RosterKeys.roster, try JSONCoding.encode(RosterCore(databaseId: databaseId).snapshot(for: nil)), lease: nil)])
    }

    /// The transaction deleting the selections of idle `devices` while the epoch is `epoch`.
    public static func forgetting(_ devices: [String], epoch: Int64) -> RosterTransaction {
        RosterTransaction(conditions: [fence(epoch)], operations: devices.map { .delete(RosterKeys.selection($0)) })
    }

    /// What a refused `storing` transaction with `token` at `epoch` means, given the leader
    /// key's create revision now (nil: no key) and the message's applied key's value (nil: none).
    public static func refusal(leaderEpoch: Int64?, epoch: Int64, applied: [UInt8]?, token: [UInt8]) -> RefusedWrite {
        if applied == token { return .storedEarlier }
        if leaderEpoch != epoch { return .fenced }
        if applied != nil { return .duplicate }
        return .unexplained
    }

    /// The roster stored under `RosterKeys` (`roster`: its key; `selections`: the keys under
    /// `RosterKeys.selections`), with when each device last made its selection; nil when no
    /// roster is stored yet. A value this version cannot read is an error naming its key.
    public static func load(roster: EtcdKeyValue?, selections: [EtcdKeyValue]) throws(RosterDataError) -> (core: RosterCore, lastUsed: [String: Double])? {
        guard let roster else { return nil }
        let snapshot: RosterSnapshot
        do {
            snapshot = try JSONCoding.decode(RosterSnapshot.self, from: roster.value)
        } catch {
            throw RosterDataError("\(roster.key) is not a roster this version can read: \(error)")
        }
        guard snapshot.monsters.map(\.name) == Catalogue.monsters.map(\.name), !snapshot.databaseId.isEmpty else {
            throw RosterDataError("\(roster.key) holds monsters \(snapshot.monsters.map(\.name)) of database '\(snapshot.databaseId)', not the catalogue's with an identity")
        }
        var chosen: [String: String] = [:]
        var lastUsed: [String: Double] = [:]
        for entry in selections {
            let device = String(entry.key.dropFirst(RosterKeys.selections.count))
            let selection: StoredSelection
            do {
                selection = try JSONCoding.decode(StoredSelection.self, from: entry.value)
            } catch {
                throw RosterDataError("\(entry.key) is not a selection this version can read: \(error)")
            }
            guard entry.key.hasPrefix(RosterKeys.selections), Catalogue.monster(named: selection.monster) != nil else {
                throw RosterDataError("\(entry.key) selects '\(selection.monster)', which is no monster of the roster")
            }
            chosen[device] = selection.monster
            lastUsed[device] = selection.used
        }
        // Descriptions and icons are the catalogue's; weapons and colours are what was stored.
        let monsters = snapshot.monsters.compactMap { stored in
            Catalogue.monster(named: stored.name).map { $0.with(weapon: stored.weapon).with(color: stored.color) }
        }
        let core = RosterCore(monsters: monsters, revision: snapshot.revision, selections: chosen, databaseId: snapshot.databaseId)
        return (core, lastUsed)
    }
}

/// The roster's data in etcd cannot be read: what and where.
public struct RosterDataError: Error, CustomStringConvertible, Sendable {
    /// For a person: the key and what is wrong with it.
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
