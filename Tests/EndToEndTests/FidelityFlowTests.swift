import Foundation
import Testing
import TestTiers

/// UIKit fidelity through the real processes: taps by point on the picker, no silent no-ops, output in
/// a fixed order, a device registered by a refused first action, and one service down.
@Suite(.serialized, .tags(.processes)) final class FidelityFlowTests {
    let stack: Stack

    init() throws { stack = try Stack() }

    @Test func aTapAtAPointOnThePickerIsThatKey_asDrawnByScreen() throws {
        let shown = try stack.json("ipad", "tap", "weapon")
        let frames = try #require(value(shown.body("input.shown"), "input.buttonFrames") as? [[String: Any]])
        try #require(frames.count == 6)
        // Blowgun's key, where the model (and so `gateway screen`) puts it.
        let x = try #require(frames[0]["x"] as? Double ?? (frames[0]["x"] as? Int).map(Double.init))
        let y = try #require(frames[0]["y"] as? Double ?? (frames[0]["y"] as? Int).map(Double.init))
        let svg = try stack.gateway(["--device", "ipad", "screen"])
        #expect(svg.stdout.contains("data-name=\"blowgun\""))
        #expect(svg.stdout.contains("x=\"\(Int(x))\" y=\"\(Int(y))\" width=\"70\" height=\"70\""))
        let tap = try stack.gateway(["--device", "ipad", "tap", "--at", "\(Int(x) + 10),\(Int(y) + 10)"])
        #expect(tap.status == 0, "\(tap.stderr)")
        #expect(tap.stdout.contains("weapon Blowgun (0) selected"))
        #expect(tap.stdout.contains("input view weapon-picker hidden: weapon-selected"))
    }

    @Test func everyNoOpSaysWhatHappened_inPeoplesLinesAndInJSON() throws {
        _ = try stack.json("ipad", "tap", "weapon")
        let cases: [([String], String)] = [
            (["tap", "outside"], "empty-space"),
            (["tap", "weapon"], "already-first-responder"),
            (["rotate", "portrait"], "same-orientation"),
            (["tap", "--at", "9999,9999"], "off-screen"),
            (["tap", "--at", "-5,10"], "off-screen"),
            (["tap", "--at", "700,300"], "empty-space"),
        ]
        for (arguments, reason) in cases {
            let human = try stack.gateway(["--device", "ipad"] + arguments)
            #expect(human.status == 0)
            #expect(human.stdout.contains("nothing changed: ") && human.stdout.contains("[\(reason)]"), "\(arguments): \(human.stdout)")
            let json = try stack.gateway(["--json", "--device", "ipad"] + arguments)
            #expect(json.outcome?["result"] as? String == "unchanged", "\(arguments)")
            #expect(json.outcome?["reason"] as? String == reason, "\(arguments)")
        }
        // Changes and refusals end with their verdict too.
        #expect(try stack.json("ipad", "tap", "close").outcome?["result"] as? String == "changed")
        #expect(try stack.json("ipad", "tap", "fire").outcome?["result"] as? String == "refused")
    }

    @Test func describePrintsTheSameLinesInTheSameOrderEveryTime() throws {
        _ = try stack.json("ipad", "tap", "weapon")
        _ = try stack.json("ipad", "interaction", "add", "off")
        let first = try stack.gateway(["--device", "ipad", "describe"])
        #expect(first.stdout.contains("user interaction off: add"))
        let lines = first.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("ipad pad portrait") == true)
        #expect(lines.dropFirst().first?.hasPrefix("ipad first responder: weapon") == true)
        #expect(lines.dropFirst(2).first?.hasPrefix("ipad roster at revision") == true)
        for _ in 0..<6 {
            #expect(try stack.gateway(["--device", "ipad", "describe"]).stdout == first.stdout)
        }
    }

    @Test func interactionOfAPickerButtonIsAcceptedAndSaysWhatChanged() throws {
        let off = try stack.gateway(["--device", "ipad", "interaction", "blowgun", "off"])
        #expect(off.status == 0, "\(off.stderr)")
        #expect(off.stdout.contains("user interaction of blowgun now off"))
        _ = try stack.json("ipad", "tap", "weapon")
        let refused = try stack.json("ipad", "tap", "blowgun")
        #expect(value(refused.body("error"), "code") as? String == "interaction-disabled")
    }

    @Test func aRefusedFirstActionWithAProfileLeavesTheDeviceKnown() throws {
        let first = try stack.gateway(["--device", "left", "--profile", "ipad", "tap", "red"])
        #expect(first.status == 1)
        let next = try stack.gateway(["--device", "left", "tap", "add"])
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        #expect(!next.stdout.contains("describe it the first time"))
        #expect(next.stdout.contains("popover add"))
    }

    @Test func withOneServiceDownOnlyTheActionsThatNeedItFailNamingIt() throws {
        #expect(stack.stop("input-handling") != nil)
        // A presentation is read by input-handling (an alert is modal over its window): `tap
        // outside` does not reach it.
        let outside = try stack.gateway(["--timeout", "3", "--device", "ipad", "tap", "outside"])
        #expect(outside.status == 0, "\(outside.stderr)")
        #expect(outside.stdout.contains("nothing changed"))
        let weapon = try stack.gateway(["--timeout", "2", "--device", "ipad", "tap", "weapon"])
        #expect(weapon.status == 3)
        #expect(weapon.stderr.contains("input-handling"))
    }
}
