import Foundation
import Glibc

/// The bus and services of Monster Bus as processes, their logs and the roster's database in
/// one temporary folder: what the end-to-end tests' `Stack` and the bench's `BenchStack` share.
/// The bus is started first (on ephemeral TCP ports, read back from its log, unless given
/// endpoints), every other process with its endpoints in the environment; `stopAll` stops the
/// services, then the buses.
public final class ProcessStack {
    /// Endpoints whose port the system picks (the bus logs the real ones).
    public static let ephemeral = "tcp://127.0.0.1:*"

    /// Where the executables are.
    public let directory: String
    /// The temporary folder: logs and the roster's database.
    public let folder: String
    /// The environment every process gets, before its endpoints and its own additions.
    public var environment: [String: String]
    /// The stack's bus's endpoints, as it reported them (a pair's listed, bus A first).
    public private(set) var frontend = ProcessStack.ephemeral
    /// The backend of the same bus (the services' side).
    public private(set) var backend = ProcessStack.ephemeral
    /// Each bus's endpoints: the stack's bus, or a pair's (`startBusPair`), bus A first.
    public private(set) var busEndpoints: [(frontend: String, backend: String)] = []
    /// Every process started, by its log name (the last one started under each).
    public private(set) var processes: [String: ChildProcess] = [:]
    private var buses: Set<String> = []
    private var starts = 0

    /// Creates the temporary folder (`folderPrefix` and six random characters); starts nothing.
    public init(directory: String, folderPrefix: String, environment: [String: String]) throws {
        self.directory = directory
        self.environment = environment
        folder = try makeTemporaryFolder(folderPrefix)
    }

    /// The environment of a process of this stack on `endpoints` (default: the stack's bus),
    /// with `extra` added last.
    public func environment(endpoints: (String, String)? = nil, extra: [String: String] = [:]) -> [String: String] {
        var environment = self.environment
        environment["BUS_FRONTEND"] = endpoints?.0 ?? frontend
        environment["BUS_BACKEND"] = endpoints?.1 ?? backend
        environment["ROSTER_DB"] = folder + "/roster.db"
        environment.merge(extra) { $1 }
        return environment
    }

    /// Starts the stack's bus on `endpoints` and takes the endpoints it reports as the stack's.
    @discardableResult
    public func startBus(on endpoints: (String, String) = (ephemeral, ephemeral), environment extra: [String: String] = [:]) throws -> BusProcess {
        let bus = try startBus(logName: "bus", endpoints: endpoints, extra: extra)
        (frontend, backend) = (bus.frontend, bus.backend)
        busEndpoints = [(bus.frontend, bus.backend)]
        return bus
    }

    /// The log names of a pair's buses, bus A first.
    public static let pairNames = ["bus", "bus-b"]

    /// Starts a pair of buses (docs/scaling.md), `bus` on the first `endpoints` and `bus-b` on
    /// the second, and takes both as the stack's, listed bus A first. Bus B is left down when
    /// `startingSecond` is false (its endpoints then cannot be ephemeral).
    public func startBusPair(on endpoints: [(String, String)], startingSecond: Bool = true, environment extra: [String: String] = [:]) throws {
        guard endpoints.count == 2 else { throw ProcessError("a pair is two buses, not \(endpoints.count)") }
        let first = try startBus(logName: Self.pairNames[0], endpoints: endpoints[0], extra: extra)
        var second = (frontend: endpoints[1].0, backend: endpoints[1].1)
        if startingSecond {
            let bus = try startBus(logName: Self.pairNames[1], endpoints: endpoints[1], extra: extra)
            second = (bus.frontend, bus.backend)
        }
        busEndpoints = [(first.frontend, first.backend), second]
        (frontend, backend) = ("\(first.frontend),\(second.frontend)", "\(first.backend),\(second.backend)")
    }

    /// Starts one more bus, logging as `logName`, on ephemeral ports with `extra` environment.
    public func startExtraBus(logName: String, environment extra: [String: String] = [:]) throws -> BusProcess {
        try startBus(logName: logName, endpoints: (Self.ephemeral, Self.ephemeral), extra: extra)
    }

    private func startBus(logName: String, endpoints: (String, String), extra: [String: String]) throws -> BusProcess {
        let process = try start("bus", logName: logName, endpoints: endpoints, environment: extra)
        guard (endpoints.0 + endpoints.1).contains("*") else { return BusProcess(process: process, frontend: endpoints.0, backend: endpoints.1) }
        // The bus logs the endpoints it was given ("XSUB …, subscribers to XPUB …"): read them back.
        let reported = process.waitForLine(timeout: 10) { line -> (String, String)? in
            guard let xsub = line.firstRange(of: "XSUB "), let xpub = line.firstRange(of: ", subscribers to XPUB ") else { return nil }
            return (String(line[xsub.upperBound..<xpub.lowerBound]), String(line[xpub.upperBound...]))
        }
        guard let reported else { throw ProcessError("\(logName) never reported its endpoints:\n\(process.logTail())") }
        return BusProcess(process: process, frontend: reported.0, backend: reported.1)
    }

    /// Starts (or restarts) the executable `name` of this stack (or `executable`), logging as
    /// `logName` (default: `name`), on `endpoints` (default: the stack's bus), with `extra`
    /// environment and, if given, standard output to `outputPath`.
    @discardableResult
    public func start(
        _ name: String, arguments: [String] = [], executable: String? = nil, logName: String? = nil, endpoints: (String, String)? = nil,
        environment extra: [String: String] = [:], outputPath: String? = nil
    ) throws -> ChildProcess {
        starts += 1
        let logName = logName ?? name
        let child = try ChildProcess(
            name: logName, executable: executable ?? directory + "/" + name, arguments: arguments,
            environment: environment(endpoints: endpoints, extra: extra), logPath: "\(folder)/\(logName)-\(starts).log", outputPath: outputPath)
        processes[logName] = child
        if name == "bus" && executable == nil { buses.insert(logName) } else { buses.remove(logName) }
        return child
    }

    /// Stops every process (SIGTERM, then SIGKILL after `timeout` seconds): the services and
    /// the other processes first, the buses last.
    public func stopAll(timeout: Double = 5) {
        let others = processes.filter { !self.buses.contains($0.key) }.values
        let buses = processes.filter { self.buses.contains($0.key) }.values
        for group in [Array(others), Array(buses)] {
            // One SIGTERM each (a second would make a service leave at once, its drain cut short).
            for child in group { child.signal(SIGTERM) }
            for child in group where child.waitForExit(timeout: timeout) == nil {
                child.signal(SIGKILL)
                _ = child.waitForExit(timeout: timeout)
            }
        }
    }

    /// Removes the temporary folder and all it holds.
    public func removeFolder() {
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// A bus process with the endpoints it serves.
public struct BusProcess {
    /// The bus's process.
    public let process: ChildProcess
    /// Where publishers connect, as the bus reported it.
    public let frontend: String
    /// Where subscribers connect, as the bus reported it.
    public let backend: String
}
