import Foundation
import Testing
import TestTiers

/// SPEC §1.1 through the real processes and the real gateway executable, over TCP on
/// ephemeral ports (the bus reports the ports it was given).
@Suite(.serialized, .tags(.processes)) final class PlusButtonFlowTests {
    let stack: Stack

    init() throws { stack = try Stack(transport: .tcp) }

    @Test func onAnIPadPlusPresentsAPopoverWithPhotoAndAudio() throws {
        let result = try stack.json("ipad", "tap", "add")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.types == ["presentation.presented"])
        let presented = try #require(result.body("presentation.presented"))
        #expect(value(presented, "presentation.style") as? String == "popover")
        #expect(value(presented, "presentation.buttons") as? [String] == ["Photo", "Audio"])
        #expect(value(presented, "presentation.permittedArrowDirections") as? Int == 15)
        #expect(value(presented, "presentation.anchor.element") as? String == "add")
        // Every envelope carries the header fields, and everything is correlated to the action.
        let envelope = try #require(result.messages("presentation.presented").first)
        for field in ["v", "type", "id", "correlationId", "service", "device", "seq", "time", "body"] {
            #expect(envelope[field] != nil, "missing \(field)")
        }
        #expect(Set(result.envelopes.compactMap { $0["correlationId"] as? String }).count == 1)

        let photo = try stack.json("ipad", "tap", "photo")
        #expect(photo.status == 0)
        #expect(photo.types == ["presentation.dismissed", "media.add.requested"])
        #expect(value(photo.body("media.add.requested"), "kind") as? String == "photo")
    }

    @Test func onAnIPhonePlusPresentsTheAddAlertAndNoPopover() throws {
        let result = try stack.json("iphone", "tap", "add")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.types == ["presentation.presented"])
        let alert = try #require(result.body("presentation.presented"))
        #expect(value(alert, "presentation.style") as? String == "alert")
        #expect(value(alert, "presentation.message") as? String == "Add…")
        #expect(value(alert, "presentation.buttons") as? [String] == ["Cancel", "Photo", "Audio"])
        #expect(!result.stdout.contains("\"popover\""))

        let audio = try stack.json("iphone", "tap", "audio")
        #expect(audio.types == ["presentation.dismissed", "media.add.requested"])
        #expect(value(audio.body("presentation.dismissed"), "buttonIndex") as? Int == 2)
        #expect(value(audio.body("media.add.requested"), "kind") as? String == "audio")
    }

    @Test func cancelOnlyDismissesTheAlert() throws {
        _ = try stack.json("iphone", "tap", "add")
        let cancel = try stack.json("iphone", "tap", "cancel")
        #expect(cancel.status == 0)
        #expect(cancel.types == ["presentation.dismissed"])
    }

    @Test func humanOutputIsOneLinePerThingThatHappened() throws {
        let result = try stack.gateway(["--device", "ipad", "tap", "add"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("ipad popover add from bar button add: Photo | Audio"))
        #expect(result.stdout.split(separator: "\n").count == 1)
    }

    @Test func aRefusedActionExitsOneWithTheReason() throws {
        let result = try stack.json("ipad", "tap", "photo")
        #expect(result.status == 1)
        #expect(value(result.body("error"), "code") as? String == "no-such-element")
    }

    @Test func statusListsTheThreeServices() throws {
        let result = try stack.gateway(["status"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        for name in Stack.services { #expect(result.stdout.contains(name)) }
        #expect(!result.stdout.contains("MISSING"))
    }

    @Test func theRosterAnswersWithTheSixMonsters() throws {
        let result = try stack.json("ipad", "roster")
        #expect(result.status == 0)
        let monsters = try #require(value(result.body("roster.snapshot"), "monsters") as? [[String: Any]])
        #expect(monsters.map { $0["name"] as? String } == ["Cat-Bot", "Dog-Bot", "Explode-Bot", "Fire-Bot", "Ice-Bot", "Mini-Tomato-Bot"])
    }
}

/// The gateway when things are missing or wrong.
@Suite(.tags(.processes)) struct GatewayFailureTests {
    @Test func aGatewayPointedAtNoBusExitsThreeWithAReasonWithinItsTimeout() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-bus-\(UUID().uuidString.prefix(8))")
        var environment = ProcessInfo.processInfo.environment
        environment["BUS_FRONTEND"] = "ipc://\(folder.path)/nothing-front"
        environment["BUS_BACKEND"] = "ipc://\(folder.path)/nothing-back"
        let result = try runToCompletion(Products.url("gateway"), ["--timeout", "1", "--device", "ipad", "tap", "add"], environment: environment)
        #expect(result.status == 3)
        #expect(result.stderr.contains("no answer from"))
        #expect(result.seconds < 4)
    }

    @Test func aMissingServiceIsNamedByTheActionsThatNeedIt() throws {
        let stack = try Stack(services: ["presentation-policy", "roster"])
        let result = try stack.gateway(["--timeout", "1", "tap", "weapon"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("input-handling"))
        #expect(result.stderr.contains("never answered a ping"))
        // `tap outside` needs only presentation-policy: it works without input-handling (`tap
        // add` does not: input-handling reads its presentation, an alert being modal over its window).
        let outside = try stack.gateway(["--timeout", "1", "tap", "outside"])
        #expect(outside.status == 0, "\(outside.stderr)")
        // `gateway status` exits 1 with the missing service named.
        let status = try stack.gateway(["status"])
        #expect(status.status == 1, "\(status.stdout)\(status.stderr)")
        let row = status.stdout.split(separator: "\n").first { $0.hasPrefix("input-handling ") }
        #expect(row?.contains("MISSING") == true, "\(status.stdout)")
    }

    @Test func unknownCommandsAndBadArgumentsExitTwoWithUsage() throws {
        let unknown = try runToCompletion(Products.url("gateway"), ["fly"], environment: [:])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown command 'fly'"))
        #expect(unknown.stderr.contains("usage:"))
        let bad = try runToCompletion(Products.url("gateway"), ["rotate", "sideways"], environment: [:])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("usage: gateway [OPTIONS] rotate portrait|landscape"))
    }

    @Test func helpNamesEveryCommand() throws {
        let help = try runToCompletion(Products.url("gateway"), ["--help"], environment: [:])
        #expect(help.status == 0)
        for command in ["tap", "rotate", "resize", "select", "roster", "status", "ping", "describe", "interaction"] {
            #expect(help.stdout.contains("\n  \(command)"), "\(command)")
        }
    }
}

/// Services leave cleanly and quickly on SIGTERM.
@Suite(.tags(.processes)) struct LifecycleTests {
    @Test func everyProcessExitsZeroWithinASecondOfSIGTERM() throws {
        let stack = try Stack()
        for name in Stack.services {
            let child = try #require(stack.processes[name])
            #expect(stack.stop(name, signal: SIGTERM, timeout: 5) == 0, "\(name)")
            // Measured by the service itself, from the signal to its last line.
            let milliseconds = child.waitForLine(timeout: 1) { line -> Int? in
                guard let range = line.range(of: "stopped ") , let end = line.range(of: " ms after the signal") else { return nil }
                return Int(line[range.upperBound..<end.lowerBound])
            }
            #expect(milliseconds != nil && milliseconds! < 1000, "\(name): \(String(describing: milliseconds)) ms")
        }
        #expect(stack.stop("bus", signal: SIGTERM, timeout: 5) == 0)
    }
}
