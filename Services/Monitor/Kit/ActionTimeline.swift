import Domain
import GatewayKit
import Wire

/// One action seen on the bus and what it caused, as far as it has arrived.
public struct ActionRecord: Sendable {
    /// The action itself (a `device.*` message, or a `roster.snapshot.request`).
    public let action: Envelope
    /// When the monitor saw it (monotonic seconds).
    public let seenAt: Double
    /// Everything it caused, and whether that is all (every acknowledgement in).
    public var tracker: ActionTracker
    /// When the monitor saw each caused message, by id (monotonic seconds).
    public var seen: [String: Double] = [:]
    /// When the last of it arrived; `nil` while incomplete.
    public var finishedAt: Double?
    /// True when it was given up incomplete (a service did not acknowledge in time).
    public var expired = false
    /// How many times it was sent: a client's retries (`GATEWAY_RETRY_MS`) carry the same id.
    public var sends = 1

    /// Seconds from the action to its last acknowledgement, as the monitor saw them.
    public var roundTrip: Double? { finishedAt.map { $0 - seenAt } }
}

/// The actions on the bus and what each caused, followed with the gateway's `ActionTracker`:
/// an action is complete when every acknowledgement, and every message they list, has arrived.
public struct ActionTimeline: Sendable {
    /// How many finished actions are kept for the page.
    public static let kept = 40
    /// Most actions followed at once; more are not followed (under a load no page could show).
    public static let maxPending = 10_000
    /// Most messages kept, in all, for actions not seen yet: whatever a client sends, a bound.
    public static let maxEarlyMessages = 10_000

    /// Finished (or given up) actions, oldest first, at most `kept`.
    public private(set) var recent: [ActionRecord] = []
    /// One more every time `recent` changes.
    public private(set) var version: UInt64 = 0
    private var pending: [String: ActionRecord] = [:]
    /// Messages of an action not seen yet, by its id, with when each came: on a pair of buses an
    /// answer can come through one before its action through the other. Kept until the action
    /// comes or for as long as an action is followed; `earlyCount` of them, at most `maxEarlyMessages`.
    private var early: [String: (since: Double, messages: [(envelope: Envelope, at: Double)])] = [:]
    private var earlyCount = 0

    /// An empty timeline.
    public init() {}

    /// The services that handle `body` directly, if it is an action the timeline follows (device
    /// actions and roster snapshot requests, not `device.forget` nor backups).
    static func firstHop(_ body: Body) -> [String]? {
        body.type.isDeviceAction || body.type == .snapshotRequest ? Routing.firstHop(of: body) : nil
    }

    /// Takes one message seen at `now`; returns the action it completed, if it did.
    public mutating func observe(_ envelope: Envelope, at now: Double) -> ActionRecord? {
        if envelope.id == envelope.correlationId {
            let held = early.removeValue(forKey: envelope.id)?.messages ?? []
            earlyCount -= held.count
            // Sent again with the same id: the same action, counted on its record. Its answers
            // (duplicates of the first ones) change nothing a record shows.
            if pending[envelope.id] != nil {
                pending[envelope.id]?.sends += 1
                return nil
            }
            // Only an action can have a record: a heartbeat or a ping is not looked for.
            guard let firstHop = Self.firstHop(envelope.body) else { return nil }
            if let index = recent.lastIndex(where: { $0.action.id == envelope.id }) {
                recent[index].sends += 1
                version += 1
                return nil
            }
            guard pending.count < Self.maxPending else { return nil }
            var record = ActionRecord(action: envelope, seenAt: now, tracker: ActionTracker(actionId: envelope.id, firstHop: firstHop))
            for (message, at) in held where record.tracker.observe(message) { record.seen[message.id] = at }
            return settle(record, at: now)
        }
        guard var record = pending[envelope.correlationId] else {
            guard earlyCount < Self.maxEarlyMessages else { return nil }
            earlyCount += 1
            early[envelope.correlationId, default: (now, [])].messages.append((envelope, now))
            return nil
        }
        guard record.tracker.observe(envelope) else { return nil }
        record.seen[envelope.id] = now
        return settle(record, at: now)
    }

    /// Keeps `record` pending while incomplete; else finishes it at `now` and returns it.
    private mutating func settle(_ record: ActionRecord, at now: Double) -> ActionRecord? {
        var record = record
        guard record.tracker.isComplete else {
            pending[record.action.id] = record
            return nil
        }
        record.finishedAt = now
        pending.removeValue(forKey: record.action.id)
        keep(record)
        return record
    }

    /// Gives up the actions seen more than `seconds` before `now` and still incomplete; returns them.
    public mutating func expire(now: Double, after seconds: Double) -> [ActionRecord] {
        if !early.isEmpty {
            early = early.filter { now - $0.value.since <= seconds }
            earlyCount = early.values.reduce(0) { $0 + $1.messages.count }
        }
        var given: [ActionRecord] = []
        for var record in pending.values.filter({ now - $0.seenAt > seconds }).sorted(by: { $0.seenAt < $1.seenAt }) {
            pending.removeValue(forKey: record.action.id)
            record.expired = true
            keep(record)
            given.append(record)
        }
        return given
    }

    private mutating func keep(_ record: ActionRecord) {
        recent.append(record)
        if recent.count > Self.kept { recent.removeFirst(recent.count - Self.kept) }
        version += 1
    }
}
