import BusKit
import MonsterKit

#if canImport(Glibc)
import Glibc
#endif

/// The gateway CLI: parses the command line, runs one command and returns the exit status.
public enum Gateway {
    /// Runs the gateway with `arguments` (without the program name) in `environment`.
    public static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        let invocation: Invocation
        do {
            invocation = try CommandLineParser.parse(arguments, environment: environment)
        } catch {
            let usage = error.command.flatMap(GatewayHelp.command(named:)).map { "usage: gateway [OPTIONS] \($0.usage)" }
                ?? "usage: gateway [OPTIONS] COMMAND [ARGS]   (gateway --help lists the commands)"
            Log.standardError("gateway: \(error.description)\n\(usage)\n")
            return ExitStatus.usage
        }
        switch invocation.command {
        case .help(let topic):
            print(topic.flatMap(GatewayHelp.command(named:)).map(GatewayHelp.text(for:)) ?? GatewayHelp.overview)
            return ExitStatus.ok
        case .version:
            print("gateway \(MonsterBus.version)")
            return ExitStatus.ok
        case .keys(let request):
            return KeysCommand.run(request)
        default:
            break
        }
        let config: BusConfig
        do {
            config = try BusConfig.fromEnvironment(environment, component: MonsterBus.Service.gateway)
        } catch {
            Log.standardError("gateway: \(error)\n")
            return ExitStatus.usage
        }
        let colors = isatty(1) != 0 && (environment["NO_COLOR"] ?? "").isEmpty
        let output = Output(json: invocation.json, formatter: HumanFormatter(colors: colors))
        do {
            let client = try GatewayClient(config: config)
            let deadline = Timestamp.monotonic() + invocation.timeout
            switch invocation.command {
            case .status:
                return try StatusCommand.run(client: client, deadline: deadline, output: output)
            case .ping(let services):
                try client.handshake(services: services, deadline: deadline)
                if !invocation.json { print("answered: " + services.joined(separator: ", ")) }
                return ExitStatus.ok
            default:
                break
            }
            return try runAction(invocation, client: client, deadline: deadline, output: output)
        } catch let error as NoAnswer {
            Log.standardError("gateway: \(error.description)\n")
            return ExitStatus.timeout
        } catch {
            Log.standardError("gateway: \(error)\n")
            return ExitStatus.timeout
        }
    }

    /// Sends a device action (or a roster request) and prints everything it causes.
    static func runAction(_ invocation: Invocation, client: GatewayClient, deadline: Double, output: Output) throws -> Int32 {
        guard let body = invocation.command.action(profile: invocation.profile) else { return ExitStatus.usage }
        let handler = body.type == .snapshotRequest ? MonsterBus.Service.roster : MonsterBus.Service.presentationPolicy
        try client.handshake(services: body.type == .snapshotRequest ? [handler] : MonsterBus.Service.all, deadline: deadline)
        let tracker = try client.perform(body, device: invocation.device, firstHop: [handler], deadline: deadline) {
            output.print($0)
        }
        return tracker.errors.isEmpty ? ExitStatus.ok : ExitStatus.refused
    }
}

/// Where results go: JSON lines, or human lines.
struct Output {
    let json: Bool
    let formatter: HumanFormatter
    private let codec = EnvelopeCodec()

    init(json: Bool, formatter: HumanFormatter) {
        self.json = json; self.formatter = formatter
    }

    /// Prints `envelope` in the chosen form.
    func print(_ envelope: Envelope) {
        if json {
            Swift.print(String(decoding: codec.encode(envelope), as: UTF8.self))
        } else if let line = formatter.line(for: envelope) {
            Swift.print(line)
        }
    }
}
