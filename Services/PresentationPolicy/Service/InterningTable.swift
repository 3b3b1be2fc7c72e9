import PresentationCore
import Synchronization

/// A table of interned values of one kind, by value: equal values asked for get one `Interned`.
/// It holds at most `capacity` of them, so that a client inventing ever new values (profiles)
/// cannot grow it without bound: past that, a value gets an `Interned` of its own (the cost of a
/// copy per holder).
final class InterningTable<Value: Hashable & Sendable>: Sendable {
    private let table = Mutex<[Value: Interned<Value>]>([:])
    private let capacity: Int

    /// A table of at most `capacity` values.
    init(capacity: Int) { self.capacity = capacity }

    /// `value` interned: the one already in the table, or a new one (kept while there is room).
    func interned(_ value: Value) -> Interned<Value> {
        table.withLock { table in
            if let found = table[value] { return found }
            let made = Interned(value)
            if table.count < capacity { table[value] = made }
            return made
        }
    }
}
