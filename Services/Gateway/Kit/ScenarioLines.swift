import Wire

/// Runs the action lines of one scenario, shell or file of `gateway test`: each is parsed like a
/// command line, with the run's device and timeout as defaults, and performed on the run's
/// session. Every device the run describes is introduced to the services that need its profile
/// (`DeviceIntroductions`). `deviceName` gives the id a device written in the file is sent as:
/// itself, or one of this file's own (`gateway test --live`, where other files run at once).
final class ScenarioLines {
    private let invocation: Invocation
    private let defaults: [String: String]
    private let session: GatewaySession
    private let deviceName: (String) -> String
    private var introductions = DeviceIntroductions()

    /// Lines run with `invocation`'s device, profile and timeout as defaults, on `session`.
    init(invocation: Invocation, environment: [String: String], session: GatewaySession, deviceName: @escaping (String) -> String = { $0 }) {
        var defaults = environment
        defaults["GATEWAY_DEVICE"] = invocation.device
        defaults["GATEWAY_TIMEOUT"] = String(invocation.timeout)
        self.invocation = invocation; self.defaults = defaults; self.session = session; self.deviceName = deviceName
    }

    /// Performs the action `words` (as typed after `gateway`); returns what it caused.
    func perform(_ words: [String]) throws -> ActionOutcome {
        var line = try CommandLineParser.parse(words, environment: defaults)
        if line.profile == nil && line.device == invocation.device { line.profile = invocation.profile }
        switch line.command {
        case .run, .test, .shell, .watch, .completion, .keys, .contract, .help, .version:
            throw UsageError("\(words.first ?? "") cannot be used inside a scenario")
        case .forget(let device):
            introductions.forgot(device)
            line.command = .forget(deviceName(device))
            return try session.execute(line)
        default:
            break
        }
        let written = line.device
        let plan = introductions.plan(line.command, device: written, profile: line.profile)
        line.device = deviceName(written)
        line.profile = plan.profile
        // What a describe sent first to introduce the device caused is not the action's, but a
        // refusal of it is (a device described otherwise than the services know it).
        var refusals: [Envelope] = []
        if let profile = plan.describeFirst {
            var describe = line
            describe.command = .describe
            describe.profile = profile
            describe.trace = false
            refusals = try session.perform(describe, printing: false).messages.filter {
                if case .error = $0.body { true } else { false }
            }
            for refusal in refusals { session.output.print(refusal) }
            introductions.gave(profile, to: written)
        }
        let outcome = try session.execute(line)
        if let profile = plan.profile { introductions.gave(profile, to: written) }
        guard !refusals.isEmpty else { return outcome }
        return ActionOutcome(messages: refusals + outcome.messages, status: ExitStatus.refused)
    }
}
