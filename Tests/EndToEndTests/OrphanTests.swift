import CLinux
import Foundation
import Processes
import Testing
import TestTiers

/// No orphans: every executable of the project exits when the process that started it dies,
/// even by SIGKILL, so a test run or a benchmark that crashes leaves nothing running.
@Suite(.serialized, .tags(.processes)) struct OrphanTests {
    /// Waits up to `timeout` seconds for the process `pid` (not necessarily a child of this one)
    /// to exit, on a pidfd: true once it has exited (or no longer exists).
    func waitForExit(of pid: pid_t, timeout: TimeInterval) -> Bool {
        let descriptor = pidfd_open(pid, 0)
        guard descriptor >= 0 else { return errno == ESRCH }
        defer { close(descriptor) }
        var item = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&item, 1, Int32(timeout * 1000)) == 1
    }

    @Test func theBusServicesAndGatewayExitWhenTheProcessThatStartedThemIsKilled() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("monster-bus-orphans-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["BUS_FRONTEND"] = "ipc://\(folder.path)/frontend"
        environment["BUS_BACKEND"] = "ipc://\(folder.path)/backend"
        environment["ROSTER_DB"] = folder.appendingPathComponent("roster.db").path
        environment["LOG_LEVEL"] = "info"
        // The helper: a shell that starts every executable as its own child (naming it its
        // parent) and waits; the gateway tails the bus until it is stopped.
        let names = ["bus", "presentation-policy", "roster", "input-handling", "gateway"]
        let script = """
            export MONSTERBUS_PARENT_PID=$$
            "$1" & echo "started bus $!" >&2
            "$2" & echo "started presentation-policy $!" >&2
            "$3" & echo "started roster $!" >&2
            "$4" & echo "started input-handling $!" >&2
            "$5" --timeout 20 watch & echo "started gateway $!" >&2
            wait
            """
        let helper = try ChildProcess(
            name: "helper", executable: "/bin/sh",
            arguments: ["-c", script, "sh"] + names.map { Products.url($0).path },
            environment: environment, logPath: folder.appendingPathComponent("helper.log").path)
        var pids: [String: pid_t] = [:]
        for name in names {
            pids[name] = helper.waitForLine(timeout: 10) { line -> pid_t? in
                line.hasPrefix("started \(name) ") ? line.split(separator: " ").last.flatMap { pid_t($0) } : nil
            }
        }
        defer { for pid in pids.values { kill(pid, SIGKILL) } }
        #expect(pids.count == names.count, "\(helper.stderr)")
        // Each one is running (its start line, logged after the watch began).
        for name in names where name != "gateway" {
            let pid = try #require(pids[name])
            #expect(helper.waitForLine(timeout: 10) { $0.contains(" \(name) info: ") && $0.contains("pid \(pid)") ? true : nil } == true, "\(helper.stderr)")
        }
        #expect(helper.waitForLine(timeout: 20) { $0.hasPrefix("watching the bus") ? true : nil } == true, "\(helper.stderr)")
        for (name, pid) in pids { #expect(!waitForExit(of: pid, timeout: 0), "\(name) exited before its parent") }

        helper.signal(SIGKILL)
        #expect(helper.waitForExit(timeout: 10) != nil)
        for (name, pid) in pids {
            #expect(waitForExit(of: pid, timeout: 10), "\(name) (pid \(pid)) outlived its parent")
            #expect(helper.waitForLine(timeout: 5) { $0.hasPrefix("pid \(pid): parent ") && $0.hasSuffix("exited, leaving") ? true : nil } == true, "\(name): \(helper.stderr)")
        }
    }

    /// `MONSTERBUS_PARENT_PID` may name any running process, pid 1 too (a container's init, or
    /// the parent of a process it adopted); what is not a pid is said and ignored; a process
    /// already gone ends the program at once.
    @Test func theParentMayBeAnyRunningProcessAndWhatIsNotAPidIsSaid() throws {
        func gateway(parent: String) throws -> CommandResult {
            try runToCompletion(
                URL(fileURLWithPath: "/usr/bin/env"), ["MONSTERBUS_PARENT_PID=\(parent)", Products.url("gateway").path, "--version"],
                environment: ProcessInfo.processInfo.environment)
        }
        let underInit = try gateway(parent: "1")
        #expect(underInit.status == 0 && underInit.stdout.hasPrefix("gateway "), "\(underInit.stdout)\(underInit.stderr)")
        #expect(underInit.stderr.isEmpty, "\(underInit.stderr)")
        for text in ["0", "-4", "abc"] {
            let result = try gateway(parent: text)
            #expect(result.status == 0 && result.stderr.contains("MONSTERBUS_PARENT_PID=\(text) is not a pid: ignored"), "\(text): \(result.stderr)")
        }
        let exited = Process()
        exited.executableURL = URL(fileURLWithPath: "/bin/true")
        try exited.run()
        exited.waitUntilExit()
        let orphan = try gateway(parent: String(exited.processIdentifier))
        #expect(orphan.status == 1 && orphan.stderr.contains("has already exited, leaving"), "\(orphan.stderr)")
    }
}
