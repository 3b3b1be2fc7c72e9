import Domain
import Wire

/// What a service decides about a message before its handler sees it, from the message's id
/// and `time` and a clock passed in (`now`, seconds since 1970): a pure value, unit-tested.
///
/// - **Time to live.** A message sent more than `timeToLive` ago is refused as too old
///   (`overloaded`); one whose `time` is more than `clockSkew` ahead of `now` is refused as
///   from the future (`bad-time`), so moving `time` forward cannot stretch its life.
/// - **Idempotence.** The acknowledgement of every message handled is remembered by id for as
///   long as the message itself would pass the time-to-live check (until its `time` +
///   `timeToLive`): a second delivery of the same id in that time is a `duplicate`, answered
///   with the first acknowledgement and handled no more. After that it is refused as too old:
///   never handled twice.
/// - **Bounded.** At most `capacity` ids are kept. When a newer one pushes out an id that has
///   not expired, the window remembers that it forgot messages sent up to that id's `time`, and
///   refuses any message not newer than that as too old, rather than risk handling it twice.
public struct DeliveryWindow: Sendable {
    /// What to do with one message.
    public enum Verdict: Sendable, Equatable {
        /// New: hand it to the handler, then `remember` its acknowledgement.
        case fresh(sent: Double)
        /// Already handled: answer this acknowledgement again (marked duplicate), with what it
        /// forwarded (`forwards(of:)`); nothing is decided again.
        case duplicate(Ack)
        /// Sent `waitedMilliseconds` ago, more than the time to live.
        case tooOld(waitedMilliseconds: Int)
        /// Sent before (or when) a message this window had to forget to stay within `capacity`.
        case forgotten(waitedMilliseconds: Int)
        /// Its `time` is `aheadMilliseconds` ahead of the clock, more than the allowed skew.
        case fromTheFuture(aheadMilliseconds: Int)
        /// Its `time` is not a timestamp (the decoder refuses these first).
        case unreadableTime
    }

    /// An id with its hash, hashed once per message: the window looks an id up several times
    /// (checked, remembered, expired), and a probe compares hashes before the ids' text.
    private struct Key: Hashable, Sendable {
        let id: String
        let hash: Int

        init(_ id: String) { self.id = id; hash = id.hashValue }

        static func == (a: Key, b: Key) -> Bool { a.hash == b.hash && a.id == b.id }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    private struct Entry: Sendable {
        let sent: Double
        let ack: Ack
        /// The frames of the messages its handling passed on to other services.
        let forwards: [[[UInt8]]]
    }

    /// Seconds a message lives after its `time` (`ACTION_TTL_MS`).
    public let timeToLive: Double
    /// Seconds a `time` may be ahead of this clock (`CLOCK_SKEW_MS`).
    public let clockSkew: Double
    /// Most ids remembered at once (`IDEMPOTENCE_WINDOW`).
    public let capacity: Int
    private var entries: [Key: Entry] = [:]
    /// Ids in the order they were remembered, with their `sent`; those before `head` are gone.
    private var order: [(key: Key, sent: Double)] = []
    /// The id checked last (most often the next one remembered), until it is remembered.
    private var checked: Key?
    /// Whether `checked` had no entry when it was checked: `remember` then need not look it up
    /// again (entries only leave between the two, and only `remember` adds one).
    private var checkedAbsent = false
    private var head = 0
    /// The latest `time` of an id forgotten before it expired, if any.
    private var forgottenUpTo = -Double.infinity

    /// A window for messages that live `timeToLive` seconds, may come `clockSkew` seconds early,
    /// remembering up to `capacity` ids.
    public init(timeToLive: Double, clockSkew: Double, capacity: Int) {
        self.timeToLive = timeToLive; self.clockSkew = clockSkew; self.capacity = max(1, capacity)
    }

    /// How many ids are remembered now.
    public var count: Int { entries.count }

    /// The verdict on the message `id` sent at `time`, at `now`.
    public mutating func check(id: String, time: String, now: Double) -> Verdict {
        guard let sent = Timestamp.parse(time) else {
            dropExpired(now: now)
            return .unreadableTime
        }
        return check(id: id, sent: sent, now: now)
    }

    /// `check(id:time:now:)` for a `time` already read as `sent` (seconds since 1970, what
    /// `Timestamp.parse` gives: `EnvelopeCodec.decode(frames:replyTo:sent:)` parses it once).
    public mutating func check(id: String, sent: Double, now: Double) -> Verdict {
        dropExpired(now: now)
        guard sent.isFinite else { return .unreadableTime }
        let key = Key(id)
        checked = key
        if let entry = entries[key] {
            checkedAbsent = false
            if !isExpired(entry.sent, now: now) { return .duplicate(entry.ack) }
        } else {
            checkedAbsent = true
        }
        let waited = Int(((now - sent) * 1000).rounded())
        if isExpired(sent, now: now) { return .tooOld(waitedMilliseconds: waited) }
        if sent - now > clockSkew { return .fromTheFuture(aheadMilliseconds: -waited) }
        if sent <= forgottenUpTo { return .forgotten(waitedMilliseconds: waited) }
        return .fresh(sent: sent)
    }

    /// The frames of what the handling of `id` passed on to other services (as `remember` was
    /// told), sent again with a duplicate's acknowledgement: a retry whose forwarded hop was
    /// lost completes it (the next service answers a repeat of the same id as a duplicate).
    public func forwards(of id: String) -> [[[UInt8]]] { entries[Key(id)]?.forwards ?? [] }

    /// Remembers that the message `id`, sent at `sent`, was answered with `ack`, having passed
    /// on the messages in `forwards` (their frames, kept as long as the id). Both are taken, not
    /// copied: the caller's last use of them is here.
    public mutating func remember(id: String, sent: Double, ack: consuming Ack, forwards: consuming [[[UInt8]]] = [], now: Double) {
        let key: Key
        if let checked, checked.id == id {
            key = checked
            self.checked = nil
            // Looked up by index: no copy of an entry found (a retain and a release of each of its parts).
            guard checkedAbsent || entries.index(forKey: key) == nil else { return }
        } else {
            key = Key(id)
            guard entries.index(forKey: key) == nil else { return }
        }
        while entries.count >= capacity, head < order.count {
            let oldest = order[head].key
            head += 1
            if let entry = entries.removeValue(forKey: oldest), !isExpired(entry.sent, now: now) {
                forgottenUpTo = max(forgottenUpTo, entry.sent)
            }
        }
        entries[key] = Entry(sent: sent, ack: ack, forwards: forwards)
        order.append((key, sent))
        compact()
    }

    /// Whether a message sent at `sent` has outlived its time to live at `now`.
    private func isExpired(_ sent: Double, now: Double) -> Bool { now - sent > timeToLive }

    /// Forgets, oldest first, the ids whose messages have expired (one that has not may keep
    /// later expired ones a little longer: they are still refused as too old).
    private mutating func dropExpired(now: Double) {
        // Each id in `order` from `head` on is remembered (an id leaves `entries` only from the
        // front of `order`), so its `sent` there says whether it expired: no look-up until it has.
        while head < order.count, isExpired(order[head].sent, now: now) {
            entries.removeValue(forKey: order[head].key)
            head += 1
        }
        compact()
    }

    /// Frees the forgotten front of `order` once it is most of the array.
    private mutating func compact() {
        if head > 1024 && head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}
