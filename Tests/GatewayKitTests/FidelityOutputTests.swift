import Domain
import Foundation
import InputCore
import PresentationCore
import Testing
import Wire
@testable import GatewayKit
import TestTiers

/// Output that never leaves a user guessing.
@Suite(.tags(.inMemory)) struct OrderedOutputTests {
    func message(_ id: String, from service: String, _ body: Body) -> Envelope {
        Envelope(id: id, correlationId: "A", service: service, device: "ipad", seq: 1, time: "t", body: body)
    }

    func ack(_ id: String, from service: String, handled: String, emitted: [String], forwarded: [Forward] = []) -> Envelope {
        message(id, from: service, .ack(Ack(handled: "x", handledId: handled, emitted: emitted, forwarded: forwarded)))
    }

    /// `describe`: presentation-policy, input-handling and roster each answer it, in parallel.
    func describeMessages() -> [Envelope] {
        let state = DeviceState(
            profile: .ipad, layout: DeviceLayout(orientation: .portrait, widthClass: .regular, window: Size(width: 768, height: 1024), elements: []),
            presentation: nil, popoverArrowDirection: .unknown, interactionDisabled: [])
        return [
            message("p1", from: "presentation-policy", .deviceState(state)),
            ack("p2", from: "presentation-policy", handled: "A", emitted: ["p1"]),
            message("i1", from: "input-handling", .inputState(InputState(firstResponder: nil, input: nil, weaponPickerCreated: false))),
            ack("i2", from: "input-handling", handled: "A", emitted: ["i1"]),
            message("r1", from: "roster", .snapshot(RosterSnapshot(revision: 0, monsters: [], selected: nil))),
            ack("r2", from: "roster", handled: "A", emitted: ["r1"]),
        ]
    }

    @Test func describePrintsItsSectionsInOneOrderWhateverOrderTheyArrive() throws {
        let messages = describeMessages()
        let expected = ["p1", "p2", "i1", "i2", "r1", "r2"]
        // Every interleaving of the three parallel answers gives the same order: the first hop's.
        let roster = messages.filter { $0.service == "roster" }
        let input = messages.filter { $0.service == "input-handling" }
        let first = Array(messages.prefix(2))
        for arrival in [first + input + roster, roster + input + first, [roster[0], input[0], roster[1]] + first + [input[1]],
                        [input[1], roster[1]] + first + [roster[0], input[0]]] {
            var tracker = ActionTracker(actionId: "A", firstHop: try #require(Routing.firstHop(of: .describe)))
            for envelope in arrival { tracker.observe(envelope) }
            #expect(tracker.isComplete)
            #expect(tracker.ordered.map(\.id) == expected)
        }
    }

    @Test func theVerdictSaysChangedUnchangedRefusedOrReported() {
        func verdict(_ messages: [Envelope], _ type: MessageType = .tap) -> Outcome {
            var tracker = ActionTracker(actionId: "A", firstHop: ["presentation-policy"])
            for envelope in messages { tracker.observe(envelope) }
            return tracker.outcome(of: type)
        }
        let nothing = verdict([
            message("p1", from: "presentation-policy", .unchanged(Unchanged(reason: "empty-space", message: "…"))),
            ack("p2", from: "presentation-policy", handled: "A", emitted: ["p1"]),
        ])
        #expect(nothing == Outcome(action: "device.tap", result: .unchanged, reason: "empty-space", messages: 2))
        let refused = verdict([
            message("p1", from: "presentation-policy", .error(ErrorBody(code: "modal-alert", message: "…"))),
            ack("p2", from: "presentation-policy", handled: "A", emitted: ["p1"]),
        ])
        #expect(refused.result == .refused && refused.reason == "modal-alert")
        let changed = verdict([
            message("p1", from: "presentation-policy", .mediaAddRequested(MediaAddRequested(kind: .photo))),
            ack("p2", from: "presentation-policy", handled: "A", emitted: ["p1"]),
        ])
        #expect(changed.result == .changed && changed.reason == nil)
        #expect(verdict(describeMessages(), .describe).result == .reported)
        let silent = verdict([ack("p2", from: "presentation-policy", handled: "A", emitted: [])])
        #expect(silent.result == .unchanged && silent.reason == "no-effect")
    }
}

@Suite(.tags(.inMemory)) struct FidelityFormatterTests {
    let plain = HumanFormatter(colors: false)

    func line(_ body: Body) -> String? {
        plain.line(for: Envelope(id: "i", correlationId: "c", service: "presentation-policy", device: "iphone", seq: 1, time: "t", body: body))
    }

    @Test func aMovedAlertSaysItStayedUpAndWasReCentred() throws {
        var session = DeviceSession(profile: .iphone)
        session.orientation = .landscape
        let alert = PresentationFactory.alert(.add, in: session.layout)
        let text = try #require(line(.moved(Moved(presentation: alert, reason: "rotation"))))
        #expect(text == "iphone alert “Add…” stays up, re-centred after rotation: now at (198.5, 87.5) 270×200")
        #expect(!text.contains("again"))
    }

    @Test func nothingChangedSaysWhy() {
        #expect(line(.unchanged(Unchanged(reason: "same-orientation", message: "the device is already in portrait: nothing turned")))
            == "iphone nothing changed: the device is already in portrait: nothing turned [same-orientation]")
    }

    @Test func interactionSaysWhatChanged() {
        #expect(line(.interactionChanged(InteractionChanged(element: "blowgun", enabled: false, interactionDisabled: ["blowgun", "weapon"])))
            == "iphone user interaction of blowgun now off (off now: blowgun, weapon)")
    }

    @Test func describeShowsViewsWhoseInteractionIsOff() throws {
        var session = DeviceSession(profile: .ipad)
        session.interactionDisabled = ["weapon", "add"]
        let text = try #require(line(.deviceState(session.message)))
        #expect(text.hasSuffix("nothing presented; user interaction off: add, weapon"))
    }

    @Test func aScreenWidePickerSaysWhereItStartsLeftOfTheWindow() throws {
        let view = InputViews.view(for: .weapon, keyboard: KeyboardMetrics(width: 768, systemHeight: 264, windowHeight: 1024, left: -448))
        let text = try #require(line(.inputShown(InputShown(input: view, created: true, reason: "first-responder"))))
        #expect(text.hasPrefix("iphone input view weapon-picker shown for weapon, 768×110 pt from x -448 (created)"))
    }

    @Test func theVerdictReads() {
        #expect(line(.outcome(Outcome(action: "device.tap", result: .unchanged, reason: "empty-space", messages: 2)))
            == "iphone device.tap: unchanged (empty-space)")
    }
}

@Suite(.tags(.inMemory)) struct StatusTableTests {
    @Test func columnsStayAlignedForStaleAndMissingRows() throws {
        let beat = { (service: String) in
            Heartbeat(service: service, version: "0.1.0", pid: 4242, uptimeSeconds: 12, intervalMilliseconds: 200, counters: ["handled": 3])
        }
        let report = StatusReport(bus: beat("bus"), services: [
            ServiceStatus(heartbeat: beat("presentation-policy"), lastHeartbeatAgeMilliseconds: 120, stale: false),
            ServiceStatus(heartbeat: beat("roster"), lastHeartbeatAgeMilliseconds: 1234567, stale: true),
        ])
        let lines = StatusCommand.format(report, missing: ["input-handling"]).split(separator: "\n").map(String.init)
        try #require(lines.count == 5)
        // Every column starts at the same place on every line.
        for header in ["VERSION", "PID", "UPTIME", "HEARTBEAT", "STATE", "COUNTERS"] {
            let column = try #require(lines[0].range(of: header)).lowerBound.utf16Offset(in: lines[0])
            for line in lines.dropFirst() where line.count > column {
                let before = line.prefix(column)
                #expect(before.hasSuffix("  "), "'\(header)' misaligned in: \(line)")
            }
        }
        #expect(lines.contains { $0.contains("STALE") && $0.contains("1234567 ms ago") })
        #expect(lines.last?.hasPrefix("input-handling") == true)
    }
}

@Suite(.tags(.inMemory)) struct FidelityScreenTests {
    @Test func theInputViewSpansTheScreenInSlideOverAndItsKeysAreTheModels() throws {
        var session = DeviceSession(profile: .ipad)
        session.widthClass = .compact
        session.mode = .slideOver
        session.orientation = .landscape
        let view = InputViews.view(for: .weapon, keyboard: session.layout.keyboard)
        let svg = try XMLTree.parse(ScreenRenderer.svg(
            device: session.message, input: InputState(firstResponder: "weapon", input: view, weaponPickerCreated: true),
            roster: nil, deviceName: "ipad"))
        let keyboardWindow = try #require(svg.element(id: "keyboard-window"))
        #expect(keyboardWindow.attributes["transform"] == "translate(704 0)")
        let background = try #require(svg.element(id: "input-view-background"))
        #expect(background.attributes["width"] == "1024")
        #expect(background.attributes["x"] == "-704")
        // The window group (clipped to the window) does not hold the input view.
        #expect(svg.element(id: "window")?.element(id: "input-view") == nil)
        // Each key is drawn at the frame the model gives.
        let fire = try #require(svg.elements(class: "weapon-button").first { $0.attributes["data-name"] == "fire" })
        let key = try #require(fire.children.last { $0.name == "rect" && $0.attributes["fill"] == ScreenTheme.Keyboard.key })
        try #require(view.buttonFrames.count == 6)
        let frame = view.buttonFrames[1]
        #expect(key.attributes["x"] == SVGBuilder.number(frame.x))
        #expect(key.attributes["y"] == SVGBuilder.number(frame.y))
        #expect(key.attributes["width"] == SVGBuilder.number(frame.width))
        let close = try #require(svg.elements(class: "input-key").first { $0.attributes["data-name"] == "close" })
        #expect(close.attributes["x"] == SVGBuilder.number(view.buttonFrames[5].x))
    }

    @Test func splitViewPutsTheWindowLeftAndTheOtherAppRight() throws {
        var session = DeviceSession(profile: .ipad)
        session.widthClass = .compact
        session.mode = .splitView
        let svg = try XMLTree.parse(ScreenRenderer.svg(device: session.message, input: nil, roster: nil, deviceName: "ipad"))
        #expect(svg.element(id: "window")?.attributes["transform"] == nil)
        #expect(svg.element(id: "other-app")?.text.contains("another app") == true)
    }

    /// The other app's area ends with a hairline against the window, on whichever side the
    /// window leaves free: a gap of one point is still a gap at the left.
    @Test func theOtherAppsHairlineTouchesTheWindowOnTheFreeSide() throws {
        for (width, hairline) in [(768.0, 447.0), (321, 0)] {
            var session = DeviceSession(profile: DeviceProfile(
                idiom: .pad, screen: Size(width: width, height: 1024), os: OSVersion("17.0")!, orientation: .portrait, widthClass: .regular))
            session.widthClass = .compact
            session.mode = .slideOver
            let svg = try XMLTree.parse(ScreenRenderer.svg(device: session.message, input: nil, roster: nil, deviceName: "ipad"))
            let area = try #require(svg.element(id: "other-app"))
            let lines = area.children.filter { $0.attributes["width"] == "1" }
            #expect(lines.map { $0.attributes["x"] } == [SVGBuilder.number(hairline)], "\(width) pt")
        }
    }

    @Test func theAlertsMessageIsDrawnAsAMessageNotABoldTitle() throws {
        let session = DeviceSession(profile: .iphone)
        var state = session.message
        state.presentation = PresentationFactory.alert(.add, in: session.layout)
        let svg = try XMLTree.parse(ScreenRenderer.svg(device: state, input: nil, roster: nil, deviceName: "iphone"))
        let message = try #require(svg.element(id: "alert-message"))
        #expect(message.attributes["font-weight"] == nil)
        #expect(message.attributes["font-size"] == "13")
        #expect(message.attributes["class"] == "message")
        #expect(message.text == "Add…")
    }
}
