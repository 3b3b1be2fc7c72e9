// Starting, watching and stopping the processes of Monster Bus from the end-to-end tests and
// the bench: posix_spawn (no Foundation `Process`, so the signals and descriptors a child gets
// are said here), standard error through a pipe into a log file and memory.

import CLinux
import Foundation
import Glibc
import ProcessSupport
import Synchronization

/// One process started by a test or the bench. Its standard error is collected as it arrives
/// (and kept in a log file), so a caller can wait for a line without sleeping; its standard
/// output goes to a file or /dev/null. It ends with its starter (`tiedToThisProcess`) and is
/// stopped when dropped.
public final class ChildProcess: @unchecked Sendable {
    /// The name it was started under, in log lines and errors.
    public let name: String
    /// Its process id.
    public let pid: pid_t
    /// Where standard error is kept.
    public let logPath: String
    private let state: State

    /// Starts `executable` with `arguments` and `environment` (a complete environment), logging
    /// standard error to `logPath` and, if given, standard output to `outputPath`.
    public init(
        name: String, executable: String, arguments: [String] = [], environment: [String: String], logPath: String,
        outputPath: String? = nil
    ) throws {
        self.name = name
        self.logPath = logPath
        let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard log >= 0 else { throw ProcessError("cannot write \(logPath): \(String(cString: strerror(errno)))") }
        // Close-on-exec: no other child started meanwhile keeps this pipe open.
        var pipe: [Int32] = [0, 0]
        guard pipe2(&pipe, O_CLOEXEC) == 0 else {
            close(log)
            throw ProcessError("pipe: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 2)
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
        let envp = tiedToThisProcess(environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(pipe[1])
        guard result == 0 else {
            close(pipe[0])
            close(log)
            throw ProcessError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        state = State()
        Children.register(pid)
        let (state, readEnd, child) = (self.state, pipe[0], pid)
        Thread.detachNewThread { state.read(readEnd, log: log) }
        Thread.detachNewThread { state.reap(child) }
    }

    deinit { stop() }

    /// Everything written to standard error so far.
    public var stderr: String { state.locked { $0.text } }

    /// The last `count` lines of standard error, for error messages.
    public func logTail(_ count: Int = 10) -> String {
        stderr.split(separator: "\n").suffix(count).map { "    \(name): \($0)" }.joined(separator: "\n")
    }

    /// Whether the process is still running.
    public var isRunning: Bool { state.locked { $0.status == nil } }

    /// Waits until standard error has a line for which `match` returns a value, up to `timeout`
    /// seconds; nil if none came (or none can come: the process and its pipe have ended).
    public func waitForLine<T>(timeout: Double, _ match: (Substring) -> T?) -> T? {
        state.wait(timeout: timeout) { state in
            for line in state.text.split(separator: "\n") {
                if let found = match(line) { return found }
            }
            return nil
        }
    }

    /// Waits until `holds` is true of all that standard error holds so far, up to `timeout` seconds.
    public func waitForStderr(timeout: Double, _ holds: (String) -> Bool) -> Bool {
        state.wait(timeout: timeout) { holds($0.text) ? true : nil } ?? false
    }

    /// Sends `signal` to the process, if it is still running.
    public func signal(_ signal: Int32) {
        state.locked { if $0.status == nil { kill(pid, signal) } }
    }

    /// Waits up to `timeout` seconds for the process to exit, and for the last of its standard
    /// error to arrive (so `stderr` then holds all it wrote); its exit status, or the signal that
    /// ended it; nil if it is still running.
    public func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        guard let status = state.wait(until: deadline, { $0.status }) else { return nil }
        _ = state.wait(until: deadline) { $0.ended ? true : nil }
        return status
    }

    /// Sends SIGTERM, waits up to `timeout` seconds for the process and its pipe to end, then
    /// SIGKILL. Idempotent.
    public func stop(timeout: Double = 5) {
        signal(SIGTERM)
        if waitForExit(timeout: timeout) == nil {
            signal(SIGKILL)
            _ = waitForExit(timeout: timeout)
        }
    }

    /// What the reading and reaping threads share with the callers.
    private final class State: @unchecked Sendable {
        var text = ""
        /// True once standard error reached its end (the process and every child holding it closed it).
        var ended = false
        /// The exit status, or the signal that ended the process, once it has exited and been reaped.
        var status: Int32?
        private let condition = NSCondition()

        func locked<T>(_ body: (State) -> T) -> T {
            condition.withLock { body(self) }
        }

        private func change(_ body: (State) -> Void) {
            condition.withLock {
                body(self)
                condition.broadcast()
            }
        }

        func wait<T>(timeout: Double, _ found: (State) -> T?) -> T? {
            wait(until: Date(timeIntervalSinceNow: timeout), found)
        }

        /// Waits until `found` gives a value, `deadline` passes, or nothing more can change.
        func wait<T>(until deadline: Date, _ found: (State) -> T?) -> T? {
            condition.withLock {
                while true {
                    if let value = found(self) { return value }
                    if ended && status != nil { return nil }
                    if !condition.wait(until: deadline) { return found(self) }
                }
            }
        }

        /// Copies `descriptor` (the pipe) into `log` and `text` until its end.
        func read(_ descriptor: Int32, log: Int32) {
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                _ = buffer.withUnsafeBytes { write(log, $0.baseAddress, count) }
                change { $0.text += String(decoding: buffer[0..<count], as: UTF8.self) }
            }
            close(descriptor)
            close(log)
            change { $0.ended = true }
        }

        /// Waits for `pid` to exit and records how.
        func reap(_ pid: pid_t) {
            var status: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(pid, &status, 0) } while result < 0 && errno == EINTR
            Children.unregister(pid)
            // Exited: its code; killed: the signal (as Foundation's `Process` reports them).
            let code = result < 0 ? -1 : (status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f)
            change { $0.status = code }
        }
    }
}

/// `environment` with `MONSTERBUS_PARENT_PID` set to this process: every executable of the
/// project then exits when this process dies, even by a trap or SIGKILL (`ParentWatch`).
public func tiedToThisProcess(_ environment: [String: String]) -> [String: String] {
    var environment = environment
    environment[ParentWatch.environmentVariable] = String(getpid())
    return environment
}

/// Every child still running, so that a signal to the starter (Ctrl-C, `kill`) stops them too.
public enum Children {
    private static let pids = Mutex<Set<pid_t>>([])
    private static let folder = Mutex<String?>(nil)
    /// The signal sources, kept alive; only touched by `stopOnSignals`, once, at start-up.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    static func register(_ pid: pid_t) { pids.withLock { _ = $0.insert(pid) } }
    static func unregister(_ pid: pid_t) { pids.withLock { _ = $0.remove(pid) } }
    /// The temporary folder to remove if the starter is interrupted.
    public static func register(folder path: String?) { folder.withLock { $0 = path } }

    /// On SIGINT or SIGTERM: terminate every child, remove the registered folder, then leave
    /// with status 130, saying so as `program`.
    public static func stopOnSignals(program: String) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let running = pids.withLock { $0 }
                let path = folder.withLock { $0 }
                for pid in running { kill(pid, SIGTERM) }
                if let path { try? FileManager.default.removeItem(atPath: path) }
                Log.standardError("\(program): interrupted; stopped \(running.count) process(es)\n")
                _exit(130)
            }
            source.resume()
            sources.append(source)
        }
    }
}

/// A process that could not be started or did not start as it should.
public struct ProcessError: Error, CustomStringConvertible {
    /// What went wrong, for a person.
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

/// A new, empty folder in the temporary folder, named `prefix` and six random characters.
public func makeTemporaryFolder(_ prefix: String) throws -> String {
    var template = Array((FileManager.default.temporaryDirectory.path + "/" + prefix + "XXXXXX").utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw ProcessError("cannot create a temporary folder: \(String(cString: strerror(errno)))")
    }
    return String(cString: made)
}

/// A TCP port of 127.0.0.1 free right now (the kernel's pick for port 0).
public func freeTCPPort() throws -> Int {
    let (descriptor, port) = try listenOnFreeTCPPort()
    close(descriptor)
    return port
}

/// A TCP socket listening on a port of 127.0.0.1 the kernel picks, and that port: the caller's
/// to accept on, and to close.
public func listenOnFreeTCPPort(backlog: Int32 = 8) throws -> (descriptor: Int32, port: Int) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw ProcessError("socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_in()   // all zeros: port 0, for the kernel to choose a free one
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && listen(descriptor, backlog) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard bound else {
        let reason = String(cString: strerror(errno))
        close(descriptor)
        throw ProcessError("cannot listen on 127.0.0.1: \(reason)")
    }
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
}
