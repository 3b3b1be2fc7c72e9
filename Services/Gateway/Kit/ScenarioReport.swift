import Wire

/// The verdict on one expectation of a scenario file under `gateway test`.
public struct ExpectationResult: Sendable, Equatable {
    /// Passed, failed (why), or skipped because its action could not be performed (why).
    public enum Verdict: Sendable, Equatable {
        case passed
        case failed(String)
        case skipped(String)
    }

    /// The expectation's line in its file.
    public let line: Int
    /// The expectation as written.
    public let expectation: ScenarioExpectation
    /// What came of it.
    public let verdict: Verdict
}

/// An action line of a file that could not be performed: a line the gateway cannot run, a
/// service that did not answer in time, the bus unreachable. The expectations after it, up
/// to the next action, are skipped.
public struct ActionError: Sendable, Equatable {
    /// The action's line in its file.
    public let line: Int
    /// Why, for a person.
    public let message: String
    /// The exit status `gateway run` would have had (`ExitStatus.of`).
    public let status: Int32
}

/// What one scenario file gave under `gateway test`.
public struct ScenarioFileResult: Sendable, Equatable {
    /// The file, as found under the paths given.
    public let path: String
    /// Every expectation, in the file's order.
    public var expectations: [ExpectationResult] = []
    /// The actions that could not be performed.
    public var actionErrors: [ActionError] = []
    /// Why the file could not be run at all (unreadable, or a line that is not a scenario's),
    /// with its exit status (5 or 2).
    public var problem: ActionError?
    /// How many actions were performed.
    public var actions = 0
    /// How long the file took, in seconds.
    public var seconds = 0.0

    /// A result for `path`, nothing run yet.
    public init(path: String) { self.path = path }

    /// The expectations that passed.
    public var passed: Int { expectations.count(where: { $0.verdict == .passed }) }
    /// The expectations that failed.
    public var failed: Int { expectations.count(where: { if case .failed = $0.verdict { true } else { false } }) }
    /// The expectations skipped.
    public var skipped: Int { expectations.count(where: { if case .skipped = $0.verdict { true } else { false } }) }
    /// Whether everything in the file went well.
    public var succeeded: Bool { problem == nil && actionErrors.isEmpty && passed == expectations.count }

    /// `FILE:LINE`, the name of the expectation or action at `line`.
    public func place(_ line: Int) -> String { "\(path):\(line)" }
}

/// Runs a whole file's steps for `gateway test`: unlike `gateway run` it goes on after a failed
/// expectation (the actions after it still run) and after an action that could not be
/// performed (its expectations are skipped), so that every expectation gets a verdict.
enum ScenarioCheck {
    /// The verdicts on `steps`, each action performed by `perform`, recorded into `result`.
    static func run(_ steps: [ScenarioStep], into result: inout ScenarioFileResult, perform: ([String]) throws -> ActionOutcome) {
        var messages: [Envelope]?
        var skipReason: String?
        for step in steps {
            switch step.kind {
            case .action(let words):
                do {
                    messages = try perform(words).messages
                    skipReason = nil
                    result.actions += 1
                } catch {
                    let message = (error as? UsageError)?.description ?? "\(error)"
                    result.actionErrors.append(ActionError(line: step.line, message: message, status: ExitStatus.of(error)))
                    messages = nil
                    skipReason = "its action at line \(step.line) was not performed: \(message)"
                }
            case .expectation(let expectation):
                let verdict: ExpectationResult.Verdict
                if let skipReason {
                    verdict = .skipped(skipReason)
                } else if let messages {
                    verdict = expectation.failure(in: messages).map { .failed("\(expectation): \($0)") } ?? .passed
                } else {
                    verdict = .failed("\(expectation) comes before any action")
                }
                result.expectations.append(ExpectationResult(line: step.line, expectation: expectation, verdict: verdict))
            }
        }
    }
}
