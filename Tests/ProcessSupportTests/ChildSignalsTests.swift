import Foundation
import Glibc
import Processes
import Testing
import TestTiers

/// A child started by the tests or the bench stops on SIGTERM and SIGINT and dies on a broken
/// pipe, whatever its starter blocks or ignores (the bench ignores SIGINT and SIGTERM itself).
@Suite(.tags(.inMemory)) struct ChildSignalsTests {
    /// The bits of `signals` set in the hexadecimal mask `field` of /proc/PID/status.
    static func set(_ field: String, in status: String, of signals: [Int32]) throws -> [Int32] {
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(field + ":") }, "no \(field) in \(status)")
        let mask = try #require(UInt64(line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces), radix: 16), "\(line)")
        return signals.filter { mask & (1 << UInt64($0 - 1)) != 0 }
    }

    @Test func aChildStartsWithTheDefaultSignalsAndNoneBlocked() throws {
        let folder = try TemporaryFolder()
        // This thread blocks SIGTERM and the process ignores SIGPIPE while the child starts.
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        let pipeDisposition = signal(SIGPIPE, SIG_IGN)
        defer {
            signal(SIGPIPE, pipeDisposition)
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        let child = try ChildProcess(
            name: "grep", executable: "/bin/grep", arguments: ["-E", "^Sig(Blk|Ign):", "/proc/self/status"],
            environment: [:], logPath: folder.file("grep.log"), outputPath: folder.file("status"))
        #expect(child.waitForExit(timeout: 10) == 0)
        let status = try String(contentsOfFile: folder.file("status"), encoding: .utf8)
        let signals = [SIGINT, SIGTERM, SIGPIPE]
        #expect(try Self.set("SigBlk", in: status, of: signals) == [], "\(status)")
        #expect(try Self.set("SigIgn", in: status, of: signals) == [], "\(status)")
    }
}
