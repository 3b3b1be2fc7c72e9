/// An environment variable a Monster Bus executable reads, declared once: every `--help` that
/// reads it lists it from here, and docs/configuration.md's table is checked against
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
    /// `BUS_FRONTEND`.
    public static let busFrontend = EnvironmentVariable(
        "BUS_FRONTEND", default: "tcp://127.0.0.1:5555", "where publishers connect: the bus binds XSUB there; two, comma-separated, for a pair of buses")
    /// `BUS_BACKEND`.
    public static let busBackend = EnvironmentVariable(
        "BUS_BACKEND", default: "tcp://127.0.0.1:5556", "where subscribers connect: the bus binds XPUB there; two, in the same order, for a pair")
    /// `HEARTBEAT_INTERVAL_MS`.
    public static let heartbeatInterval = EnvironmentVariable(
        "HEARTBEAT_INTERVAL_MS", default: "1000", "heartbeat interval; a service is stale after 3")
    /// `BUS_MAX_MESSAGE_BYTES`.
    public static let maxMessageBytes = EnvironmentVariable(
        "BUS_MAX_MESSAGE_BYTES", default: "65536", "largest message accepted (larger frames are refused at the bus's socket)")
    /// `BUS_HWM`.
    public static let highWaterMark = EnvironmentVariable(
        "BUS_HWM", default: "100000", "messages queued per peer before a publisher must wait")
    /// `ACTION_TTL_MS`.
    public static let actionTimeToLive = EnvironmentVariable(
        "ACTION_TTL_MS", default: "30000", "an older action is refused as overloaded; a send blocked this long is dropped")
    /// `CLOCK_SKEW_MS`.
    public static let clockSkew = EnvironmentVariable(
        "CLOCK_SKEW_MS", default: "1000", "a message time further ahead of this clock is refused")
    /// `IDEMPOTENCE_WINDOW`.
    public static let idempotenceWindow = EnvironmentVariable(
        "IDEMPOTENCE_WINDOW", default: "10000", "message ids remembered to answer repeats as duplicates")
    /// `SHUTDOWN_DEADLINE_MS`.
    public static let shutdownDeadline = EnvironmentVariable(
        "SHUTDOWN_DEADLINE_MS", default: "2000", "after SIGTERM, stop handling (the bus: passing on) what had arrived after this long; a second signal leaves at once")
    /// `LOG_LEVEL`.
    public static let logLevel = EnvironmentVariable(
        "LOG_LEVEL", default: "info", "debug, info, warn or error (logs go to stderr)")
    /// `LOG_FORMAT`.
    public static let logFormat = EnvironmentVariable(
        "LOG_FORMAT", default: "text", "text, or json: one OpenTelemetry log record per line")
    /// `BUS_KEYS_DIR`.
    public static let keysFolder = EnvironmentVariable(
        "BUS_KEYS_DIR", default: nil, "CURVE keys folder (gateway keys init DIR); unset: plaintext")
    /// `BUS_CLIENT_CERT`.
    public static let clientCertificate = EnvironmentVariable(
        "BUS_CLIENT_CERT", default: "$BUS_KEYS_DIR/NAME.key_secret", "this component's secret certificate")
    /// `BUS_SERVER_KEY`.
    public static let serverKey = EnvironmentVariable(
        "BUS_SERVER_KEY", default: "read from $BUS_KEYS_DIR/bus.key", "the bus's public key in Z85")
    /// `MONSTERBUS_PARENT_PID`.
    public static let parentProcess = EnvironmentVariable(
        "MONSTERBUS_PARENT_PID", default: nil, "exit as soon as the process with this pid (the starter) is gone")
    /// `BUS_PROXY`.
    public static let busProxy = EnvironmentVariable(
        "BUS_PROXY", default: nil, "zmq_proxy: libzmq's proxy, without roles, checks or limits (benchmark only)")
    /// `DEVICE_IDLE_EXPIRY_SECONDS`.
    public static let deviceIdleExpiry = EnvironmentVariable(
        "DEVICE_IDLE_EXPIRY_SECONDS", default: "2592000", "forget a device unused for longer than this (30 days)")
    /// `ROSTER_DB`.
    public static let rosterDatabase = EnvironmentVariable(
        "ROSTER_DB", default: "roster.db", "the SQLite database file; beside it ROSTER_DB.acknowledged")
    /// `ROSTER_RESET`.
    public static let rosterReset = EnvironmentVariable(
        "ROSTER_RESET", default: nil, "1: start a new, empty database on purpose (as --reset)")
    /// `ROSTER_BACKUP_DIR`.
    public static let rosterBackupFolder = EnvironmentVariable(
        "ROSTER_BACKUP_DIR", default: "backups beside ROSTER_DB", "the one folder gateway roster backup FILE may write in")
    /// `ETCD_ENDPOINTS`.
    public static let etcdEndpoints = EnvironmentVariable(
        "ETCD_ENDPOINTS", default: nil, "every etcd member's client URL, comma-separated: turns on sharding among instances (docs/scaling.md)")
    /// `ETCD_TLS_CA`.
    public static let etcdTLSAuthority = EnvironmentVariable(
        "ETCD_TLS_CA", default: "the system's", "with https:// members: the PEM certificate authority etcd's certificates must chain to")
    /// `ETCD_TLS_CERT`.
    public static let etcdTLSCertificate = EnvironmentVariable(
        "ETCD_TLS_CERT", default: nil, "with https:// members: the PEM client certificate to present (etcd's --client-cert-auth)")
    /// `ETCD_TLS_KEY`.
    public static let etcdTLSKey = EnvironmentVariable(
        "ETCD_TLS_KEY", default: nil, "the PEM private key of ETCD_TLS_CERT")
    /// `INSTANCE_ID`.
    public static let instanceID = EnvironmentVariable(
        "INSTANCE_ID", default: "host name and pid", "this instance's name among its service's")
    /// `SHARD_LEASE_TTL_SECONDS`.
    public static let shardLeaseTimeToLive = EnvironmentVariable(
        "SHARD_LEASE_TTL_SECONDS", default: "3", "membership lease TTL: a lost instance's devices move within it")
    /// `MONITOR_ADDRESS`.
    public static let monitorAddress = EnvironmentVariable(
        "MONITOR_ADDRESS", default: "http://127.0.0.1:8080", "where to serve HTTP (port 0: any free port)")
    /// `MONITOR_HEALTH_ADDRESS`.
    public static let monitorHealthAddress = EnvironmentVariable(
        "MONITOR_HEALTH_ADDRESS", default: "MONITOR_ADDRESS's host, its port + 1",
        "a listener of its own for /healthz and /metrics, which the page's clients cannot fill")
    /// `MONITOR_MAX_CONNECTIONS`.
    public static let monitorMaxConnections = EnvironmentVariable(
        "MONITOR_MAX_CONNECTIONS", default: "2048", "connections held at once on the page's listener; more wait in the system's queue")
    /// `MONITOR_MAX_CONNECTIONS_PER_ADDRESS`.
    public static let monitorMaxConnectionsPerAddress = EnvironmentVariable(
        "MONITOR_MAX_CONNECTIONS_PER_ADDRESS", default: "128", "connections held at once from one client address; more are closed at once")
    /// `MONITOR_MAX_STREAMS`.
    public static let monitorMaxStreams = EnvironmentVariable(
        "MONITOR_MAX_STREAMS", default: "1024", "/events streams open at once; the next is answered 503 with Retry-After")
    /// `MONITOR_REQUEST_TIMEOUT_SECONDS`.
    public static let monitorRequestTimeout = EnvironmentVariable(
        "MONITOR_REQUEST_TIMEOUT_SECONDS", default: "5", "silence allowed before a request has arrived whole (and between requests)")
    /// `GATEWAY_DEVICE`.
    public static let gatewayDevice = EnvironmentVariable(
        "GATEWAY_DEVICE", default: "ipad", "the device when --device is not given")
    /// `GATEWAY_TIMEOUT`.
    public static let gatewayTimeout = EnvironmentVariable(
        "GATEWAY_TIMEOUT", default: "5", "seconds to wait when --timeout is not given")
    /// `GATEWAY_RETRY_MS`.
    public static let gatewayRetry = EnvironmentVariable(
        "GATEWAY_RETRY_MS", default: nil, "resend an action nothing answered within this many ms (same id), until the timeout; 0: never")
    /// `NO_COLOR`.
    public static let noColor = EnvironmentVariable(
        "NO_COLOR", default: nil, "set: no colours (they are used only on a terminal)")

    /// What every component that connects to the bus reads (`BusConfig`, `CurveSettings`, `ParentWatch`).
    public static let connection: [EnvironmentVariable] = [
        busFrontend, busBackend, heartbeatInterval, maxMessageBytes, highWaterMark, actionTimeToLive, clockSkew,
        idempotenceWindow, shutdownDeadline, logLevel, logFormat, keysFolder, clientCertificate, serverKey, parentProcess,
    ]
    /// The bus's: the connection's and the benchmark's proxy switch.
    public static let bus = connection + [busProxy]
    /// A service's that holds device state and can be sharded (presentation-policy, input-handling).
    public static let shardedService = connection + [deviceIdleExpiry] + sharding
    /// What turns sharding on and sets it up, read by the sharded services and the roster.
    public static let sharding = [etcdEndpoints, etcdTLSAuthority, etcdTLSCertificate, etcdTLSKey, instanceID, shardLeaseTimeToLive]
    /// roster's: its database and when it forgets devices.
    public static let roster = connection + [deviceIdleExpiry, rosterDatabase, rosterReset, rosterBackupFolder]
    /// The monitor's: the connection's, where it serves HTTP and its limits.
    public static let monitor = connection + [
        monitorAddress, monitorHealthAddress, monitorMaxConnections, monitorMaxConnectionsPerAddress, monitorMaxStreams,
        monitorRequestTimeout,
    ]
    /// The gateway's: the connection's and its defaults for the command line.
    public static let gateway = connection + [gatewayDevice, gatewayTimeout, gatewayRetry, noColor]

    /// Every variable any executable reads, each once (docs/configuration.md's table lists these).
    public static let all: [EnvironmentVariable] = {
        var seen: [EnvironmentVariable] = []
        for variable in bus + shardedService + roster + monitor + gateway where !seen.contains(variable) { seen.append(variable) }
        return seen
    }()
}
