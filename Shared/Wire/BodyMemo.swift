import Domain
import JSON

/// The JSON of the last few large bodies a sender wrote, kept by value: a service sends the same
/// body again and again (the same popover shown and dismissed on every device of one kind), and
/// copying its bytes costs a fraction of writing them. A body is reused when it is equal (`==`,
/// the model's own equality) to one kept, so the bytes are those of an equal body; a sender's
/// own, used on its one thread.
public struct BodyMemo {
    private var entries: [(body: Body, json: [UInt8])] = []
    /// The entry the next body replaces once all are taken.
    private var oldest = 0

    /// How many bodies are kept.
    static let capacity = 4
    /// Bodies whose JSON is shorter are not kept: they cost less to write than to compare.
    static let smallest = 256

    /// Nothing kept yet.
    public init() {}

    /// The JSON kept of a body equal to `body`, if there is one.
    func json(of body: Body) -> [UInt8]? {
        for index in entries.indices where entries[index].body == body { return entries[index].json }
        return nil
    }

    /// Keeps `json` as the JSON of `body`, when it is large enough to be worth keeping.
    mutating func remember(_ body: Body, json: UnsafeBufferPointer<UInt8>) {
        guard json.count >= Self.smallest else { return }
        let entry = (body: body, json: Array(json))
        if entries.count < Self.capacity {
            entries.append(entry)
        } else {
            entries[oldest] = entry
            oldest = (oldest + 1) % Self.capacity
        }
    }
}
