import Domain
import PresentationCore
import Synchronization

/// Values that are pure functions of a device's screen (`LayoutKey`: its interned profile,
/// orientation, width class and mode) and of a `Detail`, computed once: the layouts, the popovers.
/// Keyed by the interned profile's identity rather than by its value, so no profile is hashed;
/// each entry holds its profile, so that identity cannot be reused by another while the entry
/// lives. At most `capacity` are kept; past that a value is computed each time.
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
        var table: [Key: (profile: Interned<DeviceProfile>, value: Value)] = [:]
        var last: Found?
    }

    private let state = Mutex(State())
    private let capacity: Int

    /// A cache of at most `capacity` values.
    init(capacity: Int) { self.capacity = capacity }

    /// The value for the screen `screen` and `detail`: the one kept, or what `make` makes (then
    /// kept while there is room). `make` runs outside the cache's lock.
    func value(of screen: LayoutKey, detail: Detail, make: () -> Value) -> Value {
        let key = Key(
            profile: ObjectIdentifier(screen.profile), orientation: screen.orientation, widthClass: screen.widthClass,
            mode: screen.mode, detail: detail)
        let found: Value? = state.withLock { state in
            if let last = state.last, last.key == key { return last.value }
            guard let found = state.table[key]?.value else { return nil }
            state.last = Found(key: key, value: found)
            return found
        }
        if let found { return found }
        let made = make()
        state.withLock { state in
            if state.table.count < capacity { state.table[key] = (screen.profile, made) }
        }
        return made
    }
}
