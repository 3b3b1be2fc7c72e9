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

    /// Finished (or given up) actions, oldest first, at most `kept`.
    public private(set) var recent: [ActionRecord] = []
    /// One more every time `recent` changes.
    public private(set) var version: UInt64 = 0
    private var pending: [String: ActionRecord] = [:]

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
            if let firstHop = Self.firstHop(envelope.body), pending.count < Self.maxPending {
                pending[envelope.id] = ActionRecord(
                    action: envelope, seenAt: now, tracker: ActionTracker(actionId: envelope.id, firstHop: firstHop))
            }
            return nil
        }
        guard var record = pending[envelope.correlationId], record.tracker.observe(envelope) else { return nil }
        record.seen[envelope.id] = now
        guard record.tracker.isComplete else {
            pending[envelope.correlationId] = record
            return nil
        }
        record.finishedAt = now
        pending.removeValue(forKey: envelope.correlationId)
        keep(record)
        return record
    }

    /// Gives up the actions seen more than `seconds` before `now` and still incomplete; returns them.
    public mutating func expire(now: Double, after seconds: Double) -> [ActionRecord] {
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
