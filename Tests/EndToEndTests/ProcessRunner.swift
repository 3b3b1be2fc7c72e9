import Foundation
import Processes

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
