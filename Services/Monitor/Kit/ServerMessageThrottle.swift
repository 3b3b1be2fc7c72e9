import ProcessSupport

/// Which of libmicrohttpd's messages to write to the monitor's log, so that a flood (a refused
/// connection each, from a client that keeps connecting) writes a few lines, not thousands:
/// for each kind of message (its format), the first at once, then at most one per `interval`
/// saying how many like it were held back since. A pure value: the caller passes the time.
public struct ServerMessageThrottle: Sendable {
    /// Seconds between two lines of one kind.
    public let interval: Double
    /// Kinds followed one by one, at most (libmicrohttpd has a few dozen); others share one.
    public static let maxKinds = 64
    private var throttles: [String: LogThrottle] = [:]

    /// A throttle writing at most one line per kind per `interval` seconds.
    public init(interval: Double) { self.interval = interval }

    /// The line to write for `text`, a message of kind `kind` (its format) at `now`; `nil` to
    /// write nothing.
    public mutating func line(for text: String, kind: String, now: Double) -> String? {
        let key = throttles[kind] != nil || throttles.count < Self.maxKinds ? kind : ""
        var throttle = throttles[key] ?? LogThrottle(interval: interval)
        let decision = throttle.note(now: now)
        throttles[key] = throttle
        let message = text.hasSuffix("\n") ? String(text.dropLast()) : text
        switch decision {
        case .hold:
            return nil
        case .write(let heldBack) where heldBack == 0:
            return "http: \(message) (alike messages are summarised every \(Int(interval)) s)"
        case .write(let heldBack):
            return "http: \(message) (and \(heldBack) more like it since the last such line)"
        }
    }
}
