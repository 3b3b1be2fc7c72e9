/// Which copies of a message to take when a process receives from a pair of buses (bus 0 and
/// bus 1, docs/scaling.md): every sender publishes each message to both, so a message sent once
/// arrives twice. A pure value, unit-tested.
///
/// The rule: per id, count the copies each bus has delivered. The n-th copy from one bus is
/// taken when the other bus has delivered fewer than n: it is a send not seen yet (the first
/// copy of a message, or a sender's retry with the same id, e.g. the gateway's
/// `GATEWAY_RETRY_MS`, which the runtime then answers as a duplicate). Otherwise it is the
/// pair's copy of a send already taken, and dropped. A bus that loses copies (down, or
/// restarting) only falls behind: the other bus's copies are taken.
///
/// Bounded: at most `capacity` ids are kept, the oldest forgotten first. A pair copy that comes
/// after its id was forgotten is taken, and the runtime answers it as a duplicate
/// (`DeliveryWindow`): forgetting costs an extra answer, never a second decision.
public struct BusPairFilter: Sendable {
    /// Copies delivered so far by bus 0 and by bus 1.
    private struct Counts: Sendable {
        var first: UInt32 = 0
        var second: UInt32 = 0
    }

    /// Most ids remembered at once.
    public let capacity: Int
    private var counts: [String: Counts] = [:]
    /// The ids in the order they first came, as a ring: the slot at `next` is the oldest.
    private var ring: [String?]
    private var next = 0

    /// A filter remembering up to `capacity` ids.
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        ring = Array(repeating: nil, count: self.capacity)
    }

    /// How many ids are remembered now.
    public var count: Int { counts.count }

    /// Whether the copy of message `id` that bus `bus` (0 or 1) delivered is to be handled.
    public mutating func admit(_ id: String, from bus: Int) -> Bool {
        var entry = counts[id] ?? remembering(id)
        let taken: Bool
        if bus == 0 {
            entry.first &+= 1
            taken = entry.first > entry.second
        } else {
            entry.second &+= 1
            taken = entry.second > entry.first
        }
        counts[id] = entry
        return taken
    }

    /// Makes room for the new id `id` (forgetting the oldest) and returns its empty counts.
    private mutating func remembering(_ id: String) -> Counts {
        if let oldest = ring[next] { counts.removeValue(forKey: oldest) }
        ring[next] = id
        next = (next + 1) % capacity
        return Counts()
    }
}
