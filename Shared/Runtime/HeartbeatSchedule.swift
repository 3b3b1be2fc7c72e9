import Domain

/// When a process of the bus heartbeats, and what it says: shared by the services' runtime core
/// and the bus's registry, so every `sys.heartbeat` is timed and filled the same way.
public struct HeartbeatSchedule: Sendable {
    /// `HEARTBEAT_INTERVAL_MS`.
    public let intervalMilliseconds: Int
    /// When (monotonic seconds) the process started.
    public let started: Double
    /// When (monotonic seconds) the next heartbeat is due; at once at the start.
    public private(set) var next = -Double.infinity

    /// Heartbeats every `intervalMilliseconds`, for a process started at `started` (monotonic).
    public init(intervalMilliseconds: Int, started: Double) {
        self.intervalMilliseconds = intervalMilliseconds; self.started = started
    }

    /// Whether a heartbeat is due at `now` (monotonic); if so, the next one is an interval later.
    public mutating func isDue(at now: Double) -> Bool {
        guard now >= next else { return false }
        next = now + Double(intervalMilliseconds) / 1000
        return true
    }

    /// The heartbeat of `service` (process `pid`) at `now` (monotonic) with `counters`.
    public func heartbeat(service: String, pid: Int32, counters: [String: UInt64], now: Double) -> Heartbeat {
        Heartbeat(
            service: service, version: MonsterBus.version, pid: pid, uptimeSeconds: ((now - started) * 1000).rounded() / 1000,
            intervalMilliseconds: intervalMilliseconds, counters: counters)
    }
}
