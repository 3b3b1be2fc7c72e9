import Domain
import Testing
@testable import PresentationCore
import TestTiers

/// Rules of what is presented and why it goes away, beyond the `+` button's happy path.
@Suite(.tags(.unit)) struct ChoiceRuleTests {
    @Test func aNewDeviceWhoseFirstActionIsRefusedIsKnownFromThen() {
        var harness = Harness()
        let refused = harness.send("fresh", .tap(Tap(element: "photo", profile: .ipad)))
        #expect(refused.first?.errorBody?.code == "no-such-element")
        #expect(harness.core.devices["fresh"] != nil)
        // Its profile came with that first action: the next one needs none.
        #expect(harness.send("fresh", .tap(Tap(element: "add"))).first?.errorBody == nil)
    }
}
