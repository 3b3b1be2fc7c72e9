/// `roster.snapshot.request`: asks roster for every monster (and the envelope's device's selection).
public struct SnapshotRequest: Codable, Sendable, Equatable {
    /// A request.
    public init() {}
}

/// `roster.snapshot`: the whole roster at `revision` (the Clone pattern's snapshot).
public struct RosterSnapshot: Codable, Sendable, Equatable {
    /// The revision of the last change included; updates with a higher revision follow it.
    public var revision: UInt64
    /// Every monster, in roster order, as of `revision`.
    public var monsters: [Monster]
    /// The monster selected on the envelope's device, if it names one.
    public var selected: String?
    /// A snapshot from its parts.
    public init(revision: UInt64, monsters: [Monster], selected: String?) {
        self.revision = revision; self.monsters = monsters; self.selected = selected
    }
}

/// `roster.select.request`: presentation-policy passes a monster selection to roster.
public struct RosterSelect: Codable, Sendable, Equatable {
    /// The name of the monster picked (e.g. `Dog-Bot`); roster refuses names it does not know.
    public var monster: String
    /// A selection of `monster`.
    public init(monster: String) { self.monster = monster }
}

/// `roster.selection`: the detail pane now shows `monster`.
public struct RosterSelection: Codable, Sendable, Equatable {
    /// The selected monster in full: name, description, icon, weapon and name colour.
    public var monster: Monster
    /// A selection showing `monster`.
    public init(monster: Monster) { self.monster = monster }
}

/// `roster.monster.updated`: a monster's weapon or name colour changed, at `revision`.
public struct MonsterUpdated: Codable, Sendable, Equatable {
    /// The roster revision this change made (one more than the previous change's).
    public var revision: UInt64
    /// The monster in full, after the change.
    public var monster: Monster
    /// `weapon` or `color`.
    public var change: String
    /// An update to `monster` at `revision`.
    public init(revision: UInt64, monster: Monster, change: String) {
        self.revision = revision; self.monster = monster; self.change = change
    }
}
