import Domain
import Runtime

/// What an instance keeps of a device it owns or stands by for, beside the service's state:
/// its last action ids, its history, and where its state last came from. A class: every action
/// looks its device's entry up once and changes it in place (a value would be taken out of its
/// dictionary and put back, two look-ups, in both instances that decide the action); so a copy
/// of the sharded handler shares its entries, and none is made.
final class HeldDevice {
    /// The ids of its last actions, oldest first.
    var recent: RecentIds
    /// Every decision of it folded in (`DeviceHistory`).
    var history: UInt64
    /// The update its state was last taken from (nil: it started here, or nothing came since).
    var takenOver: TakenOver?
    /// Its last decision here as its standby, for answering a retry of it as its heir.
    var stoodBy: StoodBy?

    /// A device with `recent` ids and `history`, its state from `takenOver`.
    init(recent: RecentIds = RecentIds(), history: UInt64 = 0, takenOver: TakenOver? = nil) {
        self.recent = recent; self.history = history; self.takenOver = takenOver
    }
}

/// Whose update a device's state was taken from, at which sequence, and what its last actions
/// sent onward, as that owner said.
final class TakenOver: Sendable {
    /// What one action sent onward (`Replica.onward`).
    struct Sent: Equatable {
        var action: String
        var messages: [Onward]
    }

    /// How many actions' onward messages are kept: a retry is of a device's last actions.
    static let onwardKept = 4

    /// The instance that sent it.
    let owner: String
    /// That instance's epoch.
    let epoch: Int64
    /// The update's sequence.
    let sequence: UInt64
    /// What its last actions sent onward: published again for a retry of one of them.
    let onward: [Sent]

    /// What came with `update`, and what `earlier` (from the same owner) kept of the actions before.
    init(_ update: Replica, after earlier: TakenOver?) {
        owner = update.owner; epoch = update.epoch; sequence = update.sequence
        let kept = earlier.map { $0.owner == update.owner ? $0.onward : [] } ?? []
        if let action = update.action, let messages = update.onward {
            onward = Array((kept + [Sent(action: action, messages: messages)]).suffix(Self.onwardKept))
        } else {
            onward = kept
        }
    }
}

/// A standby's decision of a device's action: the effects the owner publishes, with the ids
/// both derived. A class kept from one decision to the next (`hold`) while nothing else refers to it.
final class StoodBy {
    /// The action decided.
    private(set) var action: String
    /// Where its messages' ids come from.
    private(set) var ids: DerivedIds
    /// What it publishes.
    private(set) var effects: [Effect]

    /// The decision of `action`: `effects`, with ids from `ids`.
    init(action: String, ids: DerivedIds, effects: [Effect]) {
        self.action = action; self.ids = ids; self.effects = effects
    }

    /// Holds the decision of `action` in place of the one held.
    func hold(action: String, ids: DerivedIds, effects: [Effect]) {
        self.action = action; self.ids = ids; self.effects = effects
    }
}
