import MonsterKit
import Testing
@testable import PresentationCore

/// Rules of what is presented and why it goes away, beyond the `+` button's happy path.
@Suite struct ChoiceRuleTests {
    @Test func aMonsterPickedInTheMonsterListPopoverDismissesItWithReasonSelection() throws {
        var harness = Harness()
        _ = harness.tap("ipad", "monster-list")
        let effects = harness.tap("ipad", "Dog-Bot")
        #expect(types(effects) == [.dismissed, .rosterSelect])
        let dismissed = try #require(effects.first?.dismissed)
        #expect(dismissed.reason == "selection")
        #expect(dismissed.presentation.content == .monsterList)
        #expect(harness.presentation("ipad") == nil)
    }

    @Test func aNewDeviceWhoseFirstActionIsRefusedIsKnownFromThen() {
        var harness = Harness()
        let refused = harness.send("fresh", .tap(Tap(element: "photo", profile: .ipad)))
        #expect(refused.first?.errorBody?.code == "no-such-element")
        #expect(harness.core.devices["fresh"] != nil)
        // Its profile came with that first action: the next one needs none.
        #expect(harness.send("fresh", .tap(Tap(element: "add"))).first?.errorBody == nil)
    }
}
