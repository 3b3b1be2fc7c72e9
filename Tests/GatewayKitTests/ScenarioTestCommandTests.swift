import Domain
import Foundation
import FoundationXML
import Testing
import Wire
@testable import GatewayKit
import TestTiers

/// `gateway test`: its command line, its runner that goes on, the files it finds, its JUnit XML.
@Suite(.tags(.inMemory)) struct ScenarioTestCommandTests {
    func parse(_ line: String) throws(UsageError) -> Invocation {
        try CommandLineParser.parse(line.split(separator: " ").map(String.init))
    }

    @Test func testParsesItsPathsAndOptions() throws {
        #expect(try parse("test").command == .test(ScenarioTestRequest()))
        #expect(try parse("test a b --live --jobs 4 --junit r.xml").command
            == .test(ScenarioTestRequest(paths: ["a", "b"], live: true, jobs: 4, junit: "r.xml")))
        #expect(throws: UsageError("--jobs takes a number from 1 to 64, not '0'", command: "test")) { try parse("test --jobs 0") }
        #expect(throws: UsageError.self) { try parse("tap add --live") }
        #expect(try parse("resize split-view-wide").command == .resizeMode(.splitViewWide))
        #expect(try parse("resize split-view-half").command == .resizeMode(.splitViewHalf))
    }

    let popover = Envelope(
        id: "p", correlationId: "a", service: "presentation-policy", device: "ipad", seq: 1, time: "t",
        body: .presented(Presented(presentation: Presentation(
            style: .popover, content: .add, message: nil, buttons: ["Photo", "Audio"], buttonFrames: [],
            cancelButtonIndex: nil, anchor: Anchor(kind: .barButton, element: "add", rect: Rect(x: 716, y: 20, width: 44, height: 44)),
            permittedArrowDirections: .any, arrowDirection: .up, arrowTip: nil, frame: Rect(x: 558, y: 77, width: 200, height: 125),
            contentSize: Size(width: 200, height: 125), passthrough: []), reason: "tap")))

    /// Runs `text` with every action answered by `popover`, except `fly` (not a command) and
    /// `wait` (no answer in time).
    func check(_ text: String) throws -> ScenarioFileResult {
        var result = ScenarioFileResult(path: "f.scenario")
        ScenarioCheck.run(try ScenarioParser.parse(text), into: &result) { words in
            if words == ["fly"] { throw UsageError("unknown command 'fly'") }
            if words == ["wait"] { throw NoAnswer(description: "still waiting for an acknowledgement from roster after the timeout") }
            return ActionOutcome(messages: [popover], status: 0)
        }
        return result
    }

    @Test func aFileGoesOnAfterAFailedExpectation() throws {
        let result = try check("tap add\nexpect presentation.presented presentation.style=alert\ntap add\nexpect presentation.presented presentation.style=popover\n")
        #expect(result.actions == 2)
        #expect(result.expectations.map(\.line) == [2, 4])
        #expect(result.expectations.last?.verdict == .passed)
        guard case .failed(let message)? = result.expectations.first?.verdict else { Issue.record("line 2 did not fail"); return }
        #expect(message.contains("presentation.style is popover, not alert"))
        #expect((result.passed, result.failed, result.skipped) == (1, 1, 0))
        #expect(!result.succeeded)
    }

    @Test func theExpectationsOfAnActionNotPerformedAreSkippedUntilTheNextAction() throws {
        let result = try check("fly\nexpect presentation.presented\nexpect-no error\nwait\nexpect error\ntap add\nexpect presentation.presented\n")
        #expect(result.actionErrors.map(\.line) == [1, 4])
        #expect(result.actionErrors.map(\.status) == [ExitStatus.usage, ExitStatus.timeout])
        #expect((result.passed, result.failed, result.skipped) == (1, 0, 3))
        guard case .skipped(let reason)? = result.expectations.first?.verdict else { Issue.record("not skipped"); return }
        #expect(reason == "its action at line 1 was not performed: unknown command 'fly'")
    }

    @Test func anExpectationBeforeAnyActionFails() throws {
        let result = try check("expect error\n")
        #expect(result.expectations.first?.verdict == .failed("expect error comes before any action"))
    }

    @Test func theFailureNamesTheClosestMessageOfTheTypeAndEachFieldThatDiffers() throws {
        guard case .expectation(let expectation) = try ScenarioParser.parse("expect presentation.presented presentation.style=alert presentation.content=add presentation.message=Add…")[0].kind else {
            Issue.record("not an expectation"); return
        }
        var farther = popover
        farther.body = .presented(Presented(presentation: Presentation(
            style: .popover, content: .color, message: nil, buttons: [], buttonFrames: [], cancelButtonIndex: nil, anchor: nil,
            permittedArrowDirections: .any, arrowDirection: .up, arrowTip: nil, frame: Rect(x: 0, y: 0, width: 1, height: 1),
            contentSize: Size(width: 1, height: 1), passthrough: []), reason: "tap"))
        #expect(expectation.failure(in: [farther, popover])
            == "no presentation.presented message matched: the closest of 2 (from presentation-policy): presentation.style is popover, not alert; presentation.message is absent, not Add…")
    }

    @Test func filesAreFoundUnderFoldersSortedOnceAndMissingOnesAreNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-files-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("empty"), withIntermediateDirectories: true)
        for name in ["b.scenario", "a.scenario", "notes.txt", "sub/c.scenario"] {
            try "tap add\n".write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let root = folder.path
        let found = ScenarioTestCommand.scenarioFiles(under: [root, root + "/a.scenario", root + "/missing", root + "/empty"])
        #expect(found.map(\.path) == [root + "/a.scenario", root + "/b.scenario", root + "/sub/c.scenario", root + "/missing", root + "/empty"])
        #expect(found.map { $0.problem?.status } == [nil, nil, nil, ExitStatus.file, ExitStatus.file])
    }

    @Test func liveDeviceIdsGetTheFilesSuffixWithinSixtyFourCharacters() {
        #expect(ScenarioTestCommand.ownName("ipad", suffix: "-0123abcd") == "ipad-0123abcd")
        let long = String(repeating: "é", count: 40)
        let named = ScenarioTestCommand.ownName(long, suffix: "-0123abcd")
        #expect(named.utf8.count <= 64)
        #expect(named.hasSuffix("-0123abcd") && named.hasPrefix("éé"))
    }

    @Test func theJUnitReportIsWellFormedAndCountsEveryVerdict() throws {
        var failing = try check("tap add\nexpect presentation.presented presentation.style=\"a<b & \\\"c\\\"\"\nfly\nexpect error\ntap add\nexpect presentation.presented\n")
        failing.seconds = 1.5
        var unreadable = ScenarioFileResult(path: "gone.scenario")
        unreadable.problem = ActionError(line: 0, message: "cannot read the scenario file", status: ExitStatus.file)
        let xml = JUnitReport.xml([failing, unreadable])
        let parser = XMLParser(data: Data(xml.utf8))
        #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))\n\(xml)")
        #expect(xml.contains(#"<testsuites name="gateway test" tests="4" failures="1" errors="1" skipped="1" time="1.500">"#))
        #expect(xml.contains(#"<testcase name="f.scenario:2" classname="f.scenario" time="0">"#))
        #expect(xml.contains("a&lt;b &amp; &quot;c&quot;"))
        #expect(xml.contains(#"<skipped message="its action at line 3 was not performed: unknown command 'fly'"/>"#))
        #expect(xml.contains("<system-err>f.scenario:3: unknown command 'fly'</system-err>"))
        #expect(xml.contains(#"<error message="cannot read the scenario file" type="scenario"/>"#))
        #expect(JUnitReport.text("a\u{01}b") == "a\u{FFFD}b")
        #expect(JUnitReport.attribute("line\nnext") == "line&#10;next")
    }
}

/// Devices are introduced to the services that need their profile, whatever their first action.
@Suite(.tags(.inMemory)) struct DeviceIntroductionTests {
    @Test func aFirstActionThatDoesNotReachPresentationPolicyIsPrecededByADescribe() {
        var introductions = DeviceIntroductions()
        #expect(introductions.plan(.roster, device: "d", profile: .iphone) == .init(describeFirst: .iphone))
        introductions.gave(.iphone, to: "d")
        // Described before: the next action needs no profile, and none is sent again.
        #expect(introductions.plan(.select("Cat-Bot"), device: "d", profile: nil) == .init())
        #expect(introductions.plan(.tap(Tap(element: "blowgun")), device: "k", profile: .ipad) == .init(describeFirst: .ipad))
        #expect(introductions.plan(.tap(Tap(point: Point(x: 1, y: 1))), device: "p", profile: .ipad) == .init(describeFirst: .ipad))
        #expect(introductions.plan(.interaction(element: "close", enabled: false), device: "i", profile: .ipad) == .init(describeFirst: .ipad))
    }

    @Test func anActionThatReachesPresentationPolicyCarriesTheProfileItself() {
        var introductions = DeviceIntroductions()
        #expect(introductions.plan(.tap(Tap(element: "add")), device: "d", profile: .ipad) == .init(profile: .ipad))
        #expect(introductions.plan(.screen(out: nil), device: "s", profile: .ipad) == .init(profile: .ipad))
        #expect(introductions.plan(.rotate(.landscape), device: "r", profile: .ipad) == .init(profile: .ipad))
        introductions.gave(.ipad, to: "d")
        // Described otherwise: sent again (presentation-policy says whether it conflicts).
        #expect(introductions.plan(.tap(Tap(element: "add")), device: "d", profile: .iphone) == .init(profile: .iphone))
    }

    @Test func aForgottenDeviceIsDescribedAgainAndCommandsWithoutADeviceAreLeftAlone() {
        var introductions = DeviceIntroductions()
        _ = introductions.plan(.tap(Tap(element: "add")), device: "d", profile: .ipad)
        introductions.gave(.ipad, to: "d")
        introductions.forgot("d")
        #expect(introductions.plan(.tap(Tap(element: "add")), device: "d", profile: nil) == .init(profile: .ipad))
        #expect(introductions.plan(.status, device: "d", profile: .ipad) == .init())
        #expect(introductions.plan(.forget("d"), device: "d", profile: .ipad) == .init())
        // Never described: nothing to introduce it with (presentation-policy will say so).
        #expect(introductions.plan(.select("Cat-Bot"), device: "nobody", profile: nil) == .init())
    }
}
