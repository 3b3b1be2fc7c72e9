import Domain

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
