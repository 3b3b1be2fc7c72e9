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

    /// The live `/metrics`, read here rather than by the script: every series with its labels,
    /// for what the stack did — two taps answered, one refused, a describe — with every service
    /// heard (MetricsLabelsTests checks each label's value of the rendering exactly).
    @Test func theLiveMetricsCarryEverySeriesWithItsLabels() throws {
        let ready = stack.processes["monitor"]?.waitForStderr(timeout: 15) { $0.contains("ready: heard its own ping") } ?? false
        #expect(ready, "the monitor never said it was ready")
        #expect(httpGet(url, "/healthz")?.status == 200, "the monitor never heard its own ping")
        #expect(try stack.gateway(["--device", "ipad", "tap", "add"]).status == 0)
        #expect(try stack.gateway(["--device", "ipad", "tap", "outside"]).status == 0)
        #expect(try stack.gateway(["--device", "iphone", "tap", "photo"]).status == 1)
        #expect(try stack.gateway(["--device", "ipad", "describe"]).status == 0)

        let services = ["bus", "input-handling", "presentation-policy", "roster"]
        let tap = #"action="device.tap""#, describe = #"action="device.describe""#
        var samples: [String: String] = [:]
        let deadline = Date(timeIntervalSinceNow: 15)
        repeat {
            samples = Self.samples(httpGet(url, "/metrics")?.body ?? "")
        } while Date() < deadline && !(samples["monsterbus_actions_total{\(tap),outcome=\"refused\"}"] == "1"
            && samples["monsterbus_actions_total{\(tap),outcome=\"ok\"}"] == "2" && samples["monsterbus_actions_total{\(describe),outcome=\"ok\"}"] == "1"
            && services.allSatisfy { samples["monsterbus_service_up{service=\"\($0)\"}"] == "1" })
        let text = samples.keys.sorted().joined(separator: "\n")
        for service in services {
            #expect(samples["monsterbus_service_up{service=\"\(service)\"}"] == "1", "\(service): \(text)")
            #expect(samples["monsterbus_heartbeat_age_seconds{service=\"\(service)\"}"] != nil, "\(service)")
            #expect(samples["monsterbus_uptime_seconds{service=\"\(service)\"}"] != nil, "\(service)")
        }
        for service in services where service != "bus" {
            #expect(samples["monsterbus_received_total{service=\"\(service)\"}"] != nil, "\(service): \(text)")
        }
        #expect(samples["monsterbus_messages_in_total{service=\"bus\"}"] != nil, "\(text)")
        // Four actions are no load: the monitor dropped nothing and says nothing of keeping up.
        #expect(stack.processes["monitor"]?.stderr.contains("could not keep up") == false, "\(stack.processes["monitor"]?.stderr ?? "")")
        #expect(samples["monsterbus_actions_total{\(tap),outcome=\"ok\"}"] == "2", "\(text)")
        #expect(samples["monsterbus_actions_total{\(tap),outcome=\"refused\"}"] == "1", "\(text)")
        #expect(samples["monsterbus_actions_total{\(describe),outcome=\"ok\"}"] == "1", "\(text)")
        for bound in ["0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1.0", "2.5"] {
            #expect(samples["monsterbus_action_round_trip_seconds_bucket{\(tap),le=\"\(bound)\"}"] != nil, "le=\(bound): \(text)")
        }
        #expect(samples["monsterbus_action_round_trip_seconds_bucket{\(tap),le=\"+Inf\"}"] == "3", "\(text)")
        #expect(samples["monsterbus_action_round_trip_seconds_count{\(tap)}"] == "3", "\(text)")
        #expect(samples["monsterbus_action_round_trip_seconds_sum{\(tap)}"] != nil, "\(text)")
        #expect(samples["monsterbus_action_round_trip_seconds_count{\(describe)}"] == "1", "\(text)")
        #expect(samples["monsterbus_monitor_devices"] == "2", "\(text)")
        for name in ["monsterbus_monitor_messages_total", "monsterbus_monitor_dropped_total", "monsterbus_monitor_resyncs_total"] {
            #expect(samples[name] != nil, "\(name): \(text)")
        }
    }

    /// Each sample of a Prometheus text, by its name and labels as written.
    static func samples(_ text: String) -> [String: String] {
        var samples: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " ") else { continue }
            samples[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        return samples
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
