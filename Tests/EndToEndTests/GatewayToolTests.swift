import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The gateway as a tool, through the real processes: scenarios, watch, shell, screen.
@Suite(.serialized) final class GatewayToolTests {
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

    @Test(arguments: GatewayToolTests.scenarios)
    func theShippedScenariosPass(_ name: String) throws {
        let file = Self.root.appendingPathComponent("Scenarios/\(name).scenario").path
        let result = try stack.gateway(["run", file])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("expectation(s) passed"))
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
        let types = lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }.map { "\($0["device"]!) \($0["type"]!)" }
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
