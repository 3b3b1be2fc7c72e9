import Foundation

/// A child process whose standard error is collected as it arrives (and kept in a log file),
/// so a test can wait for a line without sleeping.
final class ChildProcess: @unchecked Sendable {
    let name: String
    let process = Process()
    private let condition = NSCondition()
    private var errorText = ""
    /// True once stderr reached its end (the process and every child holding it closed it).
    private var errorEnded = false
    private let log: FileHandle?

    /// Starts `executable` with `arguments` and `environment`, logging stderr to `logFile` and,
    /// if given, stdout to `outputFile`.
    init(name: String, executable: URL, arguments: [String] = [], environment: [String: String], logFile: URL, outputFile: URL? = nil) throws {
        self.name = name
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        log = try? FileHandle(forWritingTo: logFile)
        process.executableURL = executable
        process.arguments = arguments
        process.environment = tiedToThisProcess(environment)
        if let outputFile {
            _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: outputFile)
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        let pipe = Pipe()
        process.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            if data.isEmpty {
                handle.readabilityHandler = nil
                self.condition.lock()
                self.errorEnded = true
                self.condition.broadcast()
                self.condition.unlock()
                return
            }
            self.log?.write(data)
            self.condition.lock()
            self.errorText += String(decoding: data, as: UTF8.self)
            self.condition.broadcast()
            self.condition.unlock()
        }
        try process.run()
    }

    /// Everything written to stderr so far.
    var stderr: String {
        condition.lock()
        defer { condition.unlock() }
        return errorText
    }

    /// Waits until stderr has a line for which `match` returns a value, up to `timeout` seconds.
    func waitForLine<T>(timeout: TimeInterval, _ match: (Substring) -> T?) -> T? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            for line in errorText.split(separator: "\n") {
                if let found = match(line) { return found }
            }
            if !condition.wait(until: deadline) { return nil }
        }
    }

    /// Waits until `holds` is true of all that stderr holds so far, up to `timeout` seconds.
    func waitForStderr(timeout: TimeInterval, _ holds: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !holds(errorText) {
            if !condition.wait(until: deadline) { return holds(errorText) }
        }
        return true
    }

    /// Sends `signal` to the process.
    func signal(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Waits for the process to exit, up to `timeout` seconds, and for the last of its stderr
    /// to arrive (so `stderr` then holds all it wrote); returns its status, or nil.
    func waitForExit(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        let done = DispatchSemaphore(value: 0)
        let process = self.process
        DispatchQueue.global().async {
            process.waitUntilExit()
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        condition.lock()
        while !errorEnded && condition.wait(until: deadline) {}
        condition.unlock()
        return process.terminationStatus
    }
}

/// What a finished command printed and returned.
struct CommandResult {
    let status: Int32
    let stdout: String
    let stderr: String
    /// How long it ran, in seconds.
    let seconds: Double

    /// Each stdout line parsed as a JSON object (for `--json` output).
    var envelopes: [[String: Any]] {
        stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The gateway's verdict: the body of the last line, which is always `action.outcome` with `--json`.
    var outcome: [String: Any]? {
        guard let last = envelopes.last, last["type"] as? String == "action.outcome" else { return nil }
        return last["body"] as? [String: Any]
    }

    /// The envelopes of `type`.
    func messages(_ type: String) -> [[String: Any]] {
        envelopes.filter { $0["type"] as? String == type }
    }

    /// The body of the only envelope of `type`, if there is exactly one.
    func body(_ type: String) -> [String: Any]? {
        let found = messages(type)
        return found.count == 1 ? found[0]["body"] as? [String: Any] : nil
    }

    /// The message types printed, in order, without acknowledgements, the requests one
    /// service passes to another, and the gateway's closing verdict (`action.outcome`).
    var types: [String] {
        let betweenServices: Set = [
            "ack", "input.tap", "input.passed", "roster.select.request", "roster.snapshot.request",
            "action.outcome",
        ]
        return envelopes.compactMap { $0["type"] as? String }.filter { !betweenServices.contains($0) }
    }
}

/// Runs `executable` to completion with `arguments`, capturing both outputs.
func runToCompletion(_ executable: URL, _ arguments: [String], environment: [String: String], stdin: String? = nil) throws -> CommandResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = tiedToThisProcess(environment)
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    if let stdin {
        let input = Pipe()
        process.standardInput = input
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try? input.fileHandleForWriting.close()
    } else {
        process.standardInput = FileHandle.nullDevice
    }
    let started = Date()
    try process.run()
    let group = DispatchGroup()
    nonisolated(unsafe) var errorData = Data()
    group.enter()
    DispatchQueue.global().async {
        errorData = err.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outputData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return CommandResult(
        status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
        stderr: String(decoding: errorData, as: UTF8.self), seconds: Date().timeIntervalSince(started))
}

/// `environment` with `MONSTERBUS_PARENT_PID` set to this test process: every executable of the
/// project then exits when the test process dies, even by a trap or SIGKILL (`ParentWatch`).
func tiedToThisProcess(_ environment: [String: String]) -> [String: String] {
    var environment = environment
    environment["MONSTERBUS_PARENT_PID"] = String(getpid())
    return environment
}
