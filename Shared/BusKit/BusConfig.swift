#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
    /// CURVE keys (`BUS_KEYS_DIR`, `BUS_CLIENT_CERT`, `BUS_SERVER_KEY`); `nil`: plaintext.
    public var curve: CurveSettings?

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
        _ environment: [String: String] = ProcessInfo.processInfo.environment, component: String? = nil
    ) throws(ConfigError) -> BusConfig {
        var config = BusConfig()
        if let value = environment["BUS_FRONTEND"], !value.isEmpty { config.frontend = value }
        if let value = environment["BUS_BACKEND"], !value.isEmpty { config.backend = value }
        if let value = environment["HEARTBEAT_INTERVAL_MS"], !value.isEmpty {
            guard let number = Int(value), (10...60_000).contains(number) else {
                throw ConfigError("HEARTBEAT_INTERVAL_MS must be a number of milliseconds from 10 to 60000, not '\(value)'")
            }
            config.heartbeatIntervalMilliseconds = number
        }
        if let value = environment["BUS_MAX_MESSAGE_BYTES"], !value.isEmpty {
            guard let number = Int(value), (1024...16_777_216).contains(number) else {
                throw ConfigError("BUS_MAX_MESSAGE_BYTES must be from 1024 to 16777216, not '\(value)'")
            }
            config.maxMessageBytes = number
        }
        if let value = environment["LOG_LEVEL"], !value.isEmpty {
            guard let level = LogLevel(rawValue: value.lowercased()) else {
                throw ConfigError("LOG_LEVEL must be debug, info, warn or error, not '\(value)'")
            }
            config.logLevel = level
        }
        config.curve = try CurveSettings.fromEnvironment(environment, component: component)
        return config
    }
}

/// A configuration value that cannot be used, and why.
public struct ConfigError: Error, CustomStringConvertible {
    public let description: String
    /// An error explained by `description`.
    public init(_ description: String) { self.description = description }
}
