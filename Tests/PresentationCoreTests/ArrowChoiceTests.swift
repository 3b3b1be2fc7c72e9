import Domain
import Testing
@testable import PresentationCore
import TestTiers

/// The `+` popover permits Any arrow direction (SPEC 1.1): where Up does not fit, the next of
/// Down, Left, Right that does is chosen, with the whole content.
@Suite(.tags(.unit)) struct ArrowChoiceTests {
    /// An iPad whose window is 1024×200 in landscape: under the navigation bar there are 113 pt,
    /// less than the `+` popover's 125.
    static let shortWindow = DeviceProfile(
        idiom: .pad, screen: Size(width: 200, height: 1024), os: OSVersion("17.0")!,
        orientation: .landscape, widthClass: .regular)

    @Test func aPopoverWhereAnUpArrowDoesNotFitPointsRightWithItsWholeContent() throws {
        var harness = Harness()
        let presentation = try #require(harness.tap("short", "add", profile: Self.shortWindow).first?.presented?.presentation)
        #expect(presentation.style == .popover)
        #expect(presentation.permittedArrowDirections == .any)
        #expect(presentation.arrowDirection == .right)
        // + is at (972, 20) 44×44: the body ends 13 pt (the arrow) left of it, slid below the status bar.
        #expect(presentation.frame == Rect(x: 759, y: 30, width: 200, height: 125))
        #expect(presentation.arrowTip == Point(x: 972, y: 43))
    }
}
