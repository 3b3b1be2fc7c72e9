import MonsterKit

import FoundationEssentials

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
        let decoder = JSONDecoder()
        let candidates = messages.filter { $0.type.rawValue == type }
        // The message of the type with the fewest fields that differ (the first of those).
        var closest: (service: String, mismatches: [String])?
        var matched = false
        for message in candidates {
            guard let envelope = try? decoder.decode(JSONValue.self, from: Data(codec.encode(message))),
                  let body = envelope.value(at: "body") else { continue }
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
