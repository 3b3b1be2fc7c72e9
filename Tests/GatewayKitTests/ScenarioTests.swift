import Domain
import Foundation
import Testing
import Wire
@testable import GatewayKit
import TestTiers

/// Scenario files: parsing, expectations, and the runner (with a fake bus).
@Suite(.tags(.inMemory)) struct ScenarioTests {
    @Test func wordsSplitWithQuotesEscapesAndComments() throws {
        #expect(try ScenarioParser.split("--device ipad tap add   # the plus button") == ["--device", "ipad", "tap", "add"])
        #expect(try ScenarioParser.split("expect error message=\"an alert is up\"") == ["expect", "error", "message=an alert is up"])
        #expect(try ScenarioParser.split("select 'Mini-Tomato-Bot' a\\ b") == ["select", "Mini-Tomato-Bot", "a b"])
        #expect(try ScenarioParser.split("tap 'a#b'") == ["tap", "a#b"])
        #expect(throws: UsageError.self) { try ScenarioParser.split("tap \"add") }
    }

    @Test func linesBecomeActionsAndExpectationsWithTheirNumbers() throws {
        let steps = try ScenarioParser.parse("# comment\n\n--device iphone tap add\nexpect presentation.presented presentation.style=alert\nexpect-no media.add.requested\n")
        #expect(steps == [
            ScenarioStep(line: 3, kind: .action(["--device", "iphone", "tap", "add"])),
            ScenarioStep(line: 4, kind: .expectation(ScenarioExpectation(negated: false, type: "presentation.presented", fields: [.init(path: "presentation.style", value: "alert")]))),
            ScenarioStep(line: 5, kind: .expectation(ScenarioExpectation(negated: true, type: "media.add.requested", fields: []))),
        ])
    }

    @Test func aMalformedExpectationIsNamedByLine() {
        #expect(throws: UsageError("line 2: 'kind' is not FIELD=VALUE")) { try ScenarioParser.parse("tap add\nexpect media.add.requested kind") }
        #expect(throws: UsageError("line 1: expect needs a message type")) { try ScenarioParser.parse("expect") }
    }

    let popover = Envelope(
        id: "p", correlationId: "a", service: "presentation-policy", device: "ipad", seq: 1, time: "t",
        body: .presented(Presented(presentation: Presentation(
            style: .popover, content: .add, message: nil, buttons: ["Photo", "Audio"], buttonFrames: [],
            cancelButtonIndex: nil, anchor: Anchor(kind: .barButton, element: "add", rect: Rect(x: 716, y: 20, width: 44, height: 44)),
            permittedArrowDirections: .any, arrowDirection: .up, arrowTip: nil, frame: Rect(x: 558, y: 77, width: 200, height: 125),
            contentSize: Size(width: 200, height: 125), passthrough: []), reason: "tap")))

    func expectation(_ line: String) throws -> ScenarioExpectation {
        guard case .expectation(let expectation) = try ScenarioParser.parse(line)[0].kind else { throw UsageError("not one") }
        return expectation
    }

    @Test func fieldsAreReadByDottedPathsNumbersAndListsAsWritten() throws {
        #expect(try expectation("expect presentation.presented presentation.style=popover presentation.permittedArrowDirections=15").failure(in: [popover]) == nil)
        #expect(try expectation("expect presentation.presented presentation.buttons=Photo,Audio presentation.buttons.1=Audio").failure(in: [popover]) == nil)
        #expect(try expectation("expect presentation.presented presentation.anchor.rect.x=716 presentation.frame.y=77").failure(in: [popover]) == nil)
        #expect(try expectation("expect-no presentation.presented presentation.style=alert").failure(in: [popover]) == nil)
    }

    @Test func aFailedExpectationSaysWhatWasThereInstead() throws {
        #expect(try expectation("expect presentation.presented presentation.style=alert").failure(in: [popover])
            == "no presentation.presented message matched: the only one (from presentation-policy): presentation.style is popover, not alert")
        #expect(try expectation("expect media.add.requested").failure(in: [popover])
            == "no media.add.requested message; the action caused presentation.presented")
        #expect(try expectation("expect-no presentation.presented").failure(in: [popover]) == "a presentation.presented message matched")
        #expect(try expectation("expect presentation.presented presentation.nothing=1").failure(in: [popover])
            == "no presentation.presented message matched: the only one (from presentation-policy): presentation.nothing is absent, not 1")
    }

    func runner(_ messages: [[Envelope]], said: Box, complained: Box) -> ScenarioRunner {
        let queue = Box()
        queue.outcomes = messages
        return ScenarioRunner(
            source: "test.scenario",
            perform: { words in
                if words == ["fly"] { throw UsageError("unknown command 'fly'") }
                return ActionOutcome(messages: queue.outcomes.removeFirst(), status: 0)
            },
            say: { said.lines.append($0) }, complain: { complained.lines.append($0) })
    }

    final class Box: @unchecked Sendable {
        var lines: [String] = []
        var outcomes: [[Envelope]] = []
    }

    @Test func aPassingScenarioExitsZeroAndCounts() throws {
        let said = Box(), complained = Box()
        var runner = runner([[popover]], said: said, complained: complained)
        let status = runner.run(try ScenarioParser.parse("tap add\nexpect presentation.presented presentation.style=popover\n"))
        #expect(status == 0)
        #expect(complained.lines.isEmpty)
        #expect(said.lines.last == "test.scenario: 1 action(s), 1 expectation(s) passed")
    }

    @Test func theFirstFailedExpectationStopsTheRunNamingItsLine() throws {
        let said = Box(), complained = Box()
        var runner = runner([[popover], [popover]], said: said, complained: complained)
        let status = runner.run(try ScenarioParser.parse("tap add\nexpect presentation.presented presentation.style=alert\ntap add\n"))
        #expect(status == 1)
        #expect(complained.lines == ["test.scenario:2: expectation failed: expect presentation.presented presentation.style=alert: no presentation.presented message matched: the only one (from presentation-policy): presentation.style is popover, not alert"])
        #expect(!said.lines.contains("$ gateway tap add") || said.lines.filter { $0 == "$ gateway tap add" }.count == 1)
    }

    @Test func anExpectationBeforeAnyActionFails() throws {
        let said = Box(), complained = Box()
        var runner = runner([], said: said, complained: complained)
        #expect(runner.run(try ScenarioParser.parse("expect error")) == 1)
        #expect(complained.lines.first?.hasPrefix("test.scenario:1:") == true)
    }

    @Test func aBadActionLineExitsTwoNamingItsLine() throws {
        let said = Box(), complained = Box()
        var runner = runner([], said: said, complained: complained)
        #expect(runner.run(try ScenarioParser.parse("\nfly")) == 2)
        #expect(complained.lines == ["test.scenario:2: unknown command 'fly'"])
    }
}

/// `gateway run FILE`'s status when an action of the file fails: the status the action would
/// have had alone, naming FILE:LINE, and nothing after it runs.
@Suite(.tags(.unit)) struct ScenarioRunStatusTests {
    /// Runs `text`: `tap add` answered, `tap photo` refused, `fail` throwing `error`; returns the
    /// status, the complaints, and the actions performed.
    func run(_ text: String, failing error: any Error = UsageError("unused")) throws -> (status: Int32, complaints: [String], performed: [String]) {
        var complaints: [String] = []
        var performed: [String] = []
        let refusal = Envelope(
            id: "e", correlationId: "a", service: "presentation-policy", device: "iphone", seq: 1, time: "t",
            body: .error(ErrorBody(code: "no-such-element", message: "'photo' is not on screen")))
        var runner = ScenarioRunner(
            source: "f.scenario",
            perform: { words in
                performed.append(words.joined(separator: " "))
                if words == ["fail"] { throw error }
                if words == ["tap", "photo"] { return ActionOutcome(messages: [refusal], status: ExitStatus.refused) }
                return ActionOutcome(messages: [], status: ExitStatus.ok)
            },
            say: { _ in }, complain: { complaints.append($0) })
        let status = runner.run(try ScenarioParser.parse(text))
        return (status, complaints, performed)
    }

    static let failures: [(error: any Error, status: Int32)] = [
        (UsageError("unknown command 'fly'"), 2),
        (NoAnswer(description: "no answer from presentation-policy"), 3),
        (TransportError("cannot connect to the bus"), 4),
        (FileError("cannot write /nowhere/s.svg"), 5),
    ]

    @Test(arguments: 0..<ScenarioRunStatusTests.failures.count)
    func anActionThatFailsEndsTheRunWithItsOwnStatus(_ index: Int) throws {
        let (error, status) = Self.failures[index]
        let result = try run("tap add\nfail\nexpect error\ntap add\n", failing: error)
        #expect(result.status == status, "\(error)")
        #expect(result.complaints == ["f.scenario:2: \(error)"])
        #expect(result.performed == ["tap add", "fail"])
    }

    @Test func aRefusalNoExpectationFollowsEndsTheRunWithOne() throws {
        let refusal = "f.scenario:2: refused by presentation-policy [no-such-element]: 'photo' is not on screen, and no expectation follows it (`expect error code=…` when the refusal is meant)"
        let last = try run("tap add\ntap photo\n")
        #expect(last.status == 1)
        #expect(last.complaints == [refusal])
        let before = try run("tap add\ntap photo\ntap add\n")
        #expect(before.status == 1)
        #expect(before.complaints == [refusal])
        #expect(before.performed == ["tap add", "tap photo"])
    }

    @Test func aRefusalThatExpectationsFollowIsJudgedByThem() throws {
        let expected = try run("tap photo\nexpect error code=no-such-element\ntap add\n")
        #expect(expected.status == 0)
        #expect(expected.complaints.isEmpty)
        #expect(expected.performed == ["tap photo", "tap add"])
        let unexpected = try run("tap photo\nexpect error code=modal-alert\ntap add\n")
        #expect(unexpected.status == 1)
        #expect(unexpected.complaints.first?.hasPrefix("f.scenario:2: expectation failed: expect error code=modal-alert") == true, "\(unexpected.complaints)")
        #expect(unexpected.performed == ["tap photo"])
    }
}

/// `watch` filters.
@Suite(.tags(.inMemory)) struct WatchFilterTests {
    func envelope(_ body: Body, device: String? = "ipad") -> Envelope {
        Envelope(id: "i", correlationId: "c", service: "s", device: device, seq: 1, time: "t", body: body)
    }

    @Test func byDeviceAndTypePrefixAndQuietByDefault() {
        let tap = envelope(.tap(Tap(element: "add")))
        let beat = envelope(.heartbeat(Heartbeat(service: "roster", version: "1", pid: 1, uptimeSeconds: 1, intervalMilliseconds: 1000, counters: [:])), device: nil)
        #expect(WatchCommand.shows(tap, device: nil, types: [], json: false))
        #expect(WatchCommand.shows(tap, device: "ipad", types: [], json: false))
        #expect(!WatchCommand.shows(tap, device: "iphone", types: [], json: false))
        #expect(!WatchCommand.shows(tap, device: nil, types: ["presentation."], json: false))
        #expect(WatchCommand.shows(tap, device: nil, types: ["device."], json: false))
        #expect(!WatchCommand.shows(beat, device: nil, types: [], json: false))
        #expect(WatchCommand.shows(beat, device: nil, types: ["sys.heartbeat"], json: false))
    }
}

/// `completion bash`.
@Suite(.tags(.inMemory)) struct CompletionTests {
    @Test func theScriptCompletesEveryCommandAndElement() {
        let script = CompletionScript.bash
        for command in GatewayCommands.commands { #expect(script.contains(command.name)) }
        #expect(script.contains("complete -F _gateway gateway"))
        #expect(script.contains("ninja-star"))
        #expect(script.contains("Mini-Tomato-Bot"))
    }

    /// What bash offers after `words` (the last one being completed), with the script loaded.
    func complete(_ words: [String]) throws -> [String] {
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let program = CompletionScript.bash + "\nCOMP_WORDS=(gateway \(quoted)); COMP_CWORD=\(words.count); _gateway; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", program]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesExactlyTheDeclaredCommands() throws {
        #expect(try complete([""]) == GatewayCommands.commands.map(\.name))
        #expect(try complete(["--device", "ipad", ""]) == GatewayCommands.commands.map(\.name))
        #expect(try complete(["help", ""]) == GatewayCommands.commands.map(\.name))
    }

    @Test func bashCompletesExactlyEachCommandsOptions() throws {
        let global = GatewayCommands.globalOptions.flatMap(\.names)
        #expect(Set(try complete(["-"])) == Set(global))
        for command in GatewayCommands.commands {
            let offered = try complete([command.name, "-"])
            #expect(Set(offered) == Set(global + command.options.flatMap(\.names)), "\(command.name)")
        }
        #expect(try complete(["keys", "init", "k", "--"]).contains("--if-missing"))
    }

    @Test func bashCompletesArgumentsAndValues() throws {
        #expect(try complete(["tap", ""]) == GatewayElements.tappable)
        #expect(try complete(["--device", "iphone", "tap", "ninja"]) == ["ninja-star"])
        #expect(try complete(["tap", "add", ""]).isEmpty)
        #expect(try complete(["interaction", "weapon", ""]) == ["on", "off"])
        #expect(try complete(["ping", "roster", ""]) == ["bus", "presentation-policy", "roster", "input-handling"])
        #expect(try complete(["watch", "--format", ""]) == ["human", "json", "cloudevents"])
        #expect(try complete(["--orientation", "land"]) == ["landscape"])
        #expect(try complete(["roster", ""]) == ["backup"])
        #expect(try complete(["select", "Dog"]) == ["Dog-Bot"])
    }
}
