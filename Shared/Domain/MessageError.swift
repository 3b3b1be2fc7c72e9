/// Why bytes from the bus are not a message this system accepts.
public struct MessageError: Error, Equatable, CustomStringConvertible {
    /// The kinds of bad input, each with the stable code published in `error` messages.
    public enum Code: String, Sendable {
        case badFrames = "bad-frames"
        case badUTF8 = "bad-utf8"
        case badJSON = "bad-json"
        case badShape = "bad-shape"
        case missingField = "missing-field"
        case unknownType = "unknown-type"
        case unsupportedVersion = "unsupported-version"
        case topicMismatch = "topic-mismatch"
        case tooLarge = "too-large"
        /// `time` is not an RFC 3339 timestamp, or is further ahead of the receiver's clock than
        /// `CLOCK_SKEW_MS` allows.
        case badTime = "bad-time"
        /// A number is NaN or infinite: JSON cannot carry it, so it is never sent.
        case nonFinite = "non-finite"
    }

    /// The kind of bad input; its raw value is the `code` of the `error` message published.
    public let code: Code
    /// What is wrong, for a person.
    public let reason: String
    /// The offending message's id, when the JSON was readable enough to have one.
    public var offendingId: String?

    /// An error of `code` explained by `reason`.
    public init(_ code: Code, _ reason: String, offendingId: String? = nil) {
        self.code = code; self.reason = reason; self.offendingId = offendingId
    }

    /// The error for a person and the logs: `code: reason`, e.g. `bad-json: …`.
    public var description: String { "\(code.rawValue): \(reason)" }
}
