// Starting and stopping the processes under test, with posix_spawn (no Foundation `Process`:
// the bench stays as light as the services it measures).

import BusKit
import Dispatch
import Glibc
import MonsterKit
import Synchronization

/// One process started by the bench: its standard error goes to a log file, its standard
/// output to /dev/null.
final class ChildProcess {
    let name: String
    let pid: pid_t
    let logPath: String
    private var exited = false
    /// The wait status once the process has exited and been reaped.
    private(set) var status: Int32?

    /// Starts `executable` with `arguments` and `environment` (a complete environment).
    init(name: String, executable: String, arguments: [String] = [], environment: [String: String], logPath: String) throws {
        self.name = name
        self.logPath = logPath
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // The bench ignores SIGINT/SIGTERM itself (it catches them): give the child the defaults back.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        // Every executable started here exits when the bench dies, even by SIGKILL (`ParentWatch`).
        var environment = environment
        environment[ParentWatch.environmentVariable] = String(getpid())
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw BenchError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        Children.register(pid)
    }

    deinit { stop() }

    /// Whether the process is still running (reaps it if it has exited).
    var isRunning: Bool {
        guard !exited else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            exited = true
            self.status = status
            Children.unregister(pid)
        }
        return !exited
    }

    /// Sends SIGTERM, waits up to `timeout` seconds, then SIGKILL. Idempotent.
    func stop(timeout: Double = 5) {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = Timestamp.monotonic() + timeout
        while isRunning && Timestamp.monotonic() < deadline { usleep(5_000) }
        if isRunning {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            exited = true
            Children.unregister(pid)
        }
    }

    /// Waits up to `timeout` seconds for the process to end by itself; its exit code, or nil
    /// (killed by a signal, or still running: then it is stopped).
    func waitForExit(timeout: Double) -> Int32? {
        let deadline = Timestamp.monotonic() + timeout
        while isRunning && Timestamp.monotonic() < deadline { usleep(10_000) }
        guard !isRunning, let status, status & 0x7f == 0 else {
            stop()
            return nil
        }
        return (status >> 8) & 0xff
    }

    /// The log's contents (standard error so far).
    var log: String { readFile(logPath) ?? "" }

    /// The last `count` lines of the log, for error messages.
    func logTail(_ count: Int = 10) -> String {
        log.split(separator: "\n").suffix(count).map { "    \(name): \($0)" }.joined(separator: "\n")
    }

    /// Waits until a line of the log gives a value through `match`, for up to `timeout` seconds.
    /// The log is a file, so this polls it (every 5 ms): it only happens at start-up.
    func waitForLogLine<T>(timeout: Double, _ match: (Substring) -> T?) -> T? {
        let deadline = Timestamp.monotonic() + timeout
        repeat {
            for line in log.split(separator: "\n") {
                if let found = match(line) { return found }
            }
            if !isRunning { return nil }
            usleep(5_000)
        } while Timestamp.monotonic() < deadline
        return nil
    }
}

/// Every child still running, so that a signal to the bench (Ctrl-C, `kill`) stops them too.
enum Children {
    private static let pids = Mutex<Set<pid_t>>([])
    /// The signal sources, kept alive; only touched by `stopOnSignals`, once, at start-up.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    private static let folder = Mutex<String?>(nil)

    static func register(_ pid: pid_t) { pids.withLock { _ = $0.insert(pid) } }
    /// The temporary folder to remove if the bench is interrupted.
    static func register(folder path: String?) { folder.withLock { $0 = path } }
    static func unregister(_ pid: pid_t) { pids.withLock { _ = $0.remove(pid) } }

    /// On SIGINT or SIGTERM: terminate every child, then leave with status 130.
    static func stopOnSignals() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let running = pids.withLock { $0 }
                for pid in running { kill(pid, SIGTERM) }
                if let path = folder.withLock({ $0 }) { BenchStack.removeFolder(path) }
                Log.standardError("bench: interrupted; stopped \(running.count) process(es)\n")
                _exit(130)
            }
            source.resume()
            sources.append(source)
        }
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
