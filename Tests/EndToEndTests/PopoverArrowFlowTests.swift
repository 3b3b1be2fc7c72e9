import Foundation
import Testing
import TestTiers

/// The `+` popover permits Any arrow direction (SPEC 1.1), through the real processes: where an
/// up arrow does not fit, another direction is chosen and the whole content still shows.
@Suite(.serialized, .tags(.processes)) final class PopoverArrowFlowTests {
    @Test func onAShortIPadWindowThePlusPopoverPointsRightBecauseAnUpArrowDoesNotFit() throws {
        let stack = try Stack(services: ["presentation-policy", "input-handling", "roster"])
        // A window 1024×200: under the navigation bar (64 pt + 13 pt of arrow) there are 113 pt
        // for a popover 125 high; above it, none; to the left of +, plenty.
        let result = try stack.gateway([
            "--json", "--device", "short", "--idiom", "pad", "--screen", "200x1024", "--os", "17.0",
            "--orientation", "landscape", "--width", "regular", "tap", "add",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let presented = try #require(result.body("presentation.presented"))
        #expect(value(presented, "presentation.style") as? String == "popover")
        #expect(value(presented, "presentation.permittedArrowDirections") as? Int == 15)
        #expect(value(presented, "presentation.arrowDirection") as? Int == 8, "Right: the body to the left of +")
        #expect(value(presented, "presentation.frame.width") as? Double == 200)
        #expect(value(presented, "presentation.frame.height") as? Double == 125)
    }
}
