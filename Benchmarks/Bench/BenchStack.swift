// The processes under test: the bus on ephemeral TCP ports, the three services, and the raw
// echo (this executable again, with `--raw-echo`), all in one temporary folder.

import BusKit
import Glibc
import MonsterKit

final class BenchStack {
    /// Where the executables are: next to this one (`.build/release`).
    let directory: String
    /// The temporary folder: logs and the roster's database.
    let folder: String
    /// The bus's real endpoints, as it reported them.
    private(set) var frontend = ""
    private(set) var backend = ""
    private(set) var bus: ChildProcess!
    private(set) var services: [String: ChildProcess] = [:]
    private(set) var echo: ChildProcess?
    /// The Python peer and its own bus, when started (`startPeer`).
    private(set) var peer: (process: ChildProcess, bus: ChildProcess)?
    /// Buses started for the proxy-cost comparison.
    private var extraBuses: [ChildProcess] = []
    private var starts = 0

    /// The services started, in order.
    static let serviceNames = MonsterBus.Service.all

    /// The services this stack started.
    let serviceNames: [String]

    /// Starts the bus, reads its endpoints from its log, then `services` and, with `echo`, the
    /// raw echo.
    init(services serviceNames: [String] = BenchStack.serviceNames, echo withEcho: Bool = true) throws {
        directory = Self.executableDirectory()
        self.serviceNames = serviceNames
        for name in ["bus"] + serviceNames where access(directory + "/" + name, X_OK) != 0 {
            throw BenchError("\(directory)/\(name) is missing: build everything first (swift build -c release)")
        }
        var template = Array("/tmp/monster-bench-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchError("cannot create a temporary folder: \(String(cString: strerror(errno)))")
        }
        folder = String(cString: made)
        Children.register(folder: folder)

        frontend = "tcp://127.0.0.1:*"
        backend = "tcp://127.0.0.1:*"
        // The bus reports its endpoints at level info (the services run at warn).
        bus = try start("bus", logLevel: "info")
        let endpoints = bus.waitForLogLine(timeout: 10) { line -> (String, String)? in
            guard let xsub = line.firstRange(of: "XSUB "), let xpub = line.firstRange(of: ", subscribers to XPUB ") else { return nil }
            return (String(line[xsub.upperBound..<xpub.lowerBound]), String(line[xpub.upperBound...]))
        }
        guard let endpoints else { throw BenchError("the bus never reported its endpoints:\n\(bus.logTail())") }
        (frontend, backend) = endpoints
        for name in serviceNames { services[name] = try start(name) }
        if withEcho { echo = try start("bench", arguments: ["--raw-echo"], logName: "raw-echo") }
    }

    /// Installs what the Python peer needs when missing (`Benchmarks/peer/setup`), then starts
    /// it: on a bus of its own (same executable and settings as this stack's) with `ownBus`, so
    /// that presentation-policy and the peer do not both answer the same `device.tap`; else on
    /// this stack's bus. Returns the endpoints its clients use.
    /// `setup: false` skips the installation when `BENCH_PYTHON` names the interpreter
    /// (`Scripts/callgrind` has installed, outside valgrind).
    func startPeer(ownBus: Bool, setup: Bool = true) throws -> (frontend: String, backend: String) {
        guard let peerFolder = Self.peerFolder(near: directory) else {
            throw BenchError("Benchmarks/peer is not found above \(directory)")
        }
        var python = Self.environment()["BENCH_PYTHON"] ?? ""
        if setup || python.isEmpty {
            let found = folder + "/python"
            let installer = try start("setup", arguments: [found], executable: peerFolder + "/setup", logName: "peer-setup")
            guard installer.waitForExit(timeout: 300) == 0, let path = readFile(found)?.split(separator: "\n").first else {
                throw BenchError("installing the Python peer's packages failed:\n\(installer.logTail())")
            }
            python = String(path)
        }
        var endpoints = (frontend, backend)
        var peerBus = bus!
        if ownBus {
            let started = try startExtraBus(logName: "peer-bus", extra: [:])
            (peerBus, endpoints) = (started.process, (started.frontend, started.backend))
        }
        let process = try start(
            "python3", arguments: [peerFolder + "/presentation_peer.py"], executable: python, logName: "presentation-peer",
            endpoints: endpoints)
        peer = (process, peerBus)
        return endpoints
    }

    /// Runs `Scripts/callgrind --no-build --json` (instructions per action of raw, product and
    /// peer, each on stacks of its own under valgrind); its JSON line and its table.
    func runCallgrind(actions: Int) throws -> (json: String, table: [String]) {
        guard let peerFolder = Self.peerFolder(near: directory) else { throw BenchError("the source tree is not found above \(directory)") }
        let root = String(peerFolder.dropLast("/Benchmarks/peer".count))
        let output = folder + "/callgrind.json"
        let script = try start(
            "callgrind", arguments: ["-c", "'\(root)/Scripts/callgrind' --no-build --json --actions \(actions) > '\(output)'"],
            executable: "/bin/bash", logName: "callgrind")
        guard script.waitForExit(timeout: 3_600) == 0, let json = readFile(output)?.split(separator: "\n").last else {
            throw BenchError("Scripts/callgrind failed:\n\(script.logTail(20))")
        }
        let table = script.log.split(separator: "\n").drop { !$0.hasPrefix("instructions per action") }.map(String.init)
        return (String(json), table)
    }

    /// `Benchmarks/peer` in the source tree holding the build folder `directory`.
    private static func peerFolder(near directory: String) -> String? {
        var folder = directory
        while let slash = folder.lastIndex(of: "/"), !folder.isEmpty {
            folder = String(folder[..<slash])
            let candidate = folder + "/Benchmarks/peer"
            if access(candidate + "/presentation_peer.py", R_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The configuration a client of this stack uses.
    var config: BusConfig {
        var config = BusConfig()
        config.frontend = frontend
        config.backend = backend
        config.logLevel = .warn
        return config
    }

    /// Every process with its pid, for memory and CPU readings.
    var processes: [(name: String, pid: pid_t)] {
        [("bus", bus.pid)] + serviceNames.map { ($0, services[$0]!.pid) } + (echo.map { [("raw-echo", $0.pid)] } ?? [])
    }

    /// Starts one more bus on ephemeral ports with `extra` environment (keys, `BUS_PROXY`), for the
    /// comparison of proxies; returns it with its real endpoints.
    func startExtraBus(logName: String, extra: [String: String]) throws -> (process: ChildProcess, frontend: String, backend: String) {
        let bus = try start("bus", logLevel: "info", logName: logName, endpoints: ("tcp://127.0.0.1:*", "tcp://127.0.0.1:*"), extra: extra)
        extraBuses.append(bus)
        let endpoints = bus.waitForLogLine(timeout: 10) { line -> (String, String)? in
            guard let xsub = line.firstRange(of: "XSUB "), let xpub = line.firstRange(of: ", subscribers to XPUB ") else { return nil }
            return (String(line[xsub.upperBound..<xpub.lowerBound]), String(line[xpub.upperBound...]))
        }
        guard let endpoints else { throw BenchError("\(logName) never reported its endpoints:\n\(bus.logTail())") }
        return (bus, endpoints.0, endpoints.1)
    }

    /// Starts one more process of this stack's executables (or `executable`), logging as
    /// `logName`, on `endpoints` (default: this stack's bus) with `extra` environment.
    func startService(
        _ name: String, executable: String? = nil, logName: String, endpoints: (String, String)?, extra: [String: String],
        arguments: [String] = []
    ) throws -> ChildProcess {
        try start(name, arguments: arguments, executable: executable, logName: logName, endpoints: endpoints, extra: extra)
    }

    /// Stops `name` and starts it again (fresh state); the caller handshakes again.
    func restart(_ name: String) throws {
        services[name]?.stop()
        services[name] = try start(name)
    }

    /// Raises an error naming every process that has died, with the end of its log.
    func checkAlive() throws {
        let dead = ([bus, echo, peer?.process, peer?.bus].compactMap { $0 } + Array(services.values)).filter { !$0.isRunning }
        guard dead.isEmpty else {
            throw BenchError("process(es) died: " + dead.map(\.name).joined(separator: ", ") + "\n"
                + dead.map { $0.logTail() }.joined(separator: "\n"))
        }
    }

    /// The end of every log, for error reports.
    var logTails: String {
        ([bus, echo, peer?.process].compactMap { $0 } + serviceNames.compactMap { services[$0] }).map { $0.logTail(5) }.joined(separator: "\n")
    }

    /// Stops everything (services first, the bus last) and removes the folder unless `keep`.
    func stop(keep: Bool) {
        echo?.stop()
        peer?.process.stop()
        for extra in extraBuses { extra.stop() }
        for name in serviceNames { services[name]?.stop() }
        bus?.stop()
        Children.register(folder: nil)
        if keep {
            Log.standardError("bench: logs kept in \(folder)\n")
        } else {
            Self.removeFolder(folder)
        }
    }

    private func start(
        _ name: String, arguments: [String] = [], executable: String? = nil, logLevel: String = "warn", logName: String? = nil,
        endpoints: (String, String)? = nil, extra: [String: String] = [:]
    ) throws -> ChildProcess {
        starts += 1
        var environment = Self.environment()
        environment["BUS_FRONTEND"] = endpoints?.0 ?? frontend
        environment["BUS_BACKEND"] = endpoints?.1 ?? backend
        environment.merge(extra) { $1 }
        environment["ROSTER_DB"] = folder + "/roster.db"
        environment["LOG_LEVEL"] = logLevel
        return try ChildProcess(
            name: logName ?? name, executable: executable ?? directory + "/" + name, arguments: arguments,
            environment: environment, logPath: "\(folder)/\(logName ?? name)-\(starts).log")
    }

    /// This process's environment.
    private static func environment() -> [String: String] {
        var environment: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            cursor += 1
        }
        return environment
    }

    /// The folder holding this executable.
    private static func executableDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = count > 0
            ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    /// Removes the files of `folder` (it has no subfolders), then the folder.
    static func removeFolder(_ folder: String) {
        guard let directory = opendir(folder) else { return }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { unlink(folder + "/" + name) }
        }
        closedir(directory)
        rmdir(folder)
    }
}
