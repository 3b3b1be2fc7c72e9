import Domain
import Wire

/// What one action of a scenario caused.
public struct ActionOutcome: Sendable {
    /// Every message the action caused (acknowledgements included).
    public let messages: [Envelope]
    /// The gateway exit status the action alone would have had.
    public let status: Int32

    /// An outcome from its parts.
    public init(messages: [Envelope], status: Int32) { self.messages = messages; self.status = status }
}

/// Runs scenario steps: actions through `perform`, expectations against the messages the
/// previous action caused. In a file the first failure stops the run; in a shell it is
/// reported and the session goes on.
///
/// In a file an action ends the run with the status it would have had alone: 2 for a line that
/// is not a command, 3 when nothing answered in time, 4 and 5 for the bus and files, and 1 for a
/// refusal — unless expectations follow it, which then judge its messages (`expect error
/// code=modal-alert`).
public struct ScenarioRunner {
    /// The name failures are reported under (the file, or `shell`).
    let source: String
    /// Runs one action, given as the words typed after `gateway`.
    let perform: ([String]) throws -> ActionOutcome
    /// Progress for the person watching (standard output).
    let say: (String) -> Void
    /// Failures (standard error).
    let complain: (String) -> Void
    private var lastMessages: [Envelope]?
    /// The last action's refusal, while no expectation has followed it: where, and what.
    private var uncheckedRefusal: String?
    private(set) var actions = 0
    private(set) var expectationsPassed = 0

    /// A runner reporting under `source`.
    public init(
        source: String, perform: @escaping ([String]) throws -> ActionOutcome,
        say: @escaping (String) -> Void, complain: @escaping (String) -> Void
    ) {
        self.source = source; self.perform = perform; self.say = say; self.complain = complain
    }

    /// Runs every step, stopping at the first failure; returns the exit status.
    public mutating func run(_ steps: [ScenarioStep]) -> Int32 {
        for step in steps {
            if case .action = step.kind, let status = failUncheckedRefusal() { return status }
            if let status = self.step(step) { return status }
        }
        if let status = failUncheckedRefusal() { return status }
        say("\(source): \(actions) action(s), \(expectationsPassed) expectation(s) passed")
        return ExitStatus.ok
    }

    /// Exit 1 when the last action was refused and no expectation followed it.
    private mutating func failUncheckedRefusal() -> Int32? {
        guard let refusal = uncheckedRefusal else { return nil }
        complain("\(refusal), and no expectation follows it (`expect error code=…` when the refusal is meant)")
        return ExitStatus.refused
    }

    /// `FILE:LINE: refused by SERVICE [CODE]: MESSAGE` for the refusal among `messages`.
    private static func refusal(in messages: [Envelope], at place: String) -> String {
        for message in messages {
            if case .error(let error) = message.body { return "\(place): refused by \(message.service) [\(error.code)]: \(error.message)" }
        }
        return "\(place): refused"
    }

    /// Runs one step; returns an exit status when it failed, `nil` when it went well.
    public mutating func step(_ step: ScenarioStep) -> Int32? {
        let place = "\(source):\(step.line)"
        switch step.kind {
        case .action(let words):
            say("$ gateway " + words.joined(separator: " "))
            do {
                let outcome = try perform(words)
                lastMessages = outcome.messages
                uncheckedRefusal = outcome.status == ExitStatus.refused ? Self.refusal(in: outcome.messages, at: place) : nil
                actions += 1
                return nil
            } catch let error as UsageError {
                complain("\(place): \(error.description)")
                return ExitStatus.usage
            } catch {
                complain("\(place): \(error)")
                return ExitStatus.of(error)
            }
        case .expectation(let expectation):
            uncheckedRefusal = nil
            guard let messages = lastMessages else {
                complain("\(place): \(expectation) comes before any action")
                return ExitStatus.refused
            }
            if let failure = expectation.failure(in: messages) {
                complain("\(place): expectation failed: \(expectation): \(failure)")
                return ExitStatus.refused
            }
            expectationsPassed += 1
            say("  ✓ \(expectation)")
            return nil
        }
    }
}
