import Domain
import Wire

/// One gateway connection serving one or many commands (a single call, a scenario, a shell):
/// it proves the path to each service once, then runs actions and prints what they cause.
final class GatewaySession {
    let client: GatewayClient
    let output: Output
    private var answered: Set<String> = []

    init(client: GatewayClient, output: Output) {
        self.client = client; self.output = output
    }

    /// Pings the services not yet proven to answer.
    func ensureAnswering(_ services: [String], deadline: Double) throws {
        let missing = services.filter { !answered.contains($0) }
        guard !missing.isEmpty else { return }
        try client.handshake(services: missing, deadline: deadline)
        answered.formUnion(missing)
    }

    /// Sends a device action (or a roster request), prints everything it causes (unless
    /// `printing` is off) in a fixed order once it is complete, then the verdict (`action.outcome`:
    /// always with `--json`, for people only when nothing else was printed), and returns it.
    ///
    /// Only the service that handles the action first must have answered a ping before it is
    /// sent (every service answers each ping, so the others prove their path at the same time):
    /// with another service down, an action that does not reach it still works, and one that
    /// does times out naming it.
    func perform(_ invocation: Invocation, printing: Bool = true) throws -> ActionOutcome {
        guard let body = invocation.command.action(profile: invocation.profile) else {
            throw UsageError("not an action")
        }
        let deadline = Timestamp.monotonic() + invocation.timeout
        var device = invocation.device
        if case .forget(let forgotten) = invocation.command { device = forgotten }
        guard let firstHop = Routing.firstHop(of: body) else {
            throw UsageError("\(body.type.rawValue) is not an action a client sends")
        }
        try ensureAnswering(firstHop, deadline: deadline)
        var sent: TraceTree.Hop?
        var arrived: [Envelope] = []
        var arrivals: [TraceTree.Hop] = []
        let tracker: ActionTracker
        do {
            tracker = try client.perform(
                body, device: device, firstHop: firstHop, deadline: deadline,
                onSent: { sent = TraceTree.Hop(envelope: $0, at: Timestamp.monotonic()) }
            ) {
                arrived.append($0)
                if invocation.trace { arrivals.append(TraceTree.Hop(envelope: $0, at: Timestamp.monotonic())) }
            }
        } catch let error as NoAnswer {
            if printing { for envelope in arrived { output.print(envelope) } }
            let silent = MonsterBus.Service.all.filter { !client.heard.contains($0) }
            let hint = silent.isEmpty ? "" : " (\(silent.joined(separator: ", ")) never answered a ping either: is it running? This action needs it)"
            throw NoAnswer(description: error.description + hint)
        }
        let ordered = tracker.ordered
        guard let action = sent?.envelope else { throw NoAnswer(description: "\(body.type.rawValue): the action was never sent") }
        let verdict = client.envelope(.outcome(tracker.outcome(of: body.type)), causedBy: action)
        if printing {
            var printed = false
            for envelope in ordered { printed = output.print(envelope) || printed }
            if output.json || !printed { output.print(verdict) }
        }
        if invocation.trace, let sent {
            for line in TraceTree(action: sent, caused: arrivals).lines() { print(line) }
        }
        return ActionOutcome(messages: ordered + [verdict], status: tracker.errors.isEmpty ? ExitStatus.ok : ExitStatus.refused)
    }

    /// Runs any command that talks to the bus; returns what it caused and its exit status.
    func execute(_ invocation: Invocation) throws -> ActionOutcome {
        let deadline = Timestamp.monotonic() + invocation.timeout
        switch invocation.command {
        case .status:
            return ActionOutcome(messages: [], status: try StatusCommand.run(session: self, deadline: deadline))
        case .ping(let services):
            try client.handshake(services: services, deadline: deadline)
            answered.formUnion(services)
            if !output.json { print("answered: " + services.joined(separator: ", ")) }
            return ActionOutcome(messages: [], status: ExitStatus.ok)
        case .screen(let out):
            return try ScreenCommand.run(invocation, out: out, session: self)
        default:
            return try perform(invocation)
        }
    }
}
