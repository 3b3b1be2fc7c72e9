import Domain

/// What the bus knows of the services: the last heartbeat of each, and when it came.
/// A service is stale when its last heartbeat is older than three of its intervals.
public struct BusRegistry: Sendable {
    private var last: [String: (heartbeat: Heartbeat, at: Double)] = [:]

    /// An empty registry.
    public init() {}

    /// Records `heartbeat`, received at monotonic time `at` (seconds).
    public mutating func record(_ heartbeat: Heartbeat, at time: Double) {
        last[heartbeat.service] = (heartbeat, time)
    }

    /// Every service heard from, by name, as of monotonic time `now`.
    public func services(now: Double) -> [ServiceStatus] {
        last.keys.sorted().map { name in
            let (heartbeat, at) = last[name]!
            let age = max(0, Int(((now - at) * 1000).rounded()))
            return ServiceStatus(
                heartbeat: heartbeat, lastHeartbeatAgeMilliseconds: age,
                stale: age > 3 * heartbeat.intervalMilliseconds)
        }
    }
}
