import Domain
import Testing
import Wire
@testable import PresentationCore
import TestTiers

/// Where the simulation follows UIKit more closely.
@Suite(.tags(.unit)) struct InputViewWidthTests {
    @Test func inSlideOverTheKeyboardSpansTheScreen_inPortraitAndLandscape() {
        var session = DeviceSession(profile: .ipad)
        session.widthClass = .compact
        session.mode = .slideOver
        #expect(session.layout.window.width == 320)
        #expect(session.layout.keyboard == KeyboardMetrics(width: 768, systemHeight: 264, windowHeight: 1024, left: -448))
        session.orientation = .landscape
        #expect(session.layout.keyboard == KeyboardMetrics(width: 1024, systemHeight: 352, windowHeight: 768, left: -704))
        #expect(session.layout.windowOrigin == Point(x: 704, y: 0))
    }

    @Test func inSplitViewTheWindowIsAtTheLeftAndTheKeyboardSpansTheScreen() throws {
        var harness = Harness()
        let effects = harness.send("ipad", .resize(Resize(mode: .splitView, profile: .ipad)))
        try #require(types(effects) == [.deviceLayout])
        guard case .deviceLayout(let layout) = effects[0].body, let keyboard = layout.keyboard else {
            Issue.record("expected layout.changed with the keyboard"); return
        }
        #expect(layout.reason == "resize")
        #expect(layout.mode == .splitView && layout.widthClass == .compact)
        #expect(layout.window == Size(width: 320, height: 1024))
        #expect(layout.windowOrigin == Point(x: 0, y: 0))
        #expect(keyboard == KeyboardMetrics(width: 768, systemHeight: 264, windowHeight: 1024, left: 0))
        // Split View and Slide Over are both compact: moving between them moves the window.
        let moved = harness.send("ipad", .resize(Resize(mode: .slideOver)))
        guard case .deviceLayout(let slideOver) = moved.first?.body else { Issue.record("no layout"); return }
        #expect(slideOver.windowOrigin == Point(x: 448, y: 0))
        #expect(harness.send("ipad", .resize(Resize(width: .compact))).first?.unchanged?.reason == "same-width")
    }

    @Test func fullScreenLandscapeKeyboardIs1024Wide() {
        var session = DeviceSession(profile: .ipad)
        session.orientation = .landscape
        #expect(session.layout.keyboard.width == 1024)
        #expect(session.layout.keyboard.left == 0)
    }
}

@Suite(.tags(.unit)) struct PointTapTests {
    @Test func aPointGoesToTheKeyboardsWindowFirst_andWhatItPassesBackIsHitTestedHere() {
        #expect(Routing.firstHop(of: .tap(Tap(point: Point(x: 400, y: 1000)))) == [MonsterBus.Service.inputHandling])
        var harness = Harness()
        let passed = harness.send("ipad", .inputPassed(InputPassed(point: Point(x: 400, y: 1000), profile: .ipad)))
        #expect(passed.first?.unchanged?.reason == "empty-space")
        #expect(harness.send("ipad", .inputPassed(InputPassed(point: Point(x: 400, y: 2000)))).first?.unchanged?.reason == "off-screen")
    }

    @Test func withAnAlertUpAPointNeverReachesTheKeyboard() throws {
        var harness = Harness()
        let alert = try #require(harness.tap("iphone", "add").first?.presented).presentation
        let cancel = try #require(alert.buttonFrames.first)
        let effects = harness.send("iphone", .tap(Tap(point: Point(x: cancel.midX, y: cancel.midY))))
        try #require(types(effects) == [.dismissed])
        #expect(effects[0].dismissed?.buttonIndex == 0)
    }

    @Test func aPointOffTheScreenSaysSo() {
        var harness = Harness()
        for point in [Point(x: 9999, y: 9999), Point(x: -5, y: 10)] {
            let effects = harness.send("ipad", .tap(Tap(point: point, profile: .ipad)))
            #expect(types(effects) == [.unchanged])
            #expect(effects.first?.unchanged?.reason == "off-screen")
        }
    }

    @Test func aPointOnAnotherAppsPartOfTheScreenSaysSo() {
        var harness = Harness()
        _ = harness.resize("ipad", .compact)
        // Left of the Slide Over window: on the screen, not in the app's window.
        let effects = harness.tap("ipad", at: Point(x: -100, y: 500))
        #expect(effects.first?.unchanged?.reason == "outside-window")
        // The window's own edge is the window's; half a point left of it is not.
        #expect(harness.tap("ipad", at: Point(x: 0, y: 500)).first?.unchanged?.reason != "outside-window")
        #expect(harness.tap("ipad", at: Point(x: -0.5, y: 500)).first?.unchanged?.reason == "outside-window")
        #expect(harness.tap("ipad", at: Point(x: 100, y: 0)).first?.unchanged?.reason != "outside-window")
    }

    @Test func aPointOnEmptySpaceAndTapOutsideWithNothingUpSaySo() {
        var harness = Harness()
        #expect(harness.tap("ipad", at: Point(x: 700, y: 900)).first?.unchanged?.reason == "empty-space")
        #expect(harness.tap("ipad", "outside").first?.unchanged?.reason == "empty-space")
        #expect(harness.tap("ipad", at: Point(x: 300, y: 10)).first?.unchanged?.reason == "empty-space")
        #expect(harness.tap("ipad", at: Point(x: 100, y: 140)).first?.unchanged?.reason == "no-action")
    }
}

@Suite(.tags(.unit)) struct RosterRowTests {
    @Test func aVisibleRowCanBeTappedByNameOrByPoint() throws {
        var harness = Harness()
        _ = harness.rotate("ipad", .landscape)
        let byName = harness.tap("ipad", "Fire-Bot")
        #expect(byName == [.forward(.rosterSelect(RosterSelect(monster: "Fire-Bot")), to: MonsterBus.Service.roster)])
        #expect(harness.tap("ipad", "row:Ice-Bot").first?.body == .rosterSelect(RosterSelect(monster: "Ice-Bot")))
        // Fire-Bot's row is at (0, 196) 320×44 in landscape.
        let byPoint = harness.tap("ipad", at: Point(x: 100, y: 210))
        #expect(byPoint.first?.body == .rosterSelect(RosterSelect(monster: "Fire-Bot")))
    }

    @Test func aRowNotOnScreenSaysWhereTheListIs() throws {
        var harness = Harness()
        let refused = harness.tap("ipad", "Fire-Bot")
        let error = try #require(refused.first?.errorBody)
        #expect(error.code == "no-such-element")
        #expect(error.message.contains("roster list is not shown in portrait"))
        #expect(!error.message.contains("no popover or alert"))
    }

    @Test func selectAndARowTapAgree_withAPopoverUpBothOnlyDismissIt() {
        var tapped = Harness()
        _ = tapped.rotate("ipad", .landscape)
        _ = tapped.tap("ipad", "add")
        let tap = tapped.tap("ipad", "Fire-Bot")

        var selected = Harness()
        _ = selected.rotate("ipad", .landscape)
        _ = selected.tap("ipad", "add")
        let select = selected.select("ipad", "Fire-Bot")

        #expect(types(tap) == [.dismissed])
        #expect(tap.first?.dismissed?.reason == "outside-tap")
        #expect(select == tap)
    }

    @Test func selectWhereTheListIsNotOnScreenSelectsProgrammaticallyAndLeavesAPopover() {
        var harness = Harness()
        _ = harness.tap("ipad", "add")
        let effects = harness.select("ipad", "Dog-Bot")
        #expect(effects == [.forward(.rosterSelect(RosterSelect(monster: "Dog-Bot")), to: MonsterBus.Service.roster)])
        #expect(harness.presentation("ipad")?.content == .add)
        // On an iPhone too (no list at all); refused while an alert is up.
        _ = harness.tap("iphone", "add")
        #expect(harness.select("iphone", "Dog-Bot").first?.errorBody?.code == "modal-alert")
    }
}

@Suite(.tags(.unit)) struct RegularWidthIPhoneTests {
    static let plusLandscape = DeviceProfile(
        idiom: .phone, screen: Size(width: 414, height: 736), os: OSVersion("17.0")!,
        orientation: .landscape, widthClass: .regular)

    @Test func aRegularWidthIPhoneIsAllowedAndStillGetsTheAlert() throws {
        #expect(Self.plusLandscape.problems.isEmpty)
        var harness = Harness()
        let effects = harness.tap("plus", "add", profile: Self.plusLandscape)
        let presented = try #require(effects.first?.presented).presentation
        #expect(presented.style == .alert)
        #expect(presented.message == "Add…")
        #expect(presented.frame.midX == 736.0 / 2)
        #expect(harness.tap("plus", "color").first?.errorBody?.code == "modal-alert")
    }

    /// The split view is the tutorial's iPad-only code: a regular-width iPhone shows the detail
    /// pane alone, full width, with neither the roster pane nor a Monster List button.
    @Test func aRegularWidthIPhoneShowsTheDetailPaneAlone() throws {
        var harness = Harness()
        _ = harness.send("plus", .describe(Describe(profile: Self.plusLandscape)))
        let layout = try #require(harness.core.devices["plus"]).layout
        #expect(layout.element("master") == nil)
        #expect(layout.element("monster-list") == nil)
        #expect(layout.row(named: "Cat-Bot") == nil)
        #expect(layout.element("detail")?.frame.minX == 0)
        #expect(layout.element("detail")?.frame.width == 736)
    }
}

@Suite(.tags(.unit)) struct InteractionTests {
    @Test func thePickersButtonsInteractionIsInputHandlings_andEachChangeHereSaysWhatChanged() {
        #expect(Routing.firstHop(of: .interaction(Interaction(element: "blowgun", enabled: false))) == [MonsterBus.Service.inputHandling])
        #expect(Routing.firstHop(of: .interaction(Interaction(element: "weapon", enabled: false))) == [MonsterBus.Service.presentationPolicy])
        var harness = Harness()
        let off = harness.send("ipad", .interaction(Interaction(element: "weapon", enabled: false, profile: .ipad)))
        #expect(off == [.publish(.interactionChanged(InteractionChanged(element: "weapon", enabled: false, interactionDisabled: ["weapon"])))])
        #expect(harness.send("ipad", .interaction(Interaction(element: "weapon", enabled: false))).first?.unchanged?.reason == "interaction-unchanged")
        #expect(harness.send("ipad", .interaction(Interaction(element: "laser", enabled: false))).first?.errorBody?.code == "unknown-element")
    }

    /// A bar button with user interaction off never takes the tap, not even through a popover's
    /// passthrough bar: the popover stays, and the refusal publishes no dismissal.
    @Test func aDisabledBarButtonUnderAPopoverNeitherReplacesNorTogglesIt() throws {
        var harness = Harness()
        #expect(harness.tap("ipad", "add").first?.presented != nil)
        for element in ["color", "add"] {
            _ = harness.send("ipad", .interaction(Interaction(element: element, enabled: false)))
            let effects = harness.tap("ipad", element)
            #expect(effects.map { $0.errorBody?.code } == ["interaction-disabled"], "\(element): \(types(effects))")
            #expect(harness.presentation("ipad")?.content == .add)
        }
    }

    @Test func aRowCanBeTurnedOffByTheMonstersName() {
        var harness = Harness()
        _ = harness.rotate("ipad", .landscape)
        _ = harness.send("ipad", .interaction(Interaction(element: "Fire-Bot", enabled: false)))
        #expect(harness.tap("ipad", "Fire-Bot").first?.errorBody?.code == "interaction-disabled")
    }
}

@Suite(.tags(.unit)) struct FirstActionTests {
    @Test func aRefusedFirstActionWithAProfileStillRegistersTheDevice() throws {
        var harness = Harness()
        #expect(harness.tap("left", "red", profile: .ipad).first?.errorBody?.code == "no-such-element")
        let next = harness.send("left", .tap(Tap(element: "add")))
        #expect(try #require(next.first?.presented).presentation.style == .popover)
    }
}
