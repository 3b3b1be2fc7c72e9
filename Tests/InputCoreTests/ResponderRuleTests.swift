import Domain
import InputCore
import Testing
import TestTiers

/// SPEC §1.4, beyond the weapon picker's happy path: a weapon button only works while the
/// weapon picker itself is the input view on screen.
@Suite(.tags(.unit)) struct ResponderRuleTests {
    let keyboard = KeyboardMetrics(width: 768, systemHeight: 264, windowHeight: 1024)

    @Test func aWeaponButtonWhileTheKeyboardIsTheInputViewIsRefusedAndChangesNothing() {
        var core = InputCore()
        _ = core.handle(device: "ipad", action: .inputTap(InputTap(element: "notes", keyboard: keyboard)))
        let before = core.devices["ipad"]
        #expect(before?.firstResponder == .notes)
        let effects = core.handle(device: "ipad", action: .tap(Tap(element: "fire")))
        guard case .error(let error)? = effects.first?.body else {
            Issue.record("expected a refusal, got \(effects)")
            return
        }
        #expect(error.code == "no-such-element")
        #expect(effects.count == 1)
        #expect(core.devices["ipad"] == before)
    }
}
