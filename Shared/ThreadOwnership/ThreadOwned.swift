/// A value that one thread owns, read and changed in place with no run-time exclusivity check.
///
/// Swift checks at run time that no two accesses to a class's stored `var` overlap: about 80
/// instructions an access, several times on every message's path where a socket's, a
/// connection's, a loop's or a writer's state is used. Such state is used by one thread at a
/// time — the one that owns its holder — and never during another access to it (nothing it calls
/// reaches back into it), so no two accesses can overlap and the check can only cost. That is
/// what makes this sound, and what a holder promises: one thread, no overlapping access.
///
/// The value lives in storage of its own, reached through a pointer, whose pointee is never
/// checked — also where another module inlines the access (`@exclusivity(unchecked)` on a stored
/// property is not: a module that inlines its accessor checks it again). Held as a `let` (it is
/// not copyable): the storage goes with its holder.
public struct ThreadOwned<Value>: ~Copyable {
    @usableFromInline let storage: UnsafeMutablePointer<Value>

    /// Holds `value`.
    @inlinable public init(_ value: Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// The value, read and changed where it is held.
    @inlinable public var value: Value {
        unsafeAddress { UnsafePointer(storage) }
        nonmutating unsafeMutableAddress { storage }
    }
}
