import Domain
import Synchronization

/// A value many devices hold alike (a profile, a presentation on screen, a layout), kept once in
/// the process: each device's session holds a reference to it instead of its own copy, so that an
/// idle device costs a few bytes however large the value (the bench's bytes per idle device),
/// and a reader reads it where it is held.
public final class Shared<Value: Equatable & Sendable>: Sendable, Equatable {
    /// The value itself, never changed (a device that changes it gets another `Shared`).
    public let value: Value

    init(_ value: Value) { self.value = value }

    /// Equal values, whether shared or not.
    public static func == (lhs: Shared, rhs: Shared) -> Bool { lhs === rhs || lhs.value == rhs.value }
}

/// The process's table of shared values of one kind, interned by value. It holds at most
/// `capacity` of them, so that a client inventing ever new profiles cannot grow it without
/// bound: past that, a value gets a `Shared` of its own (the cost of a copy, as before).
final class Interner<Value: Hashable & Sendable>: Sendable {
    private let table = Mutex<[Value: Shared<Value>]>([:])
    private let capacity: Int

    /// A table of at most `capacity` values.
    init(capacity: Int) { self.capacity = capacity }

    /// The shared `value`: the one already in the table, or a new one (kept while there is room).
    func shared(_ value: Value) -> Shared<Value> {
        table.withLock { table in
            if let found = table[value] { return found }
            let made = Shared(value)
            if table.count < capacity { table[value] = made }
            return made
        }
    }
}

/// Values that are pure functions of a device's screen — its profile (shared), orientation,
/// width class and mode — and of a `Detail`, computed once in the process: the layouts, the
/// popovers. Keyed by the shared profile's identity rather than by its value, so no profile is
/// hashed; each entry holds its profile, so that identity cannot be reused by another while the
/// entry lives. At most `capacity` are kept; past that a value is computed each time.
final class ScreenCache<Detail: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Key: Hashable {
        let profile: ObjectIdentifier
        let orientation: Orientation
        let widthClass: SizeClass
        let mode: WindowMode
        let detail: Detail

        /// The profile and the detail only: the enums hash their raw strings, and a profile has
        /// at most a few of each (`==` tells them apart).
        func hash(into hasher: inout Hasher) {
            hasher.combine(profile)
            hasher.combine(detail)
        }
    }

    /// A key with its value, held by reference: comparing the key where it is held copies
    /// neither (only the value returned).
    private final class Found: Sendable {
        let key: Key
        let value: Value

        init(key: Key, value: Value) { self.key = key; self.value = value }
    }

    /// The values kept, and the one found last (asked again and again by the same device, or
    /// devices of the same hardware: compared before the table is hashed).
    private struct State {
        var table: [Key: (profile: Shared<DeviceProfile>, value: Value)] = [:]
        var last: Found?
    }

    private let state = Mutex(State())
    private let capacity: Int

    /// A cache of at most `capacity` values.
    init(capacity: Int) { self.capacity = capacity }

    /// The value for the screen of `profile` in `orientation`, `widthClass` and `mode`, and `detail`:
    /// the one kept, or what `make` makes (then kept while there is room).
    func value(
        profile: Shared<DeviceProfile>, orientation: Orientation, widthClass: SizeClass, mode: WindowMode, detail: Detail,
        make: () -> Value
    ) -> Value {
        let key = Key(profile: ObjectIdentifier(profile), orientation: orientation, widthClass: widthClass, mode: mode, detail: detail)
        let found: Value? = state.withLock { state in
            if let last = state.last, last.key == key { return last.value }
            guard let found = state.table[key]?.value else { return nil }
            state.last = Found(key: key, value: found)
            return found
        }
        if let found { return found }
        let made = make()
        state.withLock { state in
            if state.table.count < capacity { state.table[key] = (profile, made) }
        }
        return made
    }
}
