import Domain
import Foundation
import Glibc
import ProcessSupport
import Runtime
import Wire


/// The gateway CLI: parses the command line, runs one command and returns the exit status.
public enum Gateway {
    /// Runs the gateway with `arguments` (without the program name) in `environment`. With
    /// `--embedded` (and for `gateway test`, once per file), `embedded` starts the services in this
    /// process and gives the gateway's connection to them (the executable links them; without it,
    /// running in memory is refused).
    public static func run(
        _ arguments: [String], environment: [String: String], embedded: EmbeddedStack.Start? = nil
    ) -> Int32 {
        let invocation: Invocation
        do {
            invocation = try CommandLineParser.parse(arguments, environment: environment)
        } catch {
            reportUsage(error)
            return ExitStatus.usage
        }
        switch invocation.command {
        case .help(let topic):
            print(topic.flatMap(GatewayCommands.command(named:)).map(GatewayHelp.text(for:)) ?? GatewayHelp.overview)
            return ExitStatus.ok
        case .version:
            print("gateway \(MonsterBus.version)")
            return ExitStatus.ok
        case .completion:
            print(CompletionScript.bash, terminator: "")
            return ExitStatus.ok
        case .keys(let request):
            return KeysCommand.run(request)
        case .contract:
            return ContractCommand.run()
        default:
            break
        }
        let config: BusConfig
        do {
            config = try BusConfig.fromEnvironment(environment, component: MonsterBus.Service.gateway)
        } catch {
            Log.standardError("gateway: \(error)\n")
            return ExitStatus.transport
        }
        if case .test(let request) = invocation.command {
            return ScenarioTestCommand(request: request, invocation: invocation, environment: environment, config: config, embedded: embedded).run()
        }
        let colors = isatty(1) != 0 && (environment["NO_COLOR"] ?? "").isEmpty
        let output = Output(json: invocation.json, formatter: HumanFormatter(colors: colors))
        do {
            // A watcher sees every client's messages; any other command only its own answers.
            let watching = if case .watch = invocation.command { true } else { false }
            let client: GatewayClient
            var started: EmbeddedStack?
            defer { started?.stop() }
            if invocation.embedded {
                guard let embedded else { throw UsageError("--embedded is not available in this build") }
                let stack = try embedded(config)
                started = stack
                client = GatewayClient(transport: stack.transport, config: config)
            } else {
                do {
                    client = try GatewayClient(config: config, watching: watching)
                } catch {
                    throw TransportError("cannot connect to the bus at BUS_FRONTEND=\(config.frontend), BUS_BACKEND=\(config.backend): \(error)")
                }
            }
            client.retryInterval = invocation.retryInterval
            let session = GatewaySession(client: client, output: output)
            switch invocation.command {
            case .watch(let types, let count):
                return try WatchCommand.run(invocation, types: types, count: count, session: session)
            case .run(let path):
                return try runScenario(path, invocation: invocation, environment: environment, session: session)
            case .shell:
                return runShell(invocation: invocation, environment: environment, session: session)
            default:
                return try session.execute(invocation).status
            }
        } catch let error as UsageError {
            reportUsage(error)
            return ExitStatus.usage
        } catch {
            Log.standardError("gateway: \(error)\n")
            return ExitStatus.of(error)
        }
    }

    private static func reportUsage(_ error: UsageError) {
        let usage = error.command.flatMap(GatewayCommands.command(named:)).map { "usage: gateway [OPTIONS] \($0.usage)" }
            ?? "usage: gateway [OPTIONS] COMMAND [ARGS]   (gateway --help lists the commands)"
        Log.standardError("gateway: \(error.description)\n\(usage)\n")
    }

    private static func runScenario(_ path: String, invocation: Invocation, environment: [String: String], session: GatewaySession) throws -> Int32 {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw FileError("cannot read the scenario file '\(path)'")
        }
        let steps: [ScenarioStep]
        do {
            steps = try ScenarioParser.parse(text)
        } catch {
            throw UsageError("\(path): \(error.description)", command: "run")
        }
        let json = invocation.json
        var runner = ScenarioRunner(
            source: path, perform: ScenarioLines(invocation: invocation, environment: environment, session: session).perform,
            say: { if !json { print($0) } }, complain: { Log.standardError("gateway: \($0)\n") })
        return runner.run(steps)
    }

    private static func runShell(invocation: Invocation, environment: [String: String], session: GatewaySession) -> Int32 {
        let interactive = isatty(0) != 0
        let json = invocation.json
        var runner = ScenarioRunner(
            source: "shell", perform: ScenarioLines(invocation: invocation, environment: environment, session: session).perform,
            say: { if !json && !$0.hasPrefix("$ ") { print($0) } }, complain: { Log.standardError("\($0)\n") })
        var number = 0
        var status = ExitStatus.ok
        if interactive { print("Monster Bus shell for device \(invocation.device): actions as after `gateway`, expectations, `exit`.") }
        while true {
            if interactive { print("\(invocation.device)> ", terminator: "") }
            guard let line = readLine() else { break }
            number += 1
            let words = (try? ScenarioParser.split(line)) ?? []
            if words == ["exit"] || words == ["quit"] { break }
            do {
                for step in try ScenarioParser.parse(line) {
                    status = runner.step(ScenarioStep(line: number, kind: step.kind)) ?? ExitStatus.ok
                }
            } catch {
                Log.standardError("shell:\(number): \(error.description)\n")
                status = ExitStatus.usage
            }
        }
        return status
    }
}

/// Where results go: JSON lines, or human lines.
struct Output {
    let json: Bool
    let formatter: HumanFormatter
    /// Prints nothing (`gateway test`: a line per file, not per message).
    var silent = false
    private let codec = EnvelopeCodec()

    init(json: Bool, formatter: HumanFormatter, silent: Bool = false) {
        self.json = json; self.formatter = formatter; self.silent = silent
    }

    /// Prints `envelope` in the chosen form, at once (a pipe reader sees each line as it happens);
    /// returns whether a line was printed (people get none for bookkeeping such as acks).
    @discardableResult
    func print(_ envelope: Envelope, describingRequests: Bool = false) -> Bool {
        if silent {
            return false
        } else if json {
            // What it prints was decoded or sent, so it encodes; a number that is not finite would not.
            do {
                Swift.print(String(decoding: try codec.encode(envelope), as: UTF8.self))
            } catch {
                Log.standardError("gateway: \(error)\n")
            }
        } else if let line = formatter.line(for: envelope, describingRequests: describingRequests) {
            Swift.print(line)
        } else {
            return false
        }
        fflush(nil)
        return true
    }
}
