/// What an instance keeps of a device it owns, beside the service's state: its last action ids
/// and, when it was taken over from a copy, what came with that copy.
struct HeldDevice {
    /// The ids of its last actions, oldest first.
    var recent: RecentIds
    /// What came with the copy it was taken over from (nil: it started here, or was handed over live).
    var takenOver: TakenOver?
}

/// Whose copy a device was taken over from, at which update, and what its last actions sent
/// onward, as its previous owner said. A class: one reference in `HeldDevice`, which every
/// action takes out of its dictionary and puts back.
final class TakenOver: Sendable {
    /// The instance that owned it.
    let owner: String
    /// That owner's epoch.
    let epoch: Int64
    /// The update the copy was at.
    let sequence: UInt64
    /// What its last actions sent onward (`StandbyCopies.Sent`): published again for a retry of one of them.
    let onward: [StandbyCopies.Sent]

    /// What came with `copy`.
    init(_ copy: StandbyCopies.Copy) {
        owner = copy.owner; epoch = copy.epoch; sequence = copy.sequence; onward = copy.onward
    }
}
