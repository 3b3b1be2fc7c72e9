import Domain
import Testing
import Wire
@testable import PresentationCore
import TestTiers

/// SPEC §1.2: one popover at a time, dismissed by a tap outside (but not on its passthrough
/// views) and by its own bar button (toggle).
@Suite(.tags(.unit)) struct DismissalTests {
    @Test func aTapOutsideDismissesThePopover() throws {
        var harness = Harness()
        _ = harness.tap("ipad", "add")
        let effects = harness.tap("ipad", "outside")
        try #require(types(effects) == [.dismissed])
        #expect(try #require(effects[0].dismissed).reason == "outside-tap")
        #expect(harness.presentation("ipad") == nil)
    }

    @Test func aTapOnAViewOutsideThePopoverOnlyDismissesIt() throws {
        var harness = Harness()
        _ = harness.tap("ipad", "add")
        let effects = harness.tap("ipad", "weapon")
        // The tap is consumed by the dismissal: the weapon image never gets it.
        try #require(types(effects) == [.dismissed])
        #expect(try #require(effects[0].dismissed).reason == "outside-tap")
    }

    @Test func thePresentingBarButtonTogglesThePopoverOff() throws {
        var harness = Harness()
        _ = harness.tap("ipad", "add")
        let effects = harness.tap("ipad", "add")
        try #require(types(effects) == [.dismissed])
        #expect(try #require(effects[0].dismissed).reason == "toggle")
        #expect(harness.presentation("ipad") == nil)
    }

    @Test func anotherBarButtonPassesThroughAndReplacesThePopover() throws {
        var harness = Harness()
        _ = harness.tap("ipad", "add")
        let effects = harness.tap("ipad", "color")
        try #require(types(effects) == [.dismissed, .presented])
        #expect(try #require(effects[0].dismissed).reason == "replaced")
        #expect(try #require(effects[1].presented).presentation.content == .color)
        #expect(harness.presentation("ipad")?.content == .color)
    }

    @Test func aTapOnTheNavigationBarPassesThroughAndKeepsThePopover() {
        var harness = Harness()
        _ = harness.tap("ipad", "add")
        // (400, 40) is on the navigation bar, between its buttons.
        #expect(harness.tap("ipad", at: Point(x: 400, y: 40)).first?.unchanged?.reason == "passthrough")
        #expect(harness.presentation("ipad")?.content == .add)
    }

    @Test func aRectanglePopoverHasNoPassthroughSoTheBarDismissesIt() throws {
        var harness = Harness()
        _ = harness.tap("ipad", "icon")
        let effects = harness.tap("ipad", "add")
        try #require(types(effects) == [.dismissed])
        #expect(try #require(effects[0].dismissed).reason == "outside-tap")
    }

    @Test func aPointOnAPopoverButtonIsThatButton() throws {
        var harness = Harness()
        let popover = try #require(harness.tap("ipad", "add").first?.presented).presentation
        try #require(popover.buttonFrames.count == 2)
        let audio = popover.buttonFrames[1]
        let effects = harness.tap("ipad", at: Point(x: audio.midX, y: audio.midY))
        try #require(types(effects) == [.dismissed, .mediaAddRequested])
        #expect(effects[1].body == .mediaAddRequested(MediaAddRequested(kind: .audio)))
    }

    @Test func aPointInsideThePopoverOffItsButtonsDoesNothing() throws {
        var harness = Harness()
        let popover = try #require(harness.tap("ipad", "add").first?.presented).presentation
        #expect(harness.tap("ipad", at: Point(x: popover.frame.minX + 2, y: popover.frame.maxY - 2)).first?.unchanged?.reason == "inside-popover")
        #expect(harness.presentation("ipad") != nil)
    }

    @Test func theInputViewsButtonsAreNotCoveredByThePopover() {
        var harness = Harness()
        _ = harness.tap("ipad", "add")
        // They are input-handling's, in the keyboard's window above: the tap goes there first.
        #expect(Routing.firstHop(of: .tap(Tap(element: "fire"))) == [MonsterBus.Service.inputHandling])
        #expect(harness.presentation("ipad")?.content == .add)
    }
}

/// SPEC §1.2: an alert is modal.
@Suite(.tags(.unit)) struct ModalityTests {
    @Test func whileAnAlertIsUpOtherTapsAreRefusedAndNothingElseIsPresented() throws {
        var harness = Harness()
        let alert = try #require(harness.tap("iphone", "add").first?.presented).presentation
        for element in ["add", "color", "outside", "weapon", "icon", "laser"] {
            let effects = harness.tap("iphone", element)
            #expect(types(effects) == [.error], "tap \(element)")
            #expect(effects.first?.errorBody?.code == "modal-alert")
            #expect(harness.presentation("iphone") == alert)
        }
    }

    @Test func whileAnAlertIsUpSelectionIsRefused() {
        var harness = Harness()
        _ = harness.tap("iphone", "add")
        #expect(harness.select("iphone", "Dog-Bot").first?.errorBody?.code == "modal-alert")
    }

    @Test func aPointTapOnAnAlertButtonIsThatButton() throws {
        var harness = Harness()
        let alert = try #require(harness.tap("iphone", "add").first?.presented).presentation
        let cancel = try #require(alert.buttonFrames.first)
        #expect(types(harness.tap("iphone", at: Point(x: cancel.midX, y: cancel.midY))) == [.dismissed])
        #expect(harness.presentation("iphone") == nil)
    }
}
