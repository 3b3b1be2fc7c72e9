import Domain
import Testing
@testable import PresentationCore
import TestTiers

/// The wide and half sides of Split View, from Apple's multitasking table for the 768×1024-pt iPad.
@Suite(.tags(.unit)) struct SplitViewTests {
    @Test func theTableGivesAppleWidthsAndClassesForTheShippedIPad() throws {
        func side(_ mode: WindowMode, _ orientation: Orientation) throws -> (Double, SizeClass) {
            let screen = orientation == .portrait ? 768.0 : 1024.0
            let window = try #require(SplitView.window(mode, screenWidth: screen, orientation: orientation))
            return (window.width, window.widthClass)
        }
        #expect(try side(.splitViewWide, .landscape) == (694, .regular))
        #expect(try side(.splitViewHalf, .landscape) == (507, .compact))
        #expect(try side(.splitViewWide, .portrait) == (438, .compact))
        #expect(!SplitView.exists(.splitViewHalf, in: .portrait))
        #expect(SplitView.exists(.splitViewWide, in: .portrait))
        // The other modes are not sized by the table.
        #expect(SplitView.window(.splitView, screenWidth: 1024, orientation: .landscape) == nil)
        #expect(SplitView.widthClass(of: .splitViewWide, profile: .iphone, orientation: .landscape) == nil)
        #expect(SplitView.widthClass(of: .splitViewWide, profile: .ipadLegacy, orientation: .landscape) == .regular)
    }

    @Test func theWideSideInLandscapeIsRegular_withTheRosterListAndPopovers() throws {
        var harness = Harness()
        var landscape = DeviceProfile.ipad
        landscape.orientation = .landscape
        let effects = harness.send("w", .resize(Resize(mode: .splitViewWide, profile: landscape)))
        guard case .deviceLayout(let layout)? = effects.first?.body else { Issue.record("no layout: \(effects)"); return }
        #expect(layout.widthClass == .regular && layout.mode == .splitViewWide)
        #expect(layout.window == Size(width: 694, height: 768))
        #expect(layout.windowOrigin == Point(x: 0, y: 0))
        #expect(layout.keyboard == KeyboardMetrics(width: 1024, systemHeight: 352, windowHeight: 768, left: 0))
        #expect(layout.elements.contains { $0.name == "row:Cat-Bot" })
        #expect(harness.tap("w", "add", profile: landscape).first?.presented?.presentation.style == .popover)
    }

    @Test func turnedToPortraitTheWideSideIsCompactAndItsPopoverIsDismissed() {
        var harness = Harness()
        var landscape = DeviceProfile.ipad
        landscape.orientation = .landscape
        _ = harness.send("w", .resize(Resize(mode: .splitViewWide, profile: landscape)))
        _ = harness.tap("w", "add", profile: landscape)
        let effects = harness.send("w", .rotate(Rotate(orientation: .portrait)))
        #expect(types(effects) == [.hidden, .deviceLayout, .dismissed])
        #expect(effects.last?.dismissed?.reason == "size-class")
        #expect(harness.core.devices["w"]?.widthClass == .compact)
        #expect(harness.core.devices["w"]?.layout.window.width == 438)
        #expect(harness.tap("w", "add").first?.presented?.presentation.style == .alert)
        // And back: regular again.
        _ = harness.tap("w", "cancel")
        _ = harness.send("w", .rotate(Rotate(orientation: .landscape)))
        #expect(harness.core.devices["w"]?.widthClass == .regular)
    }

    @Test func halfIsCompactInLandscapeAndRefusedInPortrait() {
        var harness = Harness()
        var landscape = DeviceProfile.ipad
        landscape.orientation = .landscape
        _ = harness.tap("h", "add", profile: landscape)
        let effects = harness.send("h", .resize(Resize(mode: .splitViewHalf, profile: landscape)))
        #expect(types(effects) == [.dismissed, .deviceLayout])
        #expect(harness.core.devices["h"]?.layout.window.width == 507)
        #expect(harness.core.devices["h"]?.widthClass == .compact)
        // Turned to portrait, a half window is the wide side; a resize to half there is refused.
        _ = harness.send("h", .rotate(Rotate(orientation: .portrait)))
        #expect(harness.core.devices["h"]?.layout.window.width == 438)
        let before = harness.core.devices["h"]
        #expect(harness.send("h", .resize(Resize(mode: .splitViewHalf))).first?.errorBody?.code == "bad-resize")
        #expect(harness.core.devices["h"] == before)
        // The class the message carries is not the mode's: the table decides, and it is not refused.
        var resize = Resize(mode: .splitViewWide)
        resize.width = .regular
        let wide = harness.send("h", .resize(resize))
        #expect(wide.first?.errorBody == nil)
        #expect(harness.core.devices["h"]?.widthClass == .compact)
    }
}
