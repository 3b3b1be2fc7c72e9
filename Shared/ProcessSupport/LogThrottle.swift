/// Which of many alike log lines to write, so that a flood of them (2,000 clients with unknown
/// keys) writes a few lines, not 2,000: the first at once, then at most one per `interval`,
/// which says how many were held back since the last one written. A pure value: the caller
/// passes the time.
public struct LogThrottle: Sendable {
    /// What to do with one occurrence.
    public enum Decision: Sendable, Equatable {
        /// Write it, saying that `heldBack` occurrences since the last line written were not.
        case write(heldBack: Int)
        /// Count it, write nothing.
        case hold
    }

    /// Seconds between two lines written.
    public let interval: Double
    private var lastWritten: Double?
    private var heldBack = 0

    /// A throttle writing at most one line per `interval` seconds.
    public init(interval: Double) { self.interval = interval }

    /// The decision on an occurrence at `now` (seconds, any clock that does not go back).
    public mutating func note(now: Double) -> Decision {
        if let lastWritten, now - lastWritten < interval {
            heldBack += 1
            return .hold
        }
        let decision = Decision.write(heldBack: heldBack)
        lastWritten = now
        heldBack = 0
        return decision
    }
}
