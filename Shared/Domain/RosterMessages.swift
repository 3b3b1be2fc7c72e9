/// `roster.snapshot.request`: asks roster for every monster (and the envelope's device's selection).
public struct SnapshotRequest: Sendable, Equatable {
    /// A request.
    public init() {}
}

extension SnapshotRequest: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: SnapshotRequest { SnapshotRequest() }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
    }
}

/// `roster.snapshot`: the whole roster at `revision` (the Clone pattern's snapshot).
public struct RosterSnapshot: Sendable, Equatable {
    /// The revision of the last change included; updates with a higher revision follow it.
    public var revision: UInt64
    /// Every monster, in roster order, as of `revision`.
    public var monsters: [Monster]
    /// The monster selected on the envelope's device, if it names one.
    public var selected: String?
    /// The roster database's identity (a UUID made with it): a new one means a new database,
    /// whose revisions have nothing to do with the previous one's.
    public var databaseId: String
    /// A snapshot from its parts.
    public init(revision: UInt64, monsters: [Monster], selected: String?, databaseId: String = "") {
        self.revision = revision; self.monsters = monsters; self.selected = selected; self.databaseId = databaseId
    }
}

extension RosterSnapshot: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: RosterSnapshot { RosterSnapshot(revision: 0, monsters: [], selected: nil) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("revision", &revision)
        try fields.field("monsters", &monsters)
        try fields.field("selected", &selected)
        try fields.field("databaseId", &databaseId)
    }
}

/// `roster.select.request`: presentation-policy passes a monster selection to roster.
public struct RosterSelect: Sendable, Equatable {
    /// The name of the monster picked (e.g. `Dog-Bot`); roster refuses names it does not know.
    public var monster: String
    /// A selection of `monster`.
    public init(monster: String) { self.monster = monster }
}

extension RosterSelect: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: RosterSelect { RosterSelect(monster: "") }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("monster", &monster)
    }
}

/// `roster.selection`: the detail pane now shows `monster`.
public struct RosterSelection: Sendable, Equatable {
    /// The selected monster in full: name, description, icon, weapon and name colour.
    public var monster: Monster
    /// The roster database's identity (see `RosterSnapshot.databaseId`).
    public var databaseId: String
    /// A selection showing `monster`.
    public init(monster: Monster, databaseId: String = "") { self.monster = monster; self.databaseId = databaseId }
}

extension RosterSelection: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: RosterSelection { RosterSelection(monster: .placeholder) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("monster", &monster)
        try fields.field("databaseId", &databaseId)
    }
}

/// `roster.monster.updated`: a monster's weapon or name colour changed, at `revision`.
public struct MonsterUpdated: Sendable, Equatable {
    /// The roster revision this change made (one more than the previous change's).
    public var revision: UInt64
    /// The monster in full, after the change.
    public var monster: Monster
    /// `weapon` or `color`.
    public var change: String
    /// The roster database's identity (see `RosterSnapshot.databaseId`).
    public var databaseId: String
    /// An update to `monster` at `revision`.
    public init(revision: UInt64, monster: Monster, change: String, databaseId: String = "") {
        self.revision = revision; self.monster = monster; self.change = change; self.databaseId = databaseId
    }
}

extension MonsterUpdated: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: MonsterUpdated { MonsterUpdated(revision: 0, monster: .placeholder, change: "") }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("revision", &revision)
        try fields.field("monster", &monster)
        try fields.field("change", &change)
        try fields.field("databaseId", &databaseId)
    }
}

/// `roster.backup.request`: asks roster to copy its database, while it runs, to `path`.
public struct BackupRequest: Sendable, Equatable {
    /// Where roster writes the copy: a new file in its backup folder (`ROSTER_BACKUP_DIR`), by name or absolute path.
    public var path: String
    /// A request for a copy at `path`.
    public init(path: String) { self.path = path }
}

extension BackupRequest: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: BackupRequest { BackupRequest(path: "") }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("path", &path)
    }
}

/// `roster.backup`: roster wrote a consistent copy of its database (SQLite's online backup).
public struct BackupDone: Sendable, Equatable {
    /// Where the copy is.
    public var path: String
    /// The revision the copy holds.
    public var revision: UInt64
    /// The database id the copy keeps (a restore keeps it too).
    public var databaseId: String
    /// A finished backup.
    public init(path: String, revision: UInt64, databaseId: String) {
        self.path = path; self.revision = revision; self.databaseId = databaseId
    }
}

extension BackupDone: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: BackupDone { BackupDone(path: "", revision: 0, databaseId: "") }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("path", &path)
        try fields.field("revision", &revision)
        try fields.field("databaseId", &databaseId)
    }
}
