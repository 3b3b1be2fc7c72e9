/// Why JSON bytes could not be read as the caller asked.
public struct JSONError: Error, Equatable, CustomStringConvertible {
    /// The kinds of failure, which the wire maps to its own error codes.
    public enum Kind: Sendable, Equatable {
        /// The bytes are not JSON (RFC 8259): a syntax error, a lone surrogate, nesting too deep.
        case syntax
        /// The value is JSON of another type than the one asked for (a string where a number goes).
        case type
        /// The value has the right JSON type but is not one the caller accepts (a number out of
        /// range, a string that is not one of an enumeration's cases).
        case value
        /// A member the caller requires is not in the object.
        case missing
        /// A number that JSON cannot write (NaN, an infinity).
        case nonFinite
    }

    /// What kind of failure.
    public let kind: Kind
    /// What is wrong, for a person, without the path (`description` adds it).
    public let reason: String
    /// Where: the member names and array indices from the outermost value in, e.g. `["body", "frame", "x"]`.
    public var path: [String]

    /// A failure of `kind`, explained by `reason`, at the value being read.
    public init(_ kind: Kind, _ reason: String, path: [String] = []) {
        self.kind = kind; self.reason = reason; self.path = path
    }

    /// The path as it is written in messages: `body.buttonFrames[1].x`.
    public var field: String {
        var text = ""
        for part in path {
            if part.hasPrefix("[") || text.isEmpty { text += part } else { text += "." + part }
        }
        return text
    }

    /// This error one level further out: inside the member or element `part`.
    public func inside(_ part: String) -> JSONError {
        var outer = self
        outer.path.insert(part, at: 0)
        return outer
    }

    /// `field 'body.x': reason`, or the reason alone at the top.
    public var description: String { path.isEmpty ? reason : "field '\(field)': \(reason)" }
}
