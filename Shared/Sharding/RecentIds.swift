/// The ids of a device's last actions (at most `limit`), oldest first, carried with its state so
/// that a new owner answers a retry of one as a duplicate. A repeat of an id this instance
/// decided as the owner is the delivery window's to catch; one it decided standing by, or that
/// came with the state, is the handler's.
struct RecentIds: Equatable {
    /// How many ids a device's state carries (a retry comes within seconds).
    static let limit = 16
    /// The ids, oldest first.
    private(set) var ids: [String]
    /// How many of `ids`, from the first, came with the state from another instance.
    private var inherited: Int

    /// None yet: a device new here.
    init() {
        ids = []
        inherited = 0
    }

    /// The ids another instance handled (its last `limit`).
    init(inherited ids: [String]) {
        self.ids = Array(ids.suffix(Self.limit))
        inherited = self.ids.count
    }

    /// Whether every id came with the state: no action of the device was decided here.
    var decidedNothingHere: Bool { inherited == ids.count }

    /// Whether `id` is among them.
    func contains(_ id: String) -> Bool { ids.contains(id) }

    /// Whether the previous owner handled `id`.
    func inherits(_ id: String) -> Bool { inherited > 0 && ids.prefix(inherited).contains(id) }

    /// Adds `id`, dropping the oldest beyond `limit`.
    mutating func append(_ id: String) {
        if ids.count >= Self.limit {
            let dropped = ids.count - Self.limit + 1
            ids.removeFirst(dropped)
            inherited = max(0, inherited - dropped)
        }
        ids.append(id)
    }
}
