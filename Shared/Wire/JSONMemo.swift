import Domain
import JSON

/// The JSON of the last few values a sender wrote, kept by value: a service sends the same body
/// again and again (the same popover shown and dismissed on every device of one kind), an owner
/// the same device state to its standby, and copying the bytes costs a fraction of writing them.
/// A value is reused when it is equal (`==`, the model's own equality) to one kept, so the bytes
/// are those of an equal value; a sender's own, used on its one thread.
public struct JSONMemo<Value: Equatable> {
    private var entries: [(value: Value, json: [UInt8])] = []
    /// The entry the next value replaces once all are taken.
    private var oldest = 0
    /// Values whose JSON is shorter are not kept: they cost less to write than to compare.
    private let smallest: Int

    /// How many values are kept.
    static var capacity: Int { 4 }

    /// Nothing kept yet; values whose JSON is shorter than `smallest` bytes will not be.
    public init(smallest: Int = 256) { self.smallest = smallest }

    /// The JSON kept of a value equal to `value`, if there is one.
    public func json(of value: Value) -> [UInt8]? {
        for index in entries.indices where entries[index].value == value { return entries[index].json }
        return nil
    }

    /// Keeps `json` as the JSON of `value`, when it is large enough to be worth keeping.
    public mutating func remember(_ value: Value, json: UnsafeBufferPointer<UInt8>) {
        guard json.count >= smallest else { return }
        let entry = (value: value, json: Array(json))
        if entries.count < Self.capacity {
            entries.append(entry)
        } else {
            entries[oldest] = entry
            oldest = (oldest + 1) % Self.capacity
        }
    }
}

/// The bodies a service wrote lately.
public typealias BodyMemo = JSONMemo<Body>
