#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MonsterKit

/// The common `main` of the three services.
public enum ServiceMain {
    /// Ends with its starter (`ParentWatch`), reads the configuration from the environment, makes the handler and runs it as service
    /// `name` until SIGTERM/SIGINT. Returns the exit status (2 for a bad configuration, 1 when
    /// the handler cannot be made). `arguments` are the command line's, less the options the
    /// service reads itself (described in `extraUsage`).
    public static func run<Handler: ServiceHandler>(
        name: String, extraHelp: String = "", extraUsage: String = "",
        arguments: ArraySlice<String> = CommandLine.arguments.dropFirst(),
        makeHandler: (BusConfig, Log) throws -> Handler
    ) -> Int32 {
        ParentWatch.start()
        if arguments.contains("--version") {
            print("\(name) \(MonsterBus.version)")
            return 0
        }
        if arguments.contains("--help") || arguments.contains("-h") {
            print("""
                usage: \(name)\(extraUsage)
                Runs the \(name) service on the bus. Configuration comes from the environment:
                  BUS_FRONTEND           where publishers connect (default tcp://127.0.0.1:5555)
                  BUS_BACKEND            where subscribers connect (default tcp://127.0.0.1:5556)
                  HEARTBEAT_INTERVAL_MS  heartbeat interval (default 1000)
                  BUS_MAX_MESSAGE_BYTES  largest message accepted (default 65536)
                  ACTION_TTL_MS          an older message is refused as overloaded (default 30000)
                  CLOCK_SKEW_MS          a time further ahead of this clock is refused (default 1000)
                  IDEMPOTENCE_WINDOW     message ids remembered to answer repeats as duplicates (default 10000)
                  SHUTDOWN_DEADLINE_MS   after SIGTERM, handle what had arrived for at most this long (default 2000);
                                         a second signal leaves at once
                  LOG_LEVEL              debug, info, warn or error (default info)
                  LOG_FORMAT             text or json (OpenTelemetry log records, one per line; default text)
                  BUS_KEYS_DIR           CURVE keys folder (gateway keys init); unset: plaintext
                  BUS_CLIENT_CERT        own secret certificate (default $BUS_KEYS_DIR/\(name).key_secret)
                  BUS_SERVER_KEY         the bus's public key in Z85 (default from $BUS_KEYS_DIR/bus.key)
                """ + extraHelp)
            return 0
        }
        if let unknown = arguments.first {
            Log.standardError("\(name): unknown argument '\(unknown)' (try --help)\n")
            return 2
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
            handler = try makeHandler(config, log)
        } catch {
            log.error("cannot start: \(error)")
            return 1
        }
        return ServiceRuntime(name: name, handler: handler, config: config).run()
    }
}
