import Glibc
import ProcessSupport
import Runtime
import ZeroMQ
import ZeroMQTransport

/// The common `main` of the three services.
public enum ServiceMain {
    /// Ends with its starter (`ParentWatch`), reads the command line (the common `--help` and
    /// `--version`, and `options`) and the configuration from the environment, makes the handler
    /// and runs it as service `name` until SIGTERM/SIGINT. Returns the exit status (2 for a bad
    /// command line or configuration, 1 when the handler cannot be made). `--help` lists
    /// `options` and `environment`, then `notes`. `makeHandler` throws `ConfigError` for a setting
    /// that cannot be used (status 2), anything else when the service cannot start (status 1).
    public static func run<Handler: ServiceHandler>(
        name: String, options: [ProgramOption] = [], environment: [EnvironmentVariable] = EnvironmentVariable.connection,
        notes: String = "", arguments: ArraySlice<String> = CommandLine.arguments.dropFirst(),
        makeHandler: (BusConfig, Log, [ParsedOption]) throws -> Handler
    ) -> Int32 {
        let parsed: [ParsedOption]
        switch ProgramStart.begin(name: name, options: options, arguments: arguments, help: {
            ProgramHelp(
                usage: ([name] + options.map { "[\($0.synopsis)]" }).joined(separator: " "),
                summary: "Runs the \(name) service on the bus.", options: [.help, .version] + options,
                environment: environment, notes: notes
            )
        }) {
        case .run(let read): parsed = read
        case .exit(let status): return status
        }
        let config: BusConfig
        do {
            config = try BusConfig.fromEnvironment(component: name)
        } catch {
            Log.standardError("\(name): \(error)\n")
            return 2
        }
        let log = Log(service: name, level: config.logLevel, format: config.logFormat)
        log.info(config.securitySummary)
        let handler: Handler
        do {
            handler = try makeHandler(config, log, parsed)
        } catch let error as ConfigError {
            // A setting the handler reads (DEVICE_IDLE_EXPIRY_SECONDS) is configuration too.
            Log.standardError("\(name): \(error)\n")
            return 2
        } catch {
            log.error("cannot start: \(error)")
            return 1
        }
        let context: ZMQContext
        do {
            context = try ZMQContext()
        } catch {
            log.error("cannot start: \(error)")
            return 1
        }
        let runtime = ServiceRuntime(name: name, handler: handler, config: config)
        let status = runtime.run { subscriptions in
            try BusConnection(context: context, config: config, service: name, subscriptions: subscriptions, lingerMilliseconds: 500)
        }
        // The last messages sent (or their linger over) before the others are told this
        // instance is gone: they take over from what it sent last.
        context.terminate()
        handler.leave()
        return status
    }

    /// `run` for a service whose handler needs none of the parsed options.
    public static func run<Handler: ServiceHandler>(
        name: String, options: [ProgramOption] = [], environment: [EnvironmentVariable] = EnvironmentVariable.connection,
        notes: String = "", arguments: ArraySlice<String> = CommandLine.arguments.dropFirst(),
        makeHandler: (BusConfig, Log) throws -> Handler
    ) -> Int32 {
        run(name: name, options: options, environment: environment, notes: notes, arguments: arguments) { config, log, _ in
            try makeHandler(config, log)
        }
    }
}
