/// What a service's core decides to publish because of one message: a message for everyone,
/// possibly passed on to another service that will handle and acknowledge it.
public struct Effect: Sendable, Equatable {
    /// What to publish.
    public var body: Body
    /// The device it concerns; `nil` keeps the handled message's device.
    public var device: String?
    /// The service that will handle and acknowledge it, when it is passed on to one.
    public var forwardTo: String?

    /// `body`, for the handled message's device, passed on to `forwardTo` if given.
    public init(_ body: Body, device: String? = nil, forwardTo: String? = nil) {
        self.body = body; self.device = device; self.forwardTo = forwardTo
    }

    /// Whether it is a refusal that only says to send the message again (`ErrorBody.asksToSendAgain`).
    public var asksToSendAgain: Bool {
        if case .error(let error) = body { error.asksToSendAgain } else { false }
    }

    /// Publishes `body`.
    public static func publish(_ body: Body) -> Effect { Effect(body) }

    /// Publishes `body` for `service` to handle and acknowledge.
    public static func forward(_ body: Body, to service: String) -> Effect { Effect(body, forwardTo: service) }

    /// Publishes an `error` with `code` and `message` about the message being handled.
    public static func error(_ code: RefusalCode, _ message: String, offendingId: String? = nil) -> Effect {
        Effect(.error(ErrorBody(code: code.rawValue, message: message, offendingId: offendingId)))
    }

    /// Publishes an `error` about a message that could not be taken as it is (`MessageError`'s codes).
    public static func error(_ code: MessageError.Code, _ message: String, offendingId: String? = nil) -> Effect {
        Effect(.error(ErrorBody(code: code.rawValue, message: message, offendingId: offendingId)))
    }

    /// Publishes `action.unchanged`: nothing changed, because of `reason` (`message` for a person).
    public static func unchanged(_ reason: UnchangedReason, _ message: String) -> Effect {
        Effect(.unchanged(Unchanged(reason: reason.rawValue, message: message)))
    }

    /// Whether this effect is an `error`.
    public var isError: Bool {
        if case .error = body { return true }
        return false
    }
}
