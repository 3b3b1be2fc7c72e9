import Domain

/// Settings read from the environment (12-factor), with defaults for a laptop.
public struct BusConfig: Sendable {
    /// Where publishers connect; the bus binds XSUB here (`BUS_FRONTEND`).
    public var frontend: String
    /// Where subscribers connect; the bus binds XPUB here (`BUS_BACKEND`).
    public var backend: String
    /// Interval between heartbeats (`HEARTBEAT_INTERVAL_MS`).
    public var heartbeatIntervalMilliseconds: Int
    /// Largest JSON frame accepted (`BUS_MAX_MESSAGE_BYTES`).
    public var maxMessageBytes: Int
    /// Least severe log level written (`LOG_LEVEL`: debug, info, warn, error).
    public var logLevel: LogLevel
    /// Text lines or OpenTelemetry JSON records (`LOG_FORMAT`: text, json).
    public var logFormat: LogFormat = .text
    /// CURVE keys (`BUS_KEYS_DIR`, `BUS_CLIENT_CERT`, `BUS_SERVER_KEY`); `nil`: plaintext.
    public var curve: CurveSettings?
    /// Messages a socket queues per peer before it pushes back (`BUS_HWM`): publishers wait
    /// rather than drop, so a consumer that falls this far behind slows its producers.
    public var highWaterMark: Int32 = 100_000
    /// How long an action may wait on the bus before a service refuses it as overloaded, and how
    /// long a blocked send is retried before it is given up and counted (`ACTION_TTL_MS`).
    public var actionTimeToLiveMilliseconds: Int = 30_000
    /// How far a message's `time` may be ahead of a service's clock before it is refused
    /// (`CLOCK_SKEW_MS`).
    public var clockSkewMilliseconds: Int = 1000
    /// How many handled message ids a service remembers to answer repeats as duplicates
    /// (`IDEMPOTENCE_WINDOW`), each for its time to live.
    public var idempotenceWindow: Int = 10_000
    /// How long a service may go on handling what had reached it after SIGTERM, and the bus
    /// passing on what it had forwarded, before it leaves anyway (`SHUTDOWN_DEADLINE_MS`); a
    /// second signal makes it leave at once.
    public var shutdownDeadlineMilliseconds: Int = 2000

    /// The defaults: `tcp://127.0.0.1:5555` and `:5556`, heartbeat every second, 64 KiB frames.
    public init(
        frontend: String = "tcp://127.0.0.1:5555", backend: String = "tcp://127.0.0.1:5556",
        heartbeatIntervalMilliseconds: Int = 1000, maxMessageBytes: Int = 65_536, logLevel: LogLevel = .info
    ) {
        self.frontend = frontend; self.backend = backend
        self.heartbeatIntervalMilliseconds = heartbeatIntervalMilliseconds
        self.maxMessageBytes = maxMessageBytes; self.logLevel = logLevel
    }

    /// The configuration in `environment` (the process's by default) for `component` (`bus`,
    /// a service's name or `gateway`: it names the default certificate); bad values are reported.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessEnvironment.current, component: String? = nil
    ) throws(ConfigError) -> BusConfig {
        var config = BusConfig()
        if let value = environment[EnvironmentVariable.busFrontend.name], !value.isEmpty { config.frontend = value }
        if let value = environment[EnvironmentVariable.busBackend.name], !value.isEmpty { config.backend = value }
        let binds = component == MonsterBus.Service.bus
        try BusEndpoint.check(config.frontend, variable: EnvironmentVariable.busFrontend.name, binds: binds)
        try BusEndpoint.check(config.backend, variable: EnvironmentVariable.busBackend.name, binds: binds)
        func integer(_ variable: EnvironmentVariable, _ range: ClosedRange<Int>, _ unit: String) throws(ConfigError) -> Int? {
            guard let value = environment[variable.name], !value.isEmpty else { return nil }
            guard let number = Int(value), range.contains(number) else {
                throw ConfigError("\(variable.name) must be \(unit) from \(range.lowerBound) to \(range.upperBound), not '\(value)'")
            }
            return number
        }
        if let number = try integer(EnvironmentVariable.heartbeatInterval, 10...60_000, "a number of milliseconds") {
            config.heartbeatIntervalMilliseconds = number
        }
        if let number = try integer(EnvironmentVariable.maxMessageBytes, 1024...16_777_216, "a number of bytes") {
            config.maxMessageBytes = number
        }
        if let number = try integer(EnvironmentVariable.highWaterMark, 100...10_000_000, "a number of messages") {
            config.highWaterMark = Int32(number)
        }
        if let number = try integer(EnvironmentVariable.actionTimeToLive, 10...3_600_000, "a number of milliseconds") {
            config.actionTimeToLiveMilliseconds = number
        }
        if let number = try integer(EnvironmentVariable.clockSkew, 0...600_000, "a number of milliseconds") {
            config.clockSkewMilliseconds = number
        }
        if let number = try integer(EnvironmentVariable.idempotenceWindow, 100...10_000_000, "a number of message ids") {
            config.idempotenceWindow = number
        }
        if let number = try integer(EnvironmentVariable.shutdownDeadline, 0...3_600_000, "a number of milliseconds") {
            config.shutdownDeadlineMilliseconds = number
        }
        if let value = environment[EnvironmentVariable.logLevel.name], !value.isEmpty {
            guard let level = LogLevel(rawValue: value.lowercased()) else {
                throw ConfigError("LOG_LEVEL must be debug, info, warn or error, not '\(value)'")
            }
            config.logLevel = level
        }
        if let value = environment[EnvironmentVariable.logFormat.name], !value.isEmpty {
            guard let format = LogFormat(rawValue: value.lowercased()) else {
                throw ConfigError("LOG_FORMAT must be text or json, not '\(value)'")
            }
            config.logFormat = format
        }
        config.curve = try CurveSettings.fromEnvironment(environment, component: component)
        return config
    }
}

/// A configuration value that cannot be used, and why.
public struct ConfigError: Error, CustomStringConvertible {
    /// What is wrong with the value, naming its variable (e.g. `LOG_LEVEL must be …`).
    public let description: String
    /// An error explained by `description`.
    public init(_ description: String) { self.description = description }
}
