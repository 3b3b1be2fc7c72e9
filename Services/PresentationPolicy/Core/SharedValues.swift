import MonsterKit
import Synchronization

/// A value many devices hold alike (a profile, a presentation on screen), kept once in the
/// process: each device's session holds a reference to it instead of its own copy, so that an
/// idle device costs a few bytes however large the value (issue 15: compact per-device state).
public final class Shared<Value: Hashable & Sendable>: Sendable, Equatable {
    /// The value itself, never changed (a device that changes it gets another `Shared`).
    public let value: Value

    init(_ value: Value) { self.value = value }

    /// Equal values, whether shared or not.
    public static func == (lhs: Shared, rhs: Shared) -> Bool { lhs === rhs || lhs.value == rhs.value }
}

extension Shared: Encodable where Value: Encodable {
    /// Encodes the value itself: a shared value has the JSON form of its value.
    public func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
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

/// The layouts computed so far, by profile, orientation, width class and mode (a layout is a
/// pure function of them). At most `capacity` are kept; past that a layout is computed each time.
final class LayoutCache: Sendable {
    private struct Key: Hashable {
        let profile: DeviceProfile
        let orientation: Orientation
        let widthClass: SizeClass
        let mode: WindowMode
    }

    private let table = Mutex<[Key: ScreenLayout]>([:])
    private let capacity: Int

    /// A cache of at most `capacity` layouts.
    init(capacity: Int) { self.capacity = capacity }

    /// The layout of `profile` in `orientation`, `widthClass` and `mode`.
    func layout(profile: DeviceProfile, orientation: Orientation, widthClass: SizeClass, mode: WindowMode) -> ScreenLayout {
        let key = Key(profile: profile, orientation: orientation, widthClass: widthClass, mode: mode)
        if let found = table.withLock({ $0[key] }) { return found }
        let made = ScreenLayout(profile: profile, orientation: orientation, widthClass: widthClass, mode: mode)
        table.withLock { table in
            if table.count < capacity { table[key] = made }
        }
        return made
    }
}
