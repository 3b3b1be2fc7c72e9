import Domain
import ProcessSupport

/// A gateway command, parsed.
public enum GatewayCommand: Sendable, Equatable {
    /// `tap ELEMENT` or `tap --at X,Y`: taps an element, a monster's row or a point.
    case tap(Tap)
    /// `rotate portrait|landscape`: turns the device.
    case rotate(Orientation)
    /// `resize compact|regular`: an iPad window's width class.
    case resize(SizeClass)
    /// `resize slide-over|split-view|split-view-wide|split-view-half|full-screen`: an iPad window's multitasking mode.
    case resizeMode(WindowMode)
    /// `select NAME`: picks a monster in the roster list.
    case select(String)
    /// `interaction ELEMENT on|off`: a view's user interaction.
    case interaction(element: String, enabled: Bool)
    /// `describe`: the device's whole state.
    case describe
    /// `roster`: every monster.
    case roster
    /// `roster backup FILE`: roster copies its database, while it runs, to FILE (absolute, in roster's file system).
    case rosterBackup(String)
    /// `forget DEVICE`: every service drops the device's state now.
    case forget(String)
    /// `status`: the services, as the bus hears them.
    case status
    /// `ping [SERVICE…]`: waits until these services (default: all, and the bus) answer through the bus.
    case ping([String])
    /// `watch [--type PREFIX]… [--count N]`: prints what passes on the bus.
    case watch(types: [String], count: Int?)
    /// `run FILE`: a scenario file of actions and expectations.
    case run(String)
    /// `test [PATH…]`: every scenario file under the paths, each expectation reported.
    case test(ScenarioTestRequest)
    /// `shell`: actions and expectations read line by line from standard input.
    case shell
    /// `screen [--out FILE]`: the device's screen as SVG (or PNG).
    case screen(out: String?)
    /// `completion bash`: the shell completion script.
    case completion(String)
    /// `keys init DIR [--force | --if-missing]`: creates CURVE certificates.
    case keys(KeysRequest)
    /// `contract`: prints the AsyncAPI document of the bus (docs/asyncapi.yaml).
    case contract
    /// `help [COMMAND]`: the whole help, or one command's.
    case help(String?)
    /// `version`: prints the gateway's version.
    case version

    /// The device action this command sends, if it is one.
    public func action(profile: DeviceProfile?) -> Body? {
        switch self {
        case .tap(var tap):
            tap.profile = profile
            return .tap(tap)
        case .rotate(let orientation): return .rotate(Rotate(orientation: orientation, profile: profile))
        case .resize(let width): return .resize(Resize(width: width, profile: profile))
        case .resizeMode(let mode): return .resize(Resize(mode: mode, profile: profile))
        case .select(let name): return .select(Select(monster: name, profile: profile))
        case .interaction(let element, let enabled):
            return .interaction(Interaction(element: element, enabled: enabled, profile: profile))
        case .describe: return .describe(Describe(profile: profile))
        case .roster: return .snapshotRequest(SnapshotRequest())
        case .rosterBackup(let path): return .backupRequest(BackupRequest(path: path))
        case .forget: return .forget(Forget())
        case .status, .ping, .watch, .run, .test, .shell, .screen, .completion, .keys, .contract, .help, .version: return nil
        }
    }
}

/// Everything a gateway call was asked to do.
public struct Invocation: Sendable, Equatable {
    /// The simulated device's id (`--device`, default `ipad`).
    public var device: String
    /// Whether `--device` was given (watch filters by device only then).
    public var deviceGiven: Bool
    /// Its description, sent so services can create it the first time; `nil` for a device
    /// that must already exist.
    public var profile: DeviceProfile?
    /// Print envelopes as JSON lines (`--json`).
    public var json: Bool
    /// Seconds to wait for the services' answers (`--timeout`, default 5).
    public var timeout: Double
    /// The command to run, with its arguments parsed.
    public var command: GatewayCommand
    /// Print the tree of what each action caused, with per-hop latencies (`--trace`).
    public var trace: Bool
    /// How `watch` prints messages (`--format human|json|cloudevents`; `--json` is `json`).
    public var format: WatchFormat
    /// Whether `watch` checks each message against the AsyncAPI contract (`--validate`).
    public var validate: Bool
    /// Run the real cores inside the gateway, with no bus or services (`--embedded`).
    public var embedded: Bool
    /// Seconds after which an action not complete is sent again with the same id
    /// (`GATEWAY_RETRY_MS`; nil: never).
    public var retryInterval: Double?

    /// An invocation from its parts.
    public init(
        device: String = "ipad", deviceGiven: Bool = false, profile: DeviceProfile? = .ipad, json: Bool = false,
        timeout: Double = 5, command: GatewayCommand, trace: Bool = false, format: WatchFormat? = nil, validate: Bool = false,
        embedded: Bool = false, retryInterval: Double? = nil
    ) {
        self.device = device; self.deviceGiven = deviceGiven; self.profile = profile; self.json = json
        self.timeout = timeout; self.command = command
        self.trace = trace; self.format = format ?? (json ? .json : .human); self.validate = validate
        self.embedded = embedded; self.retryInterval = retryInterval
    }
}

/// How `gateway watch` prints each message.
public enum WatchFormat: String, Sendable, CaseIterable {
    /// A readable line per message (the default).
    case human
    /// The JSON envelope, one per line (as `--json`).
    case json
    /// A CloudEvents 1.0 event in its JSON format, one per line.
    case cloudevents
}

/// A command line the gateway cannot run, with the reason (exit status 2).
public struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What is wrong with the command line, printed before the usage.
    public let description: String
    /// The command whose usage to show with the reason, if known.
    public let command: String?
    /// An error saying `description` about `command`.
    public init(_ description: String, command: String? = nil) {
        self.description = description; self.command = command
    }
}

/// The bus cannot be reached as configured: a bad `BUS_FRONTEND`/`BUS_BACKEND` endpoint, CURVE
/// keys missing or wrong, or another bad bus setting (exit status 4).
public struct TransportError: Error, CustomStringConvertible {
    /// What is wrong, naming the setting or file.
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

/// A file the command reads or writes cannot be: an unreadable scenario, an unwritable
/// `screen --out` or `keys init` folder (exit status 5).
public struct FileError: Error, CustomStringConvertible {
    /// What is wrong, naming the file.
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

/// The gateway's exit statuses, one per kind of error.
public enum ExitStatus {
    /// Everything answered and nothing was refused.
    public static let ok: Int32 = 0
    /// A service refused the action (an `error` message), or an expectation failed.
    public static let refused: Int32 = 1
    /// The command line is wrong.
    public static let usage: Int32 = 2
    /// The bus or a service did not answer in time.
    public static let timeout: Int32 = 3
    /// The bus cannot be reached as configured (`TransportError`).
    public static let transport: Int32 = 4
    /// A file cannot be read or written (`FileError`).
    public static let file: Int32 = 5

    /// Every status with its meaning, for the help (docs/gateway.md's Exit status lists the same).
    public static let meanings: [(status: Int32, meaning: String)] = [
        (ok, "ok"),
        (refused, "refused by a service, or a failed expectation"),
        (usage, "usage error (with the usage)"),
        (timeout, "the bus or a service did not answer in time"),
        (transport, "the bus cannot be reached as configured: a bad BUS_FRONTEND or BUS_BACKEND endpoint, CURVE keys missing or wrong, or another bad bus setting"),
        (file, "a file cannot be read or written: the scenario of run or test, the FILE of screen --out or test --junit, the DIR of keys init"),
    ]

    /// The status of `error`; a kind not named above (ZeroMQ's, the configuration's) is the
    /// connection's to the bus.
    public static func of(_ error: any Error) -> Int32 {
        switch error {
        case is UsageError: usage
        case is NoAnswer: timeout
        case is FileError: file
        default: transport
        }
    }
}
