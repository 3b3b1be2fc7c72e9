import Domain

/// A change the roster decided on, to be stored before anything is published about it.
public enum RosterChange: Sendable, Equatable {
    /// A monster's weapon or colour changed; the roster is now at `revision`.
    case monster(Monster, revision: UInt64)
    /// `device` now shows `monster`.
    case selection(device: String, monster: String)
    /// `device` is forgotten: its selection row is deleted.
    case forget(device: String)
}

/// What the roster decided about one message: what to publish, and what to store first.
public struct RosterDecision: Sendable, Equatable {
    /// The messages to publish (and pass on) once the change, if any, is stored.
    public var effects: [Effect]
    /// What to store in SQLite before publishing; `nil` when the message changes nothing.
    public var change: RosterChange?
    /// A decision publishing `effects` after storing `change`, if any.
    public init(_ effects: [Effect], change: RosterChange? = nil) {
        self.effects = effects; self.change = change
    }
}
