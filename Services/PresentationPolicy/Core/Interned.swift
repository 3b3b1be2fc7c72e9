import Domain

/// A value many devices hold alike (a profile, a presentation on screen, a layout), held by
/// reference: each device's session holds the reference instead of a copy of its own, so that an
/// idle device costs a few bytes however large the value (the bench's bytes per idle device), and
/// a reader reads it where it is held. It is a plain value: never changed (a device that changes
/// it gets another). The table that interns it is the core's owner's (`PresentationMemo`); one
/// made elsewhere (read from a snapshot, set by a test) is its holder's alone.
public final class Interned<Value: Equatable & Sendable>: Sendable, Equatable {
    /// The value itself.
    public let value: Value

    /// `value`, held by reference.
    public init(_ value: Value) { self.value = value }

    /// Equal values, whether interned together or not.
    public static func == (lhs: Interned, rhs: Interned) -> Bool { lhs === rhs || lhs.value == rhs.value }
}
