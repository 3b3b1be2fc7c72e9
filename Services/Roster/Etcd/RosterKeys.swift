import Domain

/// Where the roster keeps its data in etcd (docs/scaling.md, The roster's one writer): one key
/// holding the monsters, the revision and the database's identity (a `roster.snapshot` body
/// without a selection: about 1 KiB), one key per device's selection, and one key per applied
/// message id, on a lease, against duplicates.
public enum RosterKeys {
    /// Every key of the roster's data starts with it.
    public static let prefix = "/monsterbus/roster/"
    /// The key whose create revision is the writer's epoch (`Leadership` of `roster`).
    public static let leader = "/monsterbus/leader/roster"
    /// The monsters, the revision and the database's identity.
    public static let roster = prefix + "roster"
    /// The selections' keys start with it.
    public static let selections = prefix + "selections/"
    /// The applied ids' keys start with it.
    public static let applied = prefix + "applied/"

    /// The key of `device`'s selection.
    public static func selection(_ device: String) -> String { selections + device }

    /// The key recording that message `id` was applied.
    public static func applied(_ id: String) -> String { applied + id }
}

/// A device's selection as stored: the monster's name and when it was made (seconds since 1970).
public struct StoredSelection: Sendable, Equatable, FieldSet {
    /// The selected monster's name.
    public var monster: String
    /// When the selection was made, for forgetting idle devices.
    public var used: Double

    /// A selection of `monster` made at `used`.
    public init(monster: String, used: Double) { self.monster = monster; self.used = used }

    /// Every field blank: what reading starts from.
    public static var placeholder: StoredSelection { StoredSelection(monster: "", used: 0) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("monster", &monster)
        try fields.field("used", &used)
    }
}
