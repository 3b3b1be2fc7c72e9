import Foundation
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

/// A whole Monster Bus running as real processes: the bus and the three services, on
/// `ipc://` endpoints in a fresh temporary folder, or on ephemeral TCP ports the bus reports.
final class Stack {
    enum Transport { case ipc, tcp }

    let folder: URL
    private(set) var frontend = ""
    private(set) var backend = ""
    private(set) var processes: [String: ChildProcess] = [:]
    var extraEnvironment: [String: String] = [:]

    static let services = ["presentation-policy", "roster", "input-handling"]

    /// Starts the bus and, unless `services` is empty, the services; waits until they answer.
    init(transport: Transport = .ipc, services: [String] = Stack.services, environment: [String: String] = [:]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("monster-bus-e2e-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        extraEnvironment = environment
        switch transport {
        case .ipc:
            frontend = "ipc://\(folder.path)/frontend"
            backend = "ipc://\(folder.path)/backend"
            try start("bus")
        case .tcp:
            frontend = "tcp://127.0.0.1:*"
            backend = "tcp://127.0.0.1:*"
            let bus = try start("bus")
            // The bus logs the ports it was given: read them back.
            let endpoints = bus.waitForLine(timeout: 10) { line -> (String, String)? in
                guard let xsub = line.range(of: "XSUB "), let xpub = line.range(of: ", subscribers to XPUB ") else { return nil }
                return (String(line[xsub.upperBound..<xpub.lowerBound]), String(line[xpub.upperBound...]))
            }
            guard let endpoints else { throw StackError("the bus never reported its endpoints: \(bus.stderr)") }
            (frontend, backend) = endpoints
        }
        for service in services { try start(service) }
        if !services.isEmpty { try waitUntilAnswering(services) }
    }

    deinit {
        stopAll()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The environment every process of this stack gets.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["BUS_FRONTEND"] = frontend
        environment["BUS_BACKEND"] = backend
        environment["ROSTER_DB"] = folder.appendingPathComponent("roster.db").path
        environment["HEARTBEAT_INTERVAL_MS"] = "200"
        environment["NO_COLOR"] = "1"
        environment.removeValue(forKey: "GATEWAY_DEVICE")
        for (key, value) in extraEnvironment { environment[key] = value }
        return environment
    }

    /// Starts (or restarts) the executable `name` of this stack, with `arguments`.
    @discardableResult
    func start(_ name: String, arguments: [String] = []) throws -> ChildProcess {
        let child = try ChildProcess(
            name: name, executable: Products.url(name), arguments: arguments, environment: environment,
            logFile: folder.appendingPathComponent("\(name)-\(processes.count).log"))
        processes[name] = child
        return child
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
    func startGateway(_ arguments: [String], outputFile: URL) throws -> ChildProcess {
        try ChildProcess(
            name: "gateway", executable: Products.url("gateway"), arguments: arguments, environment: environment,
            logFile: folder.appendingPathComponent("gateway-\(UUID().uuidString.prefix(6)).log"), outputFile: outputFile)
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

    func stopAll() {
        for child in processes.values { child.signal(SIGTERM) }
        for child in processes.values where child.waitForExit(timeout: 5) == nil {
            child.signal(SIGKILL)
            _ = child.waitForExit(timeout: 5)
        }
    }
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
