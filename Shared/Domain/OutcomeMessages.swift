/// `action.unchanged`: a service decided that the action it handled changes nothing, and says why
/// (a tap on empty space, a rotation to the orientation the device already has, …).
public struct Unchanged: Codable, Sendable, Equatable {
    /// Why nothing changed, as a code: `nothing-presented`, `no-action`, `same-orientation`, …
    public var reason: String
    /// Why nothing changed, for a person.
    public var message: String
    /// Nothing changed, because of `reason` (`message` for a person).
    public init(reason: String, message: String) { self.reason = reason; self.message = message }
}

/// `action.outcome`: the gateway's verdict on one action once everything it caused has arrived
/// (the last line of every `--json` action, so a script or scenario can `expect` it).
public struct Outcome: Codable, Sendable, Equatable {
    /// What `result` can be.
    public enum Result: String, CaseIterable, Codable, Sendable {
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
