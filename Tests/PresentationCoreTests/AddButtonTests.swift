import Domain
import Testing
@testable import PresentationCore
import TestTiers

/// SPEC §1.1: the `+` button — a popover on a regular-width iPad with popovers, an alert elsewhere.
@Suite(.tags(.unit)) struct AddButtonTests {
    @Test func addOnARegularIPadPresentsAPopoverAnchoredAtThePlusButton() throws {
        var harness = Harness()
        let effects = harness.tap("ipad", "add")
        try #require(types(effects) == [.presented])
        let popover = try #require(effects[0].presented).presentation
        #expect(popover.style == .popover)
        #expect(popover.content == .add)
        #expect(popover.buttons == ["Photo", "Audio"])
        #expect(popover.anchor == Anchor(kind: .barButton, element: "add", rect: Rect(x: 716, y: 20, width: 44, height: 44)))
        #expect(popover.permittedArrowDirections == .any)
        #expect(popover.permittedArrowDirections?.rawValue == 15)
        #expect(popover.arrowDirection == .up)
        #expect(popover.contentSize == Size(width: 200, height: 125))
        #expect(popover.frame == Rect(x: 558, y: 77, width: 200, height: 125))
        #expect(popover.arrowTip == Point(x: 738, y: 64))
        #expect(popover.message == nil)
        #expect(harness.presentation("ipad") == popover)
    }

    @Test func addOnAnIPhonePresentsTheAddAlertAndNeverAPopover() throws {
        var harness = Harness()
        let effects = harness.tap("iphone", "add")
        try #require(types(effects) == [.presented])
        let alert = try #require(effects[0].presented).presentation
        #expect(alert.style == .alert)
        #expect(alert.message == "Add…")
        #expect(alert.buttons == ["Cancel", "Photo", "Audio"])
        #expect(alert.cancelButtonIndex == 0)
        #expect(alert.anchor == nil)
        #expect(alert.permittedArrowDirections == nil)
        #expect(alert.arrowDirection == .unknown)
        #expect(alert.arrowDirection.rawValue == UInt64.max)
        // Centred in the 375×667 window.
        #expect(alert.frame.midX == 187.5)
        #expect(alert.frame.midY == 333.5)
    }

    @Test func addOnACompactIPadWindowPresentsTheAlert() throws {
        var harness = Harness()
        #expect(types(harness.resize("ipad", .compact)) == [.deviceLayout])
        let effects = harness.tap("ipad", "add")
        #expect(try #require(effects.first?.presented).presentation.style == .alert)
    }

    @Test func addOnAnIPadWithAnOSBeforePopoversPresentsTheAlert() throws {
        var harness = Harness()
        let effects = harness.tap("old", "add", profile: .ipadLegacy)
        #expect(try #require(effects.first?.presented).presentation.style == .alert)
    }

    /// Popovers exist from iPhone OS 3.2: that version and every later one get the popover (and
    /// the split view with its Monster List button); every earlier one the alert and no split view.
    @Test(arguments: ["3.2", "3.2.0", "3.2.1", "3.10", "4.0", "17.0"])
    func anIPadFromTheFirstOSWithPopoversOnGetsThePopover(_ os: String) throws {
        var profile = DeviceProfile.ipad
        profile.os = try #require(OSVersion(os))
        var harness = Harness()
        #expect(try #require(harness.tap("pad", "add", profile: profile).first?.presented).presentation.style == .popover)
        #expect(try #require(harness.tap("list", "monster-list", profile: profile).first?.presented).presentation.content == .monsterList)
    }

    @Test(arguments: ["3.1.9", "3.1.3", "3.1", "3", "2.0"])
    func anIPadBeforeTheFirstOSWithPopoversGetsTheAlert(_ os: String) throws {
        var profile = DeviceProfile.ipad
        profile.os = try #require(OSVersion(os))
        var harness = Harness()
        #expect(try #require(harness.tap("pad", "add", profile: profile).first?.presented).presentation.style == .alert)
        #expect(harness.tap("list", "monster-list", profile: profile).first?.errorBody?.code == "no-such-element")
    }

    @Test func photoInThePopoverDismissesItAndRequestsAPhoto() throws {
        var harness = Harness()
        _ = harness.tap("ipad", "add")
        let effects = harness.tap("ipad", "photo")
        try #require(types(effects) == [.dismissed, .mediaAddRequested])
        let dismissed = try #require(effects[0].dismissed)
        #expect(dismissed.reason == "button")
        #expect(dismissed.button == "Photo")
        #expect(dismissed.buttonIndex == 0)
        #expect(effects[1].body == .mediaAddRequested(MediaAddRequested(kind: .photo)))
        #expect(harness.presentation("ipad") == nil)
    }

    @Test func audioInThePopoverDismissesItAndRequestsAudio() throws {
        var harness = Harness()
        _ = harness.tap("ipad", "add")
        let effects = harness.tap("ipad", "audio")
        try #require(types(effects) == [.dismissed, .mediaAddRequested])
        #expect(effects[1].body == .mediaAddRequested(MediaAddRequested(kind: .audio)))
    }

    @Test func alertButtonsKeepUIAlertViewIndicesCancel0Photo1Audio2() throws {
        for (button, index, kind) in [("photo", 1, MediaKind.photo), ("audio", 2, .audio)] {
            var harness = Harness()
            _ = harness.tap("iphone", "add")
            let effects = harness.tap("iphone", button)
            try #require(types(effects) == [.dismissed, .mediaAddRequested])
            #expect(try #require(effects[0].dismissed).buttonIndex == index)
            #expect(effects[1].body == .mediaAddRequested(MediaAddRequested(kind: kind)))
        }
    }

    @Test func cancelOnlyDismissesTheAlert() throws {
        var harness = Harness()
        _ = harness.tap("iphone", "add")
        let effects = harness.tap("iphone", "cancel")
        try #require(types(effects) == [.dismissed])
        let dismissed = try #require(effects[0].dismissed)
        #expect(dismissed.button == "Cancel")
        #expect(dismissed.buttonIndex == 0)
        #expect(harness.presentation("iphone") == nil)
    }

    @Test func photoWithNothingPresentedIsRefused() throws {
        var harness = Harness()
        let effects = harness.tap("ipad", "photo")
        #expect(try #require(effects.first?.errorBody).code == "no-such-element")
    }

    @Test func theIconPresentsTheSamePopoverFromARectangle() throws {
        var harness = Harness()
        let popover = try #require(harness.tap("ipad", "icon").first?.presented).presentation
        #expect(popover.anchor?.kind == .rect)
        #expect(popover.anchor?.element == "icon")
        #expect(popover.passthrough.isEmpty)
        #expect(popover.buttons == ["Photo", "Audio"])
    }
}
