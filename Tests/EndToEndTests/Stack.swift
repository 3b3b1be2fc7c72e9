import Foundation
import Processes
import Testing

/// The project's built executables (next to the test bundle).
enum Products {
    static let directory: URL = {
        var candidate = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            if FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("gateway").path) { return candidate }
            candidate = candidate.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL
    }()

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }
}

/// A whole Monster Bus running as real processes (`ProcessStack`): the bus and the three
/// services, on `ipc://` endpoints in a fresh temporary folder, or on ephemeral TCP ports the bus reports.
final class Stack {
    enum Transport { case ipc, tcp }
    /// One bus, or a pair (docs/scaling.md), both running or (on `ipc://`) bus B down at the start.
    enum Buses { case one, pair, pairWithBusBDown }

    private let stack: ProcessStack
    var extraEnvironment: [String: String] = [:]

    static let services = ["presentation-policy", "roster", "input-handling"]

    /// Starts the bus and, unless `services` is empty, the services; waits until they answer.
    init(transport: Transport = .ipc, buses: Buses = .one, services: [String] = Stack.services, environment: [String: String] = [:]) throws {
        var base = ProcessInfo.processInfo.environment
        base["HEARTBEAT_INTERVAL_MS"] = "200"
        base["NO_COLOR"] = "1"
        base.removeValue(forKey: "GATEWAY_DEVICE")
        stack = try ProcessStack(directory: Products.directory.path, folderPrefix: "monster-bus-e2e-", environment: base)
        extraEnvironment = environment
        switch (transport, buses) {
        case (.ipc, .one): try stack.startBus(on: ("ipc://\(stack.folder)/frontend", "ipc://\(stack.folder)/backend"), environment: extraEnvironment)
        case (.tcp, .one): try stack.startBus(environment: extraEnvironment)
        case (.ipc, _):
            let endpoints = ["", "-b"].map { ("ipc://\(stack.folder)/frontend\($0)", "ipc://\(stack.folder)/backend\($0)") }
            try stack.startBusPair(on: endpoints, startingSecond: buses == .pair, environment: extraEnvironment)
        case (.tcp, .pair): try stack.startBusPair(on: [(ProcessStack.ephemeral, ProcessStack.ephemeral), (ProcessStack.ephemeral, ProcessStack.ephemeral)], environment: extraEnvironment)
        case (.tcp, .pairWithBusBDown): throw StackError("bus B down at the start needs endpoints known before it runs: ipc://")
        }
        for service in services { try start(service) }
        if !services.isEmpty { try waitUntilAnswering(services) }
    }

    /// The whole stack on CURVE with the certificates in `keys` (kept as long as the stack), over
    /// TCP on ephemeral ports.
    convenience init(curve keys: KeysFolder, buses: Buses = .one, services: [String] = Stack.services, environment: [String: String] = [:]) throws {
        try self.init(transport: .tcp, buses: buses, services: services, environment: environment.merging(["BUS_KEYS_DIR": keys.path]) { $1 })
        self.keys = keys
    }

    /// The certificates of a stack on CURVE.
    private(set) var keys: KeysFolder?

    deinit {
        stopAll()
        stack.removeFolder()
    }

    /// The temporary folder: endpoints, logs, the roster's database.
    var folder: URL { URL(fileURLWithPath: stack.folder) }
    var frontend: String { stack.frontend }
    var backend: String { stack.backend }
    /// Each bus's endpoints: the stack's bus, or a pair's, bus A first.
    var busEndpoints: [(frontend: String, backend: String)] { stack.busEndpoints }
    /// Every process started, by name (the last one started under each).
    var processes: [String: ChildProcess] { stack.processes }

    /// The environment every process of this stack gets.
    var environment: [String: String] { stack.environment(extra: extraEnvironment) }

    /// Starts (or restarts) the executable `name` of this stack, with `arguments`.
    @discardableResult
    func start(_ name: String, arguments: [String] = []) throws -> ChildProcess {
        try stack.start(name, arguments: arguments, environment: extraEnvironment)
    }

    /// Starts (or restarts) the bus logging as `logName` on its endpoints: the stack's bus
    /// (`bus`), or bus B of a pair (`bus-b`).
    @discardableResult
    func startBus(_ logName: String) throws -> ChildProcess {
        let index = ProcessStack.pairNames.firstIndex(of: logName) ?? 0
        return try stack.start("bus", logName: logName, endpoints: stack.busEndpoints[index], environment: extraEnvironment)
    }

    /// Waits (deterministically: pings through the bus) until `services` answer.
    func waitUntilAnswering(_ services: [String]) throws {
        let result = try gateway(["--timeout", "15", "ping"] + services)
        guard result.status == 0 else {
            throw StackError("services did not answer: \(result.stderr)\n" + processes.values.map { "\($0.name): \($0.stderr)" }.joined(separator: "\n"))
        }
    }

    /// Runs the gateway with `arguments` against this stack.
    func gateway(_ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:]) throws -> CommandResult {
        var environment = self.environment
        for (key, value) in extra { environment[key] = value }
        return try runToCompletion(Products.url("gateway"), arguments, environment: environment, stdin: stdin)
    }

    /// Starts a gateway that keeps running (e.g. `watch`), its stdout kept in `outputFile`.
    func startGateway(_ arguments: [String], outputFile: URL, environment extra: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess(
            name: "gateway", executable: Products.url("gateway").path, arguments: arguments,
            environment: environment.merging(extra) { $1 },
            logPath: folder.appendingPathComponent("gateway-\(UUID().uuidString.prefix(6)).log").path, outputPath: outputFile.path)
    }

    /// `gateway --json --device DEVICE ARGUMENTS…`.
    func json(_ device: String, _ arguments: String...) throws -> CommandResult {
        try gateway(["--json", "--device", device] + arguments)
    }

    /// Sends `signal` to `name` and waits for it to exit; returns its status.
    @discardableResult
    func stop(_ name: String, signal: Int32 = SIGTERM, timeout: TimeInterval = 10) -> Int32? {
        guard let child = processes[name] else { return nil }
        child.signal(signal)
        return child.waitForExit(timeout: timeout)
    }

    /// Stops every process: the services (and others), then the bus.
    func stopAll() { stack.stopAll() }
}

struct StackError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `dictionary[path]` for a dotted path such as `presentation.anchor.element`.
func value(_ object: [String: Any]?, _ path: String) -> Any? {
    var current: Any? = object
    for key in path.split(separator: ".") {
        current = (current as? [String: Any])?[String(key)]
    }
    return current
}
