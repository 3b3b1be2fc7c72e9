import Foundation
import Testing
import TestTiers

/// SPEC §1.2–1.3 through the real processes: rotation, dismissal, modality, adaptivity, the
/// colour picker and the Monster List popover.
@Suite(.serialized, .tags(.processes)) final class PresentationFlowTests {
    let stack: Stack

    init() throws { stack = try Stack() }

    @Test func aPopoverUnderTheNavigationBarPointsUpAndIsHiddenThenReshownByRotation() throws {
        let add = try stack.json("ipad", "tap", "add")
        #expect(value(add.body("presentation.presented"), "presentation.arrowDirection") as? Int == 1)
        let rotate = try stack.json("ipad", "rotate", "landscape")
        #expect(rotate.status == 0, "\(rotate.stderr)")
        #expect(rotate.types == ["presentation.hidden", "layout.changed", "presentation.presented"])
        let again = try #require(rotate.body("presentation.presented"))
        #expect(again["reason"] as? String == "rotation")
        #expect(value(again, "presentation.anchor.rect.x") as? Int == 972)
    }

    @Test func aTapOutsideAndASecondTapOnPlusDismissThePopover() throws {
        _ = try stack.json("ipad", "tap", "add")
        let outside = try stack.json("ipad", "tap", "outside")
        #expect(outside.types == ["presentation.dismissed"])
        #expect(value(outside.body("presentation.dismissed"), "reason") as? String == "outside-tap")
        _ = try stack.json("ipad", "tap", "add")
        let toggle = try stack.json("ipad", "tap", "add")
        #expect(toggle.types == ["presentation.dismissed"])
        #expect(value(toggle.body("presentation.dismissed"), "reason") as? String == "toggle")
    }

    @Test func theMonsterListIsDismissedByRotatingToLandscapeAndThenRefused() throws {
        let list = try stack.json("ipad", "tap", "monster-list")
        #expect(value(list.body("presentation.presented"), "presentation.content") as? String == "monster-list")
        let rotate = try stack.json("ipad", "rotate", "landscape")
        #expect(rotate.types == ["presentation.hidden", "layout.changed", "presentation.dismissed"])
        #expect(value(rotate.body("presentation.dismissed"), "reason") as? String == "anchor-gone")
        let refused = try stack.json("ipad", "tap", "monster-list")
        #expect(refused.status == 1)
        #expect(value(refused.body("error"), "code") as? String == "no-such-element")
    }

    @Test func selectingInTheMonsterListDismissesIt() throws {
        _ = try stack.json("ipad", "tap", "monster-list")
        let select = try stack.json("ipad", "select", "Explode-Bot")
        #expect(select.types == ["presentation.dismissed", "roster.selection"])
        #expect(value(select.body("roster.selection"), "monster.description") as? String == "Tick, tick, BOOM!")
    }

    @Test func theColourPickerSetsTheSelectedMonstersNameColour() throws {
        _ = try stack.json("ipad", "select", "Ice-Bot")
        let picker = try stack.json("ipad", "tap", "color")
        #expect(value(picker.body("presentation.presented"), "presentation.buttons") as? [String] == ["Red", "Green", "Blue"])
        let red = try stack.json("ipad", "tap", "red")
        #expect(red.status == 0, "\(red.stderr)")
        #expect(red.types == ["presentation.dismissed", "color.selected", "roster.monster.updated"])
        let update = try #require(red.body("roster.monster.updated"))
        #expect(value(update, "monster.name") as? String == "Ice-Bot")
        #expect(value(update, "monster.color") as? String == "red")
    }

    @Test func anAlertIsModalAndCancelRequestsNoMedia() throws {
        _ = try stack.json("iphone", "tap", "add")
        let again = try stack.json("iphone", "tap", "add")
        #expect(again.status == 1)
        #expect(value(again.body("error"), "code") as? String == "modal-alert")
        #expect(!again.types.contains("presentation.presented"))
        let cancel = try stack.json("iphone", "tap", "cancel")
        #expect(cancel.types == ["presentation.dismissed"])
    }

    @Test func anIPadInACompactWindowGetsTheAlert() throws {
        let resize = try stack.json("ipad", "resize", "compact")
        #expect(resize.types == ["layout.changed"])
        let add = try stack.json("ipad", "tap", "add")
        #expect(value(add.body("presentation.presented"), "presentation.style") as? String == "alert")
    }

    @Test func devicesNeverAffectEachOther() throws {
        _ = try stack.json("left", "--profile", "ipad", "tap", "add")
        let right = try stack.json("right", "--profile", "ipad", "tap", "photo")
        #expect(right.status == 1)
        let left = try stack.json("left", "tap", "photo")
        #expect(left.status == 0)
        #expect(left.types == ["presentation.dismissed", "media.add.requested"])
    }

    @Test func anUnknownDeviceWithoutAProfileIsRefused() throws {
        let result = try stack.json("stranger", "tap", "add")
        #expect(result.status == 1)
        #expect(value(result.body("error"), "code") as? String == "unknown-device")
    }
}
