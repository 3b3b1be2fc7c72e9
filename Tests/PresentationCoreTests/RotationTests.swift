import Domain
import Testing
@testable import PresentationCore
import TestTiers

/// SPEC §1.2: rotation hides a popover, then presents it again at its anchor, or dismisses it.
@Suite(.tags(.unit)) struct RotationTests {
    @Test func aBarButtonPopoverIsHiddenThenPresentedAgainAtTheAnchorsNewPlace() throws {
        var harness = Harness()
        let before = try #require(harness.tap("ipad", "add").first?.presented).presentation
        let effects = harness.rotate("ipad", .landscape)
        try #require(types(effects) == [.hidden, .deviceLayout, .presented])
        #expect(try #require(effects[0].hidden).presentation == before)
        let after = try #require(effects[2].presented)
        #expect(after.reason == "rotation")
        #expect(after.presentation.anchor?.rect == Rect(x: 972, y: 20, width: 44, height: 44))
        #expect(after.presentation.arrowDirection == .up)
        #expect(after.presentation.frame.maxX <= 1024 - PopoverGeometry.margin)
        guard case .deviceLayout(let layout) = effects[1].body else { Issue.record("no layout.changed"); return }
        #expect(layout.keyboard == KeyboardMetrics(width: 1024, systemHeight: 352, windowHeight: 768))
        #expect(layout.reason == "rotation")
        #expect(effects[1].forwardTo == nil)
    }

    @Test func theMonsterListPopoverIsDismissedWhenItsButtonVanishesInLandscape() throws {
        var harness = Harness()
        _ = harness.tap("ipad", "monster-list")
        let effects = harness.rotate("ipad", .landscape)
        try #require(types(effects) == [.hidden, .deviceLayout, .dismissed])
        #expect(try #require(effects[2].dismissed).reason == "anchor-gone")
        #expect(harness.presentation("ipad") == nil)
        let refused = harness.tap("ipad", "monster-list")
        #expect(refused.first?.errorBody?.code == "no-such-element")
    }

    @Test func aPopoverFromARectangleIsDismissedByRotation() throws {
        var harness = Harness()
        _ = harness.tap("ipad", "icon")
        let effects = harness.rotate("ipad", .landscape)
        try #require(types(effects) == [.hidden, .deviceLayout, .dismissed])
        #expect(try #require(effects[2].dismissed).reason == "rect-anchor")
    }

    @Test func anAlertStaysUpReCentred_movedNotPresentedAgain() throws {
        var harness = Harness()
        _ = harness.tap("iphone", "add")
        let effects = harness.rotate("iphone", .landscape)
        try #require(types(effects) == [.deviceLayout, .moved])
        let alert = try #require(effects[1].moved)
        #expect(alert.reason == "rotation")
        #expect(alert.presentation.frame.midX == 667.0 / 2)
        #expect(alert.presentation.frame.midY == 375.0 / 2)
        #expect(harness.presentation("iphone")?.style == .alert)
    }

    @Test func rotatingToTheCurrentOrientationDoesNothing() {
        var harness = Harness()
        _ = harness.tap("ipad", "add")
        let effects = harness.rotate("ipad", .portrait)
        #expect(types(effects) == [.unchanged])
        #expect(effects.first?.unchanged?.reason == "same-orientation")
        #expect(harness.presentation("ipad")?.content == .add)
    }

    @Test func landscapeShowsTheRosterPaneAndNoMonsterListButton() throws {
        var harness = Harness()
        let effects = harness.rotate("ipad", .landscape)
        guard case .deviceLayout(let layout) = effects.first?.body else { Issue.record("no layout"); return }
        let names = layout.elements.map(\.name)
        #expect(!names.contains("monster-list"))
        #expect(names.contains("master"))
        #expect(names.contains("row:Ice-Bot"))
        let navigation = try #require(layout.elements.first { $0.name == "navigation-bar" })
        #expect(navigation.frame.minX == 321)
    }
}

/// Multitasking: an iPad in a compact window behaves as an iPhone.
@Suite(.tags(.unit)) struct AdaptivityTests {
    @Test func goingCompactDismissesAPopover() throws {
        var harness = Harness()
        _ = harness.tap("ipad", "add")
        let effects = harness.resize("ipad", .compact)
        try #require(types(effects) == [.dismissed, .deviceLayout])
        #expect(try #require(effects[0].dismissed).reason == "size-class")
        guard case .deviceLayout(let layout) = effects[1].body, let keyboard = layout.keyboard else { Issue.record("no keyboard"); return }
        // The keyboard spans the screen, not the 320 pt window at its right edge.
        #expect(keyboard.width == 768)
        #expect(keyboard.left == -448)
    }

    @Test func backToRegularGivesThePopoverAgain() throws {
        var harness = Harness()
        _ = harness.resize("ipad", .compact)
        _ = harness.resize("ipad", .regular)
        #expect(try #require(harness.tap("ipad", "add").first?.presented).presentation.style == .popover)
    }

    @Test func anIPhonesWindowIsNotResized() {
        var harness = Harness()
        #expect(harness.resize("iphone", .regular).first?.errorBody?.code == "unsupported")
        #expect(harness.resize("iphone", .compact).first?.errorBody?.code == "unsupported")
    }
}
