/// `action.unchanged`: a service decided that the action it handled changes nothing, and says why
/// (a tap on empty space, a rotation to the orientation the device already has, …).
public struct Unchanged: Sendable, Equatable {
    /// Why nothing changed, as a code: `nothing-presented`, `no-action`, `same-orientation`, …
    public var reason: String
    /// Why nothing changed, for a person.
    public var message: String
    /// Nothing changed, because of `reason` (`message` for a person).
    public init(reason: String, message: String) { self.reason = reason; self.message = message }
}

extension Unchanged: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Unchanged { Unchanged(reason: "", message: "") }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("reason", &reason)
        try fields.field("message", &message)
    }
}

/// `action.outcome`: the gateway's verdict on one action once everything it caused has arrived
/// (the last line of every `--json` action, so a script or scenario can `expect` it).
public struct Outcome: Sendable, Equatable {
    /// What `result` can be.
    public enum Result: String, FieldCase, CaseIterable, Sendable {
        /// Something changed on the device or in the roster.
        case changed
        /// Nothing changed (`reason` says why).
        case unchanged
        /// A service refused the action (`reason` is the error's code).
        case refused
        /// A question was answered (`describe`, `roster`): nothing was meant to change.
        case reported
    }
    /// The action's message type (`device.tap`, …).
    public var action: String
    /// Changed, unchanged, refused or reported.
    public var result: Result
    /// For `unchanged`, the services' reason codes; for `refused`, the error codes (comma-separated).
    public var reason: String?
    /// How many messages the action caused, acknowledgements included.
    public var messages: Int
    /// A verdict from its parts.
    public init(action: String, result: Result, reason: String?, messages: Int) {
        self.action = action; self.result = result; self.reason = reason; self.messages = messages
    }
}

extension Outcome: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Outcome { Outcome(action: "", result: .changed, reason: nil, messages: 0) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("action", &action)
        try fields.field("result", &result)
        try fields.field("reason", &reason)
        try fields.field("messages", &messages)
    }
}
