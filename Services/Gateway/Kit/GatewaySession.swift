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
        let firstHop: [String]
        var device = invocation.device
        switch invocation.command {
        case .roster, .rosterBackup: firstHop = [MonsterBus.Service.roster]
        case .forget(let forgotten):
            firstHop = MonsterBus.Service.all
            device = forgotten
        default: firstHop = [MonsterBus.Service.presentationPolicy]
        }
        try ensureAnswering(firstHop.count == 1 && firstHop[0] == MonsterBus.Service.roster ? firstHop : MonsterBus.Service.all, deadline: deadline)
        let tracker = try client.perform(body, device: device, firstHop: firstHop, deadline: deadline) {
            if printing { output.print($0) }
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
