import Domain

/// Settings read from the environment (12-factor), with defaults for a laptop.
public struct BusConfig: Sendable {
    /// Where publishers connect; the bus binds XSUB here (`BUS_FRONTEND`). Two endpoints,
    /// comma-separated, for a pair of buses (`buses()`).
    public var frontend: String
    /// Where subscribers connect; the bus binds XPUB here (`BUS_BACKEND`). Two endpoints,
    /// comma-separated, in the same order as `frontend`'s, for a pair of buses.
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
        let buses = try config.buses()
        if binds && buses.count > 1 {
            throw ConfigError("\(EnvironmentVariable.busFrontend.name)=\(config.frontend) lists \(buses.count) buses: a bus binds one endpoint of each (each bus of a pair is a process of its own)")
        }
        for bus in buses {
            try BusEndpoint.check(bus.frontend, variable: EnvironmentVariable.busFrontend.name, binds: binds)
            try BusEndpoint.check(bus.backend, variable: EnvironmentVariable.busBackend.name, binds: binds)
        }
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

extension BusConfig {
    /// The most buses a process connects to: a pair.
    public static let mostBuses = 2

    /// The endpoints of each bus this process connects to, bus A first: `frontend` and `backend`
    /// each name one endpoint, or list two, comma-separated, in the same order (a pair of buses,
    /// every message published to both and its second copy dropped on receipt: docs/scaling.md).
    /// Lists of different lengths, more than two buses, an empty entry or a bus named twice are
    /// refused, naming the variable.
    public func buses() throws(ConfigError) -> [(frontend: String, backend: String)] {
        let frontends = Self.entries(frontend), backends = Self.entries(backend)
        let front = EnvironmentVariable.busFrontend.name, back = EnvironmentVariable.busBackend.name
        for (variable, value, entries) in [(front, frontend, frontends), (back, backend, backends)] {
            if entries.contains(where: \.isEmpty) { throw ConfigError("\(variable)=\(value) has an empty entry: list one endpoint, or two separated by a comma") }
            if entries.count > Self.mostBuses { throw ConfigError("\(variable)=\(value) lists \(entries.count) buses: at most \(Self.mostBuses) (a pair)") }
            if Set(entries).count < entries.count { throw ConfigError("\(variable)=\(value) names the same endpoint twice: a pair is two buses") }
        }
        guard frontends.count == backends.count else {
            throw ConfigError("\(front) lists \(frontends.count) bus(es) and \(back) \(backends.count): both list the same buses in the same order")
        }
        return Array(zip(frontends, backends)).map { (frontend: $0.0, backend: $0.1) }
    }

    /// The comma-separated entries of `value`, without the spaces around them.
    private static func entries(_ value: String) -> [String] {
        value.split(separator: ",", omittingEmptySubsequences: false).map { entry in
            let start = entry.drop { $0 == " " }
            return String(start.reversed().drop { $0 == " " }.reversed())
        }
    }
}

/// A configuration value that cannot be used, and why.
public struct ConfigError: Error, CustomStringConvertible {
    /// What is wrong with the value, naming its variable (e.g. `LOG_LEVEL must be …`).
    public let description: String
    /// An error explained by `description`.
    public init(_ description: String) { self.description = description }
}
