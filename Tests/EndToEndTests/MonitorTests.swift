import Foundation
import Testing
import TestTiers

/// `Scripts/monitor-test.py` in this repository, run with python3 and the stack's environment.
enum MonitorCheck {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = root.appendingPathComponent("Scripts/monitor-test.py")
    /// Where the browser test's screenshot is kept (an artefact of the run).
    static let screenshot = root.appendingPathComponent(".build/artifacts/monitor.png")

    /// Starts `monitor` in `stack` on a free port; returns the address it serves.
    static func start(in stack: Stack) throws -> String {
        try startBoth(in: stack).page
    }

    /// Starts `monitor` in `stack` on free ports; returns the page's and the health listener's addresses.
    static func startBoth(in stack: Stack) throws -> (page: String, health: String) {
        let monitor = try stack.start("monitor")
        let served = monitor.waitForLine(timeout: 15) { line -> (String, String)? in
            guard let page = line.range(of: "serving http://"), let health = line.range(of: "health on http://") else { return nil }
            return ("http://" + line[page.upperBound...].prefix { $0 != "," },
                    "http://" + line[health.upperBound...].prefix { $0 != "/" && $0 != " " })
        }
        guard let served else { throw StackError("the monitor never said where it serves: \(monitor.stderr)") }
        return served
    }

    /// Runs one check of the script against the monitor at `url`.
    static func run(_ name: String, url: String, stack: Stack, _ arguments: [String] = []) throws -> CommandResult {
        try runToCompletion(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", script.path, name, url, "--gateway", Products.url("gateway").path] + arguments,
            environment: stack.environment)
    }
}

/// The monitor against a real stack: its pages, /metrics parsed by prometheus_client, and the
/// page in headless Chromium driven by Selenium (`Scripts/test` installs all three).
@Suite(.serialized, .tags(.processes))
final class MonitorTests {
    let stack: Stack
    let url: String

    init() throws {
        stack = try Stack(environment: ["MONITOR_ADDRESS": "http://127.0.0.1:0"])
        url = try MonitorCheck.start(in: stack)
    }

    func check(_ name: String, _ arguments: [String] = []) throws -> CommandResult {
        try MonitorCheck.run(name, url: url, stack: stack, arguments)
    }

    @Test func anUnknownPathIsA404AndAnUnknownDeviceAClearPage() throws {
        let result = try check("pages")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)\nmonitor: \(stack.processes["monitor"]?.stderr ?? "")")
    }

    @Test func metricsParseWithPrometheusClientAndTheirCountersMoveAsActionsAreSent() throws {
        let result = try check("metrics")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)\nmonitor: \(stack.processes["monitor"]?.stderr ?? "")")
    }

    @Test func clientsThatStopReadingDoNotHoldUpTheMonitor() throws {
        let result = try check("stalled")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)\nmonitor: \(stack.processes["monitor"]?.stderr ?? "")")
    }

    @Test func aBrowserSeesThePopoverAppearWithinASecondAndMoveWhenTheIPadRotates() throws {
        try FileManager.default.createDirectory(at: MonitorCheck.screenshot.deletingLastPathComponent(), withIntermediateDirectories: true)
        let result = try check("browser", ["--screenshot", MonitorCheck.screenshot.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)\nmonitor: \(stack.processes["monitor"]?.stderr ?? "")")
        #expect(FileManager.default.fileExists(atPath: MonitorCheck.screenshot.path))
    }

    @Test func theMonitorLeavesOnSIGTERM() throws {
        #expect(stack.stop("monitor") == 0)
        #expect(stack.processes["monitor"]?.stderr.contains("stopped") == true)
    }
}

/// The monitor's limits: a stream past `MONITOR_MAX_STREAMS` is refused with 503 and
/// `Retry-After`, the health listener serves only `/healthz` and `/metrics`, and a limit that
/// cannot be used stops the monitor with status 2 naming its variable. (Scripts/monitor-load
/// puts the same edge under 1,300 connections.)
@Suite(.serialized, .tags(.processes))
final class MonitorLimitTests {
    @Test func aStreamPastTheCapIsRefusedAndTheHealthListenerServesHealthOnly() throws {
        let stack = try Stack(environment: ["MONITOR_ADDRESS": "http://127.0.0.1:0", "MONITOR_MAX_STREAMS": "1"])
        let (page, health) = try MonitorCheck.startBoth(in: stack)
        let result = try runToCompletion(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", MonitorCheck.script.path, "limits", page, "--health", health],
            environment: stack.environment)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)\nmonitor: \(stack.processes["monitor"]?.stderr ?? "")")
    }

    @Test func unusableLimitsStopTheMonitorNamingTheVariable() throws {
        let bad = [
            ["MONITOR_MAX_CONNECTIONS": "0"], ["MONITOR_MAX_STREAMS": "lots"], ["MONITOR_REQUEST_TIMEOUT_SECONDS": "-1"],
            ["MONITOR_MAX_CONNECTIONS": "10", "MONITOR_MAX_CONNECTIONS_PER_ADDRESS": "11"], ["MONITOR_HEALTH_ADDRESS": "8081"],
        ]
        for environment in bad {
            let result = try runToCompletion(Products.url("monitor"), [], environment: environment.merging(["MONITOR_ADDRESS": "http://127.0.0.1:0"]) { $1 })
            #expect(result.status == 2, "\(environment): \(result.stderr)")
            let named = environment.keys.contains { result.stderr.contains($0) }
            #expect(named, "\(environment): \(result.stderr)")
        }
    }
}

/// The monitor on CURVE with its own certificate (`monitor`, made by `gateway keys init`): it
/// hears every service and the bus, and its questions to presentation-policy are answered.
@Suite(.serialized, .tags(.processes))
final class MonitorCurveTests {
    let stack: Stack
    let url: String

    init() throws {
        stack = try Stack(curve: KeysFolder(), environment: ["MONITOR_ADDRESS": "http://127.0.0.1:0"])
        url = try MonitorCheck.start(in: stack)
    }

    @Test func theMonitorWithItsOwnCertificateSeesTheServicesAndAsksAboutDevices() throws {
        #expect(stack.processes["bus"]?.logged("admitted monitor") == true)
        for check in ["metrics", "pages"] {
            let result = try MonitorCheck.run(check, url: url, stack: stack)
            #expect(result.status == 0, "\(check): \(result.stdout)\(result.stderr)\nmonitor: \(stack.processes["monitor"]?.stderr ?? "")")
        }
    }
}
