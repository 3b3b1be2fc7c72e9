import BusKit
import MonsterKit

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
    /// `printing` is off), and returns it.
    func perform(_ invocation: Invocation, printing: Bool = true) throws -> ActionOutcome {
        guard let body = invocation.command.action(profile: invocation.profile) else {
            throw UsageError("not an action")
        }
        let deadline = Timestamp.monotonic() + invocation.timeout
        let isRosterRequest = body.type == .snapshotRequest
        let handler = isRosterRequest ? MonsterBus.Service.roster : MonsterBus.Service.presentationPolicy
        try ensureAnswering(isRosterRequest ? [handler] : MonsterBus.Service.all, deadline: deadline)
        var sent: TraceTree.Hop?
        var arrivals: [TraceTree.Hop] = []
        let tracker = try client.perform(
            body, device: invocation.device, firstHop: [handler], deadline: deadline,
            onSent: { sent = TraceTree.Hop(envelope: $0, at: Timestamp.monotonic()) }
        ) {
            if invocation.trace { arrivals.append(TraceTree.Hop(envelope: $0, at: Timestamp.monotonic())) }
            if printing { output.print($0) }
        }
        if invocation.trace, let sent {
            for line in TraceTree(action: sent, caused: arrivals).lines() { print(line) }
        }
        return ActionOutcome(messages: tracker.received, status: tracker.errors.isEmpty ? ExitStatus.ok : ExitStatus.refused)
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
