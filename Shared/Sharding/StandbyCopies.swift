import Domain

/// The device states an instance holds for others: those it stands by for (each update from
/// the device's owner) and those handed to it by their previous owner. Pure: the view of the
/// members comes in as arguments.
struct StandbyCopies {
    /// One device's copy: the last update taken, and from whom.
    struct Copy: Equatable {
        var owner: String
        var epoch: Int64
        var sequence: UInt64
        /// The device's state and last action ids (`DeviceSnapshot`), as sent.
        var snapshot: NestedValue
        /// What its last few actions sent onward, by action id, oldest first.
        var onward: [Sent] = []
    }

    /// What one action sent onward (`Replica.onward`).
    struct Sent: Equatable {
        var action: String
        var messages: [Onward]
    }

    /// How many actions' onward messages a copy keeps: a retry is of a device's last actions.
    static let onwardKept = 4

    /// What `take` did with an update.
    enum Verdict: Equatable {
        /// Held from now on (or dropped, for a forgotten device).
        case taken
        /// Older than the copy held (an update sent again): the copy is at least as new.
        case stale
        /// From a member at another epoch than this instance knows, or from a member that no
        /// longer owns the device over the copy its owner sent: why, for the refusal.
        case refused(String)
    }

    private(set) var copies: [String: Copy] = [:]

    /// Takes `update` of `device` if its sender may send it, by the members' `epochs` and
    /// `table`: a member at the epoch this instance knows for it; and never over a copy from the
    /// device's owner (in this instance's view) unless it is that owner's, and newer. So the
    /// owner's updates, a handover to a new owner, and an update that comes before this
    /// instance has seen the members change are taken; a deposed owner's late one is not.
    mutating func take(_ update: Replica, of device: String, epochs: [String: Int64], table: ShardTable) -> Verdict {
        guard epochs[update.owner] == update.epoch else {
            return .refused("\(update.owner) at epoch \(update.epoch) is not a member at that epoch in this instance's view")
        }
        let owner = table.owner(ofBucket: ShardTable.bucket(of: device))
        if let held = copies[device] {
            if held.owner == update.owner, held.epoch == update.epoch {
                if held.sequence >= update.sequence { return .stale }
            } else if held.owner == owner, update.owner != owner {
                return .refused("\(update.owner) no longer owns \(device): \(held.owner) does")
            }
        }
        if let snapshot = update.snapshot {
            let onward = Self.onward(copies[device]?.onward ?? [], adding: update)
            copies[device] = Copy(owner: update.owner, epoch: update.epoch, sequence: update.sequence, snapshot: snapshot, onward: onward)
        } else {
            copies.removeValue(forKey: device)
        }
        return .taken
    }

    /// `kept` and what `update`'s action sent onward, the last `onwardKept` actions'.
    static func onward(_ kept: [Sent], adding update: Replica) -> [Sent] {
        guard let action = update.action, let messages = update.onward else { return kept }
        return Array((kept + [Sent(action: action, messages: messages)]).suffix(onwardKept))
    }

    /// Holds `copy` of `device` (one this instance handed over to its new owner and stands by for).
    mutating func hold(_ copy: Copy, of device: String) { copies[device] = copy }

    /// Gives up the copy of `device`, if held.
    mutating func remove(_ device: String) -> Copy? { copies.removeValue(forKey: device) }

    /// Drops the copies of the devices `keep` says no.
    mutating func keep(where keep: (String) -> Bool) {
        copies = copies.filter { keep($0.key) }
    }
}
