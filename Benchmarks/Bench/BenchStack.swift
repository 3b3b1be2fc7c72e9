// The processes under test (`ProcessStack`): the bus on ephemeral TCP ports, the three services,
// and the raw echo (this executable again, with `--raw-echo`), all in one temporary folder.

import Domain
import Glibc
import ProcessSupport
import Processes

final class BenchStack {
    /// The bus, the services and the rest, in the temporary folder (logs, the roster's database).
    private let stack: ProcessStack
    /// Where the executables are: next to this one (`.build/release`).
    var directory: String { stack.directory }
    /// The temporary folder: logs and the roster's database.
    var folder: String { stack.folder }
    /// The bus's real endpoints, as it reported them.
    var frontend: String { stack.frontend }
    var backend: String { stack.backend }
    private(set) var bus: ChildProcess!
    private(set) var services: [String: ChildProcess] = [:]
    private(set) var echo: ChildProcess?
    /// The Python peer and its own bus, when started (`startPeer`).
    private(set) var peer: (process: ChildProcess, bus: ChildProcess)?

    /// The services started, in order.
    static let serviceNames = MonsterBus.Service.all

    /// The services this stack started.
    let serviceNames: [String]

    /// Starts the bus, reads its endpoints from its log, then `services` and, with `echo`, the
    /// raw echo (always this executable's). The bus and the services are those in `directory`
    /// (default: next to this executable; another tree's `.build/release` for a comparison).
    init(services serviceNames: [String] = BenchStack.serviceNames, echo withEcho: Bool = true, directory: String? = nil) throws {
        let directory = directory ?? Self.executableDirectory()
        self.serviceNames = serviceNames
        for name in ["bus"] + serviceNames where access(directory + "/" + name, X_OK) != 0 {
            throw BenchError("\(directory)/\(name) is missing: build everything first (swift build -c release)")
        }
        // The services run at warn; each bus at info, the level at which it reports its endpoints.
        var environment = Self.environment()
        environment["LOG_LEVEL"] = "warn"
        stack = try ProcessStack(directory: directory, folderPrefix: "monster-bench-", environment: environment)
        Children.register(folder: stack.folder)
        bus = try stack.startBus(environment: Self.busLevel).process
        for name in serviceNames { services[name] = try stack.start(name) }
        if withEcho {
            echo = try stack.start("bench", arguments: ["--raw-echo"], executable: Self.executableDirectory() + "/bench", logName: "raw-echo")
        }
    }

    /// The log level of every bus: info, where it reports its endpoints.
    private static let busLevel = ["LOG_LEVEL": "info"]

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
            let installer = try stack.start("setup", arguments: [found], executable: peerFolder + "/setup", logName: "peer-setup")
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
        let process = try stack.start(
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
        let script = try stack.start(
            "callgrind", arguments: ["-c", "'\(root)/Scripts/callgrind' --no-build --json --actions \(actions) > '\(output)'"],
            executable: "/bin/bash", logName: "callgrind")
        guard script.waitForExit(timeout: 3_600) == 0, let json = readFile(output)?.split(separator: "\n").last else {
            throw BenchError("Scripts/callgrind failed:\n\(script.logTail(20))")
        }
        let table = script.stderr.split(separator: "\n").drop { !$0.hasPrefix("instructions per action") }.map(String.init)
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
    func startExtraBus(logName: String, extra: [String: String]) throws -> BusProcess {
        try stack.startExtraBus(logName: logName, environment: extra.merging(Self.busLevel) { $1 })
    }

    /// Starts one more process of this stack's executables (or `executable`), logging as
    /// `logName`, on `endpoints` (default: this stack's bus) with `extra` environment.
    func startService(
        _ name: String, executable: String? = nil, logName: String, endpoints: (String, String)?, extra: [String: String],
        arguments: [String] = []
    ) throws -> ChildProcess {
        try stack.start(name, arguments: arguments, executable: executable, logName: logName, endpoints: endpoints, environment: extra)
    }

    /// Starts one more raw echo on `endpoints`, logging as `logName`, with `arguments` after
    /// `--raw-echo` (`--member K N`: one of N answering as sharded instances do).
    func startEcho(logName: String, endpoints: (String, String), arguments: [String] = []) throws -> ChildProcess {
        try stack.start(
            "bench", arguments: ["--raw-echo"] + arguments, executable: Self.executableDirectory() + "/bench", logName: logName,
            endpoints: endpoints, environment: [:])
    }

    /// Stops `name` and starts it again (fresh state); the caller handshakes again.
    func restart(_ name: String) throws {
        services[name]?.stop()
        services[name] = try stack.start(name)
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

    /// Stops everything (services first, the buses last) and removes the folder unless `keep`.
    func stop(keep: Bool) {
        stack.stopAll()
        Children.register(folder: nil)
        if keep {
            Log.standardError("bench: logs kept in \(folder)\n")
        } else {
            stack.removeFolder()
        }
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

}

/// A failure that ends the run, with what the user should know.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The whole contents of the file at `path`, or nil.
func readFile(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        bytes.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
}
