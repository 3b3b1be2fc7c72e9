import Foundation
import Testing

import FoundationXML
import TestTiers

/// The gateway as a tool, through the real processes: scenarios, watch, shell, screen.
@Suite(.serialized, .tags(.processes)) final class GatewayToolTests {
    let stack: Stack

    init() throws { stack = try Stack() }

    /// The repository's root (the shipped scenarios live there).
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// Every scenario in Scenarios/ (a new file runs without touching this test).
    static let scenarios: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Scenarios").path)) ?? [])
        .filter { $0.hasSuffix(".scenario") }.map { String($0.dropLast(".scenario".count)) }.sorted()

    @Test func theScenarioFolderHoldsTheShippedScenarios() {
        #expect(Self.scenarios.count >= 12)
        #expect(Self.scenarios.contains("rotation-alert"))
    }

    /// Each scenario twice, with the same outcome: over the real processes, and in memory
    /// (`--embedded`: the same handlers and runtime in the gateway's process). What they print
    /// (every message, as JSON) is the same, ids and times aside. (One live run per stack: a
    /// second would find the roster and the devices changed by the first.)
    @Test(arguments: GatewayToolTests.scenarios)
    func theShippedScenariosPassLiveAndInMemoryAlike(_ name: String) throws {
        let file = Self.root.appendingPathComponent("Scenarios/\(name).scenario").path
        let result = try stack.gateway(["--json", "run", file])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let embedded = try stack.gateway(["--embedded", "--json", "run", file])
        #expect(embedded.status == 0, "\(embedded.stdout)\n\(embedded.stderr)")
        // The messages of one action come from several services, in either order.
        let inMemory = Self.normalised(embedded.stdout).split(separator: "\n").sorted()
        let live = Self.normalised(result.stdout).split(separator: "\n").sorted()
        #expect(inMemory == live, "in memory only: \(inMemory.filter { !live.contains($0) }); live only: \(live.filter { !inMemory.contains($0) })")
        let human = try stack.gateway(["--embedded", "run", file])
        #expect(human.status == 0, "\(human.stdout)\n\(human.stderr)")
        #expect(human.stdout.contains("expectation(s) passed"))
    }

    /// `text` without what differs from one run to the next: message ids, times, spans, sequence
    /// numbers, process ids, database ids, client addresses and durations.
    static func normalised(_ text: String) -> String {
        var text = text
        for (pattern, replacement) in [
            (#"00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}"#, "TRACE"),
            (#"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"#, "UUID"),
            (#"[0-9a-f]{16}-[0-9]+"#, "ID"),
            (#"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z"#, "TIME"),
            (#""parentSpan":"[0-9a-f]{16}""#, #""parentSpan":"SPAN""#),
            (#""replyTo":"[0-9a-f]{16}""#, #""replyTo":"ADDRESS""#),
            (#""seq":[0-9]+"#, #""seq":N"#),
            (#""pid":[0-9]+"#, #""pid":N"#),
            (#""uptimeSeconds":[0-9.]+"#, #""uptimeSeconds":N"#),
            (#"[0-9.]+ ?(ms|µs)"#, "N ms"),
        ] {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text
    }

    @Test func aScenarioWithAFalseExpectationFailsNamingItsLine() throws {
        let file = stack.folder.appendingPathComponent("false.scenario")
        try "# wrong on purpose\n--device iphone tap add\nexpect presentation.presented presentation.style=popover\n--device iphone tap cancel\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let result = try stack.gateway(["run", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("false.scenario:3: expectation failed"))
        #expect(result.stderr.contains("presentation.style is alert"))
        #expect(!result.stdout.contains("tap cancel"))
        // The alert left up refuses the next `tap add`: a refusal no expectation follows ends the
        // run too, with the refusal's status.
        try "--device iphone tap add\n--device iphone tap cancel\n".write(to: file, atomically: true, encoding: .utf8)
        let refused = try stack.gateway(["run", file.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("gateway: \(file.path):1: refused by presentation-policy [modal-alert]: "), "\(refused.stderr)")
        #expect(!refused.stdout.contains("tap cancel"))
    }

    @Test func watchShowsWhatAnotherGatewayCaused() throws {
        let output = stack.folder.appendingPathComponent("watch.out")
        let watch = try stack.startGateway(["--json", "--device", "ipad", "watch", "--type", "presentation.", "--count", "2"], outputFile: output)
        #expect(watch.waitForLine(timeout: 10) { $0.hasPrefix("watching the bus") ? true : nil } == true)
        _ = try stack.json("ipad", "tap", "add")
        _ = try stack.json("iphone", "tap", "add")
        _ = try stack.json("ipad", "tap", "outside")
        #expect(watch.waitForExit(timeout: 10) == 0)
        let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
        let types = lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }.map { "\($0["device"] ?? "-") \($0["type"] ?? "-")" }
        #expect(types == ["ipad presentation.presented", "ipad presentation.dismissed"])
    }

    @Test func aShellReadsActionsAndExpectationsFromItsInput() throws {
        let result = try stack.gateway(["--device", "iphone", "shell"], stdin: "tap add\nexpect presentation.presented presentation.style=alert\ntap cancel\nexit\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("iphone alert “Add…”"))
        #expect(result.stdout.contains("✓ expect presentation.presented presentation.style=alert"))
        #expect(result.stdout.contains("dismissed by Cancel"))
    }

    @Test func screenDrawsTheIPadWithItsPopoverAsWellFormedSVG() throws {
        _ = try stack.json("ipad", "tap", "add")
        let file = stack.folder.appendingPathComponent("s.svg")
        let result = try stack.gateway(["--device", "ipad", "screen", "--out", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: file)
        let parser = XMLParser(data: data)
        #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
        let svg = String(decoding: data, as: UTF8.self)
        #expect(svg.contains("Photo"))
        #expect(svg.contains("Audio"))
        #expect(svg.contains("id=\"popover\""))
        #expect(svg.contains("Monster List"))
    }

    @Test func screenOfAnUnknownDeviceIsRefused() throws {
        let result = try stack.gateway(["--device", "nobody", "screen"])
        #expect(result.status == 1)
    }

    @Test func aBadBusEndpointIsATransportErrorWithItsOwnStatus() throws {
        let result = try stack.gateway(["--timeout", "2", "tap", "add"], environment: ["BUS_FRONTEND": "nowhere:5555"])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.contains("BUS_FRONTEND=nowhere:5555"))
        #expect(!result.stderr.contains("did not answer"))
    }

    @Test func anUnwritableScreenFileIsAFileErrorBeforeAnythingIsSent() throws {
        let file = stack.folder.appendingPathComponent("missing-folder/s.svg").path
        let result = try stack.gateway(["--device", "ipad", "screen", "--out", file])
        #expect(result.status == 5, "\(result.stderr)")
        #expect(result.stderr.contains("cannot write \(file)"))
        #expect(!FileManager.default.fileExists(atPath: file))
        // Refused before the bus is asked: with no bus at all it is still a file error, not "no answer".
        let nowhere = "ipc://" + stack.folder.appendingPathComponent("nobody").path
        let alone = try stack.gateway(
            ["--timeout", "1", "screen", "--out", file], environment: ["BUS_FRONTEND": nowhere, "BUS_BACKEND": nowhere + "-b"])
        #expect(alone.status == 5, "\(alone.stderr)")
    }

    @Test func anUnreadableScenarioIsAFileError() throws {
        let result = try stack.gateway(["run", stack.folder.appendingPathComponent("no-such.scenario").path])
        #expect(result.status == 5, "\(result.stderr)")
        #expect(result.stderr.contains("cannot read the scenario file"))
    }
}
