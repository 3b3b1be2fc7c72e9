/// An environment variable a Monster Bus executable reads, declared once: every `--help` that
/// reads it lists it from here, and the README's configuration table is checked against
/// `EnvironmentVariable.all`.
public struct EnvironmentVariable: Sendable, Equatable {
    /// Its name, e.g. `BUS_HWM`.
    public let name: String
    /// Its default as one would type it; `nil` when unset means off or none.
    public let defaultValue: String?
    /// What it sets, in a line.
    public let meaning: String

    /// A variable `name` with default `defaultValue` that sets what `meaning` says.
    public init(_ name: String, default defaultValue: String?, _ meaning: String) {
        self.name = name; self.defaultValue = defaultValue; self.meaning = meaning
    }

    /// Its line in `--help`: the meaning and the default.
    public var helpLine: String {
        meaning + (defaultValue.map { " (default \($0))" } ?? "")
    }
}

extension EnvironmentVariable {
    static let busFrontend = EnvironmentVariable(
        "BUS_FRONTEND", default: "tcp://127.0.0.1:5555", "where publishers connect: the bus binds XSUB there")
    static let busBackend = EnvironmentVariable(
        "BUS_BACKEND", default: "tcp://127.0.0.1:5556", "where subscribers connect: the bus binds XPUB there")
    static let heartbeatInterval = EnvironmentVariable(
        "HEARTBEAT_INTERVAL_MS", default: "1000", "heartbeat interval; a service is stale after 3")
    static let maxMessageBytes = EnvironmentVariable(
        "BUS_MAX_MESSAGE_BYTES", default: "65536", "largest message accepted (larger frames are refused at the bus's socket)")
    static let highWaterMark = EnvironmentVariable(
        "BUS_HWM", default: "100000", "messages queued per peer before a publisher must wait")
    static let actionTimeToLive = EnvironmentVariable(
        "ACTION_TTL_MS", default: "30000", "an older action is refused as overloaded; a send blocked this long is dropped")
    static let clockSkew = EnvironmentVariable(
        "CLOCK_SKEW_MS", default: "1000", "a message time further ahead of this clock is refused")
    static let idempotenceWindow = EnvironmentVariable(
        "IDEMPOTENCE_WINDOW", default: "10000", "message ids remembered to answer repeats as duplicates")
    static let shutdownDeadline = EnvironmentVariable(
        "SHUTDOWN_DEADLINE_MS", default: "2000", "after SIGTERM, stop handling (the bus: passing on) what had arrived after this long; a second signal leaves at once")
    static let logLevel = EnvironmentVariable(
        "LOG_LEVEL", default: "info", "debug, info, warn or error (logs go to stderr)")
    static let logFormat = EnvironmentVariable(
        "LOG_FORMAT", default: "text", "text, or json: one OpenTelemetry log record per line")
    static let keysFolder = EnvironmentVariable(
        "BUS_KEYS_DIR", default: nil, "CURVE keys folder (gateway keys init DIR); unset: plaintext")
    static let clientCertificate = EnvironmentVariable(
        "BUS_CLIENT_CERT", default: "$BUS_KEYS_DIR/NAME.key_secret", "this component's secret certificate")
    static let serverKey = EnvironmentVariable(
        "BUS_SERVER_KEY", default: "read from $BUS_KEYS_DIR/bus.key", "the bus's public key in Z85")
    static let parentProcess = EnvironmentVariable(
        "MONSTERBUS_PARENT_PID", default: nil, "exit as soon as the process with this pid (the starter) is gone")
    static let busProxy = EnvironmentVariable(
        "BUS_PROXY", default: nil, "zmq_proxy: libzmq's proxy, without roles, checks or limits (benchmark only)")
    static let deviceIdleExpiry = EnvironmentVariable(
        "DEVICE_IDLE_EXPIRY_SECONDS", default: "2592000", "forget a device unused this long (30 days)")
    static let rosterDatabase = EnvironmentVariable(
        "ROSTER_DB", default: "roster.db", "the SQLite database file; beside it ROSTER_DB.acknowledged")
    static let rosterReset = EnvironmentVariable(
        "ROSTER_RESET", default: nil, "1: start a new, empty database on purpose (as --reset)")
    static let etcdEndpoints = EnvironmentVariable(
        "ETCD_ENDPOINTS", default: nil, "etcd's client URL: turns on sharding among instances (docs/scaling.md)")
    static let instanceID = EnvironmentVariable(
        "INSTANCE_ID", default: "host name and pid", "this instance's name among its service's")
    static let shardLeaseTimeToLive = EnvironmentVariable(
        "SHARD_LEASE_TTL_SECONDS", default: "3", "membership lease TTL: a lost instance's devices move within it")
    static let monitorAddress = EnvironmentVariable(
        "MONITOR_ADDRESS", default: "http://127.0.0.1:8080", "where to serve HTTP (port 0: any free port)")
    static let gatewayDevice = EnvironmentVariable(
        "GATEWAY_DEVICE", default: "ipad", "the device when --device is not given")
    static let gatewayTimeout = EnvironmentVariable(
        "GATEWAY_TIMEOUT", default: "5", "seconds to wait when --timeout is not given")
    static let gatewayRetry = EnvironmentVariable(
        "GATEWAY_RETRY_MS", default: nil, "resend an action nothing answered within this many ms (same id), until the timeout")
    static let noColor = EnvironmentVariable(
        "NO_COLOR", default: nil, "set: no colours (they are used only on a terminal)")

    /// What every component that connects to the bus reads (`BusConfig`, `CurveSettings`, `ParentWatch`).
    public static let connection: [EnvironmentVariable] = [
        busFrontend, busBackend, heartbeatInterval, maxMessageBytes, highWaterMark, actionTimeToLive, clockSkew,
        idempotenceWindow, shutdownDeadline, logLevel, logFormat, keysFolder, clientCertificate, serverKey, parentProcess,
    ]
    /// The bus's: the connection's and the benchmark's proxy switch.
    public static let bus = connection + [busProxy]
    /// A service's that holds device state and can be sharded (presentation-policy, input-handling).
    public static let shardedService = connection + [deviceIdleExpiry, etcdEndpoints, instanceID, shardLeaseTimeToLive]
    /// roster's: its database and when it forgets devices.
    public static let roster = connection + [deviceIdleExpiry, rosterDatabase, rosterReset]
    /// The monitor's: the connection's and where it serves HTTP.
    public static let monitor = connection + [monitorAddress]
    /// The gateway's: the connection's and its defaults for the command line.
    public static let gateway = connection + [gatewayDevice, gatewayTimeout, gatewayRetry, noColor]

    /// Every variable any executable reads, each once (the README's configuration table lists these).
    public static let all: [EnvironmentVariable] = {
        var seen: [EnvironmentVariable] = []
        for variable in bus + shardedService + roster + monitor + gateway where !seen.contains(variable) { seen.append(variable) }
        return seen
    }()
}
