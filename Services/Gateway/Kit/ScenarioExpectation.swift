import JSON
import Wire

/// `expect TYPE [FIELD=VALUE…]` (some message of TYPE has every field equal) or
/// `expect-no TYPE [FIELD=VALUE…]` (no message of TYPE has them all).
public struct ScenarioExpectation: Sendable, Equatable, CustomStringConvertible {
    /// A field of the message body, dotted for nesting, and the text its value must have.
    public struct Field: Sendable, Equatable {
        /// The field's key in the body, dotted for nesting; a number indexes a list (`buttons.0`).
        public let path: String
        /// The text the field's value must equal (a list compares as `a,b,c`).
        public let value: String
    }

    /// True for `expect-no`: it passes when no message of `type` has every field.
    public let negated: Bool
    /// The message type, e.g. `presentation.presented`.
    public let type: String
    /// The `FIELD=VALUE` pairs one message must all match, in the order written.
    public let fields: [Field]

    /// The expectation as a scenario line (`expect TYPE FIELD=VALUE…`), for failure reports.
    public var description: String {
        ([negated ? "expect-no" : "expect", type] + fields.map { "\($0.path)=\($0.value)" }).joined(separator: " ")
    }

    /// `nil` when `messages` satisfy this expectation, otherwise why not.
    public func failure(in messages: [Envelope]) -> String? {
        let codec = EnvelopeCodec()
        let candidates = messages.filter { $0.type.rawValue == type }
        // The message of the type with the fewest fields that differ (the first of those).
        var closest: (service: String, mismatches: [String])?
        var matched = false
        for message in candidates {
            guard let envelope = try? JSONValue.parse(codec.encode(message)), let body = envelope.value(at: "body") else { continue }
            let mismatches = fields.compactMap { field -> String? in
                let actual = body.value(at: field.path)
                return actual?.text == field.value ? nil : "\(field.path) is \(actual?.text ?? "absent"), not \(field.value)"
            }
            if mismatches.isEmpty {
                matched = true
                break
            }
            if closest == nil || mismatches.count < closest!.mismatches.count { closest = (message.service, mismatches) }
        }
        if negated {
            return matched ? "a \(type) message matched" : nil
        }
        if matched { return nil }
        if candidates.isEmpty {
            let seen = messages.map(\.type.rawValue).filter { $0 != "ack" }
            return "no \(type) message; the action caused \(seen.isEmpty ? "nothing" : seen.joined(separator: ", "))"
        }
        let of = candidates.count == 1 ? "the only one" : "the closest of \(candidates.count)"
        return "no \(type) message matched: \(of) (from \(closest?.service ?? "an unreadable message")): " + (closest?.mismatches ?? []).joined(separator: "; ")
    }
}

extension JSONValue {
    /// The value as a scenario writes it: strings bare, numbers without a needless `.0`,
    /// arrays of scalars joined by commas.
    var text: String {
        switch self {
        case .string(let value): value
        case .number(let literal):
            if let value = Double(literal), value == value.rounded(), abs(value) < 1e15 { String(Int64(value)) } else { literal }
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        case .array(let values): values.map(\.text).joined(separator: ",")
        case .object: "{…}"
        }
    }
}
