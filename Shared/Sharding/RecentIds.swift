/// The ids of a device's last actions (at most `limit`), oldest first, carried with its state so
/// that a new owner answers a retry of one as a repeat. A repeat of an id this instance decided
/// as the owner is the delivery window's to catch; one it decided standing by, or that came
/// with the state, is the handler's.
struct RecentIds: Equatable {
    /// How many ids a device's state carries (a retry comes within seconds).
    static let limit = 16
    /// The ids, oldest first.
    private(set) var ids: [String]
    /// Each id's `tail`, looked through before the id itself: one client's ids share their first
    /// seventeen bytes, and every action looks for its own id here.
    private var tails: [UInt64]
    /// How many of `ids`, from the first, came with the state from another instance.
    private var inherited: Int

    /// None yet: a device new here.
    init() {
        ids = []
        tails = []
        inherited = 0
    }

    /// The ids another instance handled (its last `limit`).
    init(inherited ids: [String]) {
        self.ids = Array(ids.suffix(Self.limit))
        tails = self.ids.map(Self.tail)
        inherited = self.ids.count
    }

    /// Whether every id came with the state: no action of the device was decided here.
    var decidedNothingHere: Bool { inherited == ids.count }

    /// Whether `id` is among them.
    func contains(_ id: String) -> Bool {
        let tail = Self.tail(id)
        for index in tails.indices where tails[index] == tail && ids[index] == id { return true }
        return false
    }

    /// Adds `id`, dropping the oldest beyond `limit`.
    mutating func append(_ id: String) {
        if ids.count >= Self.limit {
            let dropped = ids.count - Self.limit + 1
            ids.removeFirst(dropped)
            tails.removeFirst(dropped)
            inherited = max(0, inherited - dropped)
        }
        ids.append(id)
        tails.append(Self.tail(id))
    }

    /// `id`'s length and its last seven bytes, as one number.
    private static func tail(_ id: String) -> UInt64 {
        var tail = UInt64(truncatingIfNeeded: id.utf8.count)
        for byte in id.utf8.suffix(7) { tail = tail << 8 | UInt64(byte) }
        return tail
    }
}
