import Domain
import Foundation
import Glibc
import ProcessSupport
import Runtime
import Wire


/// The gateway CLI: parses the command line, runs one command and returns the exit status.
public enum Gateway {
    /// Runs the gateway with `arguments` (without the program name) in `environment`. With
    /// `--embedded`, `embedded` starts the services in this process and gives the gateway's
    /// connection to them (the executable links them; without it, `--embedded` is refused).
    public static func run(
        _ arguments: [String], environment: [String: String], embedded: ((BusConfig) throws -> any BusTransport)? = nil
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
        let colors = isatty(1) != 0 && (environment["NO_COLOR"] ?? "").isEmpty
        let output = Output(json: invocation.json, formatter: HumanFormatter(colors: colors))
        do {
            if case .screen(let out?) = invocation.command { try ScreenCommand.checkWritable(out) }
            // A watcher sees every client's messages; any other command only its own answers.
            let watching = if case .watch = invocation.command { true } else { false }
            let client: GatewayClient
            if invocation.embedded {
                guard let embedded else { throw UsageError("--embedded is not available in this build") }
                client = GatewayClient(transport: try embedded(config), config: config)
            } else {
                do {
                    client = try GatewayClient(config: config, watching: watching)
                } catch {
                    throw TransportError("cannot connect to the bus at BUS_FRONTEND=\(config.frontend), BUS_BACKEND=\(config.backend): \(error)")
                }
            }
            client.retryInterval = environment["GATEWAY_RETRY_MS"].flatMap(Double.init).flatMap { $0 > 0 ? $0 / 1000 : nil }
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

    /// How one scenario or shell line is run: parsed like a command line, with the run's device
    /// and timeout as defaults, printed the run's way. A device's profile travels only with its
    /// first action in the run, and again when it changes or after the device is forgotten:
    /// the services keep the profile a device was created with.
    private static func lineRunner(
        invocation: Invocation, environment: [String: String], session: GatewaySession
    ) -> ([String]) throws -> ActionOutcome {
        var defaults = environment
        defaults["GATEWAY_DEVICE"] = invocation.device
        defaults["GATEWAY_TIMEOUT"] = String(invocation.timeout)
        // The profile each device was last sent with in this run.
        var described: [String: DeviceProfile] = [:]
        return { words in
            var line = try CommandLineParser.parse(words, environment: defaults)
            if line.profile == nil && line.device == invocation.device { line.profile = invocation.profile }
            switch line.command {
            case .run, .shell, .watch, .completion, .keys, .contract, .help, .version:
                throw UsageError("\(words.first ?? "") cannot be used inside a scenario")
            case .forget(let device):
                described[device] = nil
                return try session.execute(line)
            case .tap, .rotate, .resize, .resizeMode, .select, .interaction, .describe, .screen:
                let profile = line.profile
                if let profile, described[line.device] == profile { line.profile = nil }
                let outcome = try session.execute(line)
                if let profile { described[line.device] = profile }
                return outcome
            default:
                return try session.execute(line)
            }
        }
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
            source: path, perform: lineRunner(invocation: invocation, environment: environment, session: session),
            say: { if !json { print($0) } }, complain: { Log.standardError("gateway: \($0)\n") })
        return runner.run(steps)
    }

    private static func runShell(invocation: Invocation, environment: [String: String], session: GatewaySession) -> Int32 {
        let interactive = isatty(0) != 0
        let json = invocation.json
        var runner = ScenarioRunner(
            source: "shell", perform: lineRunner(invocation: invocation, environment: environment, session: session),
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
    private let codec = EnvelopeCodec()

    init(json: Bool, formatter: HumanFormatter) {
        self.json = json; self.formatter = formatter
    }

    /// Prints `envelope` in the chosen form, at once (a pipe reader sees each line as it happens);
    /// returns whether a line was printed (people get none for bookkeeping such as acks).
    @discardableResult
    func print(_ envelope: Envelope, describingRequests: Bool = false) -> Bool {
        if json {
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
