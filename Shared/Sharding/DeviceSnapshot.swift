import Domain
import JSON
import Wire

/// What a standby holds of one device: its whole state and the ids of its last actions, so that
/// the instance that takes it over answers a retried action as a duplicate.
struct DeviceSnapshot<State: FieldSet>: FieldSet {
    /// The device's whole state.
    var state: State
    /// The ids of its last actions handled, oldest first (`RecentIds`).
    var recent: [String]

    static var placeholder: DeviceSnapshot { DeviceSnapshot(state: .placeholder, recent: []) }

    mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("state", &state)
        try fields.field("recent", &recent)
    }
}

/// Writes `DeviceSnapshot`s' JSON for an owner's updates, each state copied from a memo when an
/// equal one was written lately: a device's state repeats (the same popover shown and
/// dismissed, the same on every device of one kind), and writing it field by field is most of
/// what an update costs the owner.
struct SnapshotWriter<State: FieldSet & Equatable> {
    private var memo = JSONMemo<State>(smallest: 0)
    private let json = JSONWriter()

    /// The JSON of `DeviceSnapshot(state: state, recent: recent)`, as `JSONCoding.encode` writes it.
    mutating func write(_ state: State, recent: [String]) throws(JSONError) -> NestedValue {
        json.reset()
        json.write("{\"state\":")
        if let kept = memo.json(of: state) {
            kept.withUnsafeBufferPointer { json.write($0) }
        } else {
            let start = json.count
            var fields = JSONFieldWriter(json)
            try state.write(to: &fields)
            json.withBytes { memo.remember(state, json: UnsafeBufferPointer(rebasing: $0[start...])) }
        }
        json.write(",\"recent\":[")
        for index in recent.indices {
            if index > 0 { json.write(UInt8(ascii: ",")) }
            json.writeString(recent[index])
        }
        json.write("]}")
        return NestedValue(bytes: json.bytes)
    }
}
