import Domain
import Testing
@testable import PresentationCore
import TestTiers

/// Placement rules that only show off the `+` button's happy path: the order of preference of
/// the arrow directions, centring on the anchor, the alert's size and rows, Slide Over's width.
@Suite(.tags(.unit)) struct PlacementRuleTests {
    let window = Size(width: 768, height: 1024)
    let size = Size(width: 200, height: 125)
    /// An anchor in the middle of the window: every direction fits.
    let middle = Rect(x: 300, y: 400, width: 44, height: 44)

    @Test func whereEveryDirectionFitsUpIsPreferred() {
        let geometry = PopoverGeometry(anchor: middle, contentSize: size, permitted: .any, window: window)
        #expect(geometry.arrowDirection == .up)
        #expect(geometry.frame.minY == middle.maxY + PopoverGeometry.arrowHeight)
    }

    @Test func whereUpIsNotPermittedDownIsPreferredToLeftAndRight() {
        let geometry = PopoverGeometry(anchor: middle, contentSize: size, permitted: [.down, .left, .right], window: window)
        #expect(geometry.arrowDirection == .down)
        #expect(geometry.frame.maxY == middle.minY - PopoverGeometry.arrowHeight)
    }

    /// docs/behaviour.md: the first direction where the *whole* content fits wins — a body that
    /// fills the room below the anchor to the point (window less its 10-pt margin), or the width
    /// within the margins, still fits; a point more does not, and the next direction is taken.
    @Test func contentFillingTheRoomExactlyFits_aPointMoreDoesNot() {
        // Below the anchor: 1024 - 10 (margin) - 13 (arrow) - 125 = 876 for the anchor's bottom.
        let exact = Rect(x: 300, y: 856, width: 44, height: 20)
        #expect(PopoverGeometry(anchor: exact, contentSize: size, permitted: .any, window: window).arrowDirection == .up)
        let lower = Rect(x: 300, y: 857, width: 44, height: 20)
        #expect(PopoverGeometry(anchor: lower, contentSize: size, permitted: .any, window: window).arrowDirection == .down)
        // Across: 768 less two margins is 748 points. Wider, nothing fits and the roomiest
        // direction (down, here) takes the body, shrunk to the width.
        let fullWidth = PopoverGeometry(anchor: exact, contentSize: Size(width: 748, height: 125), permitted: .any, window: window)
        #expect(fullWidth.arrowDirection == .up && fullWidth.frame.width == 748)
        let wider = PopoverGeometry(anchor: exact, contentSize: Size(width: 749, height: 125), permitted: .any, window: window)
        #expect(wider.arrowDirection == .down && wider.frame.width == 748)
    }

    @Test func acrossTheArrowTheBodyIsCentredOnTheAnchor() {
        let geometry = PopoverGeometry(anchor: middle, contentSize: size, permitted: .any, window: window)
        #expect(geometry.frame.midX == middle.midX)
        #expect(geometry.arrowTip == Point(x: middle.midX, y: middle.maxY))
        let sideways = PopoverGeometry(anchor: middle, contentSize: size, permitted: .right, window: window)
        #expect(sideways.frame.midY == middle.midY)
    }

    @Test func theAddAlertIs270WideAnd68Plus44PerButtonHighCentredInTheWindow() throws {
        var harness = Harness()
        let alert = try #require(harness.tap("iphone", "add").first?.presented).presentation
        // README: "centred at (52.5, 233.5) 270×200" on the 375×667 iPhone.
        #expect(alert.frame == Rect(x: 52.5, y: 233.5, width: 270, height: 200))
        #expect(alert.contentSize == Size(width: 270, height: 200))
    }

    @Test func cancelIsIndex0ButDrawnAsTheBottomRowSoATapThereCancels() throws {
        var harness = Harness()
        let alert = try #require(harness.tap("iphone", "add").first?.presented).presentation
        try #require(alert.buttonFrames.count == 3)
        #expect(alert.buttonFrames[0] == Rect(x: 52.5, y: 389.5, width: 270, height: 44))
        #expect(alert.buttonFrames[1] == Rect(x: 52.5, y: 301.5, width: 270, height: 44))
        #expect(alert.buttonFrames[2] == Rect(x: 52.5, y: 345.5, width: 270, height: 44))
        let effects = harness.tap("iphone", at: Point(x: 187.5, y: 420))
        #expect(types(effects) == [.dismissed])
        #expect(effects.first?.dismissed?.buttonIndex == 0)
        #expect(effects.first?.dismissed?.button == "Cancel")
    }

    @Test func slideOverMakesTheIPadWindow320Wide() throws {
        var harness = Harness()
        let effects = harness.resize("ipad", .compact)
        guard case .deviceLayout(let layout)? = effects.first?.body else {
            Issue.record("expected the new layout, got \(types(effects))")
            return
        }
        #expect(layout.window == Size(width: 320, height: 1024))
        #expect(layout.widthClass == .compact)
    }
}
