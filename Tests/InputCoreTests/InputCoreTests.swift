import InputCore
import MonsterKit
import Testing

/// SPEC §1.4: the weapon image as first responder, and its lazily created input view.
@Suite struct InputCoreTests {
    let portrait = KeyboardMetrics(width: 768, systemHeight: 264, windowHeight: 1024)
    let landscape = KeyboardMetrics(width: 1024, systemHeight: 352, windowHeight: 768)

    func tap(_ core: inout InputCore, _ element: String, keyboard: KeyboardMetrics? = nil) -> [Effect] {
        core.handle(device: "ipad", body: .inputTap(InputTap(element: element, keyboard: keyboard ?? portrait)))
    }

    var picker: InputView {
        InputView(
            view: "weapon-picker", responder: "weapon", width: 768, height: 110,
            frame: Rect(x: 0, y: 914, width: 768, height: 110),
            buttons: ["blowgun", "fire", "ninja-star", "smoke", "sword", "close"])
    }

    @Test func tappingTheWeaponShowsThePickerAtKeyboardWidthCreatedOnce() {
        var core = InputCore()
        #expect(tap(&core, "weapon") == [.publish(.inputShown(InputShown(input: picker, created: true, reason: "first-responder")))])
        #expect(core.devices["ipad"]?.firstResponder == .weapon)
    }

    @Test func keyboardMetricsThatCouldOverflowAFrameAreRefusedAndChangeNothing() {
        var core = InputCore()
        let huge = KeyboardMetrics(width: 1e308, systemHeight: 1.7e308, windowHeight: -1.7e308)
        for keyboard in [huge, KeyboardMetrics(width: -1, systemHeight: 264, windowHeight: 1024), KeyboardMetrics(width: 768, systemHeight: .nan, windowHeight: 1024)] {
            let effects = tap(&core, "notes", keyboard: keyboard)
            #expect(effects.count == 1 && effects[0].isError, "\(keyboard)")
        }
        #expect(core.devices["ipad"] == nil)
    }

    @Test func tappingTheWeaponAgainWhileItIsFirstResponderDoesNothing() {
        var core = InputCore()
        _ = tap(&core, "weapon")
        #expect(tap(&core, "weapon").isEmpty)
    }

    @Test func thePickerIsCreatedOnlyTheFirstTime() {
        var core = InputCore()
        _ = tap(&core, "weapon")
        _ = tap(&core, "close")
        #expect(tap(&core, "weapon") == [.publish(.inputShown(InputShown(input: picker, created: false, reason: "first-responder")))])
    }

    @Test func pickingAWeaponTellsRosterAndHidesThePicker() {
        var core = InputCore()
        _ = tap(&core, "weapon")
        let effects = tap(&core, "fire")
        #expect(effects == [
            .forward(.weaponSelected(WeaponSelected(weapon: .fire)), to: MonsterBus.Service.roster),
            .publish(.inputHidden(InputHidden(input: picker, reason: "weapon-selected"))),
        ])
        #expect(core.devices["ipad"]?.firstResponder == nil)
    }

    @Test func everyWeaponButtonPicksItsWeapon() {
        for weapon in Weapon.allCases {
            var core = InputCore()
            _ = tap(&core, "weapon")
            let effects = tap(&core, weapon.buttonElement)
            #expect(effects.first?.body == .weaponSelected(WeaponSelected(weapon: weapon)))
            #expect(effects.first?.body == .weaponSelected(WeaponSelected(weapon: Weapon(rawValue: weapon.rawValue)!)))
        }
    }

    @Test func closeHidesThePickerAndChangesNothingElse() {
        var core = InputCore()
        _ = tap(&core, "weapon")
        #expect(tap(&core, "close") == [.publish(.inputHidden(InputHidden(input: picker, reason: "closed")))])
    }

    @Test func anUnknownButtonIsRefusedWithNoStateChange() {
        var core = InputCore()
        _ = tap(&core, "weapon")
        let before = core.devices
        let effects = tap(&core, "laser")
        #expect(effects.count == 1)
        #expect(effects.first?.isError == true)
        guard case .error(let error) = effects.first?.body else { return }
        #expect(error.code == "unknown-element")
        #expect(error.message.contains("laser"))
        #expect(core.devices == before)
    }

    @Test func aPickerButtonWhileThePickerIsHiddenIsRefused() {
        var core = InputCore()
        let effects = tap(&core, "fire")
        guard case .error(let error) = effects.first?.body else { Issue.record("expected an error"); return }
        #expect(error.code == "no-such-element")
    }

    @Test func afterARotationThePickerTakesTheNewWidth() {
        var core = InputCore()
        _ = tap(&core, "weapon")
        let effects = core.handle(device: "ipad", body: .inputLayout(InputLayout(keyboard: landscape, reason: "rotation")))
        let wide = InputView(
            view: "weapon-picker", responder: "weapon", width: 1024, height: 110,
            frame: Rect(x: 0, y: 658, width: 1024, height: 110), buttons: picker.buttons)
        #expect(effects == [.publish(.inputShown(InputShown(input: wide, created: false, reason: "rotation")))])
    }

    @Test func aRotationWithNoInputViewPublishesNothing() {
        var core = InputCore()
        #expect(core.handle(device: "ipad", body: .inputLayout(InputLayout(keyboard: landscape, reason: "rotation"))).isEmpty)
    }

    @Test func aNewFirstResponderTakesOverFromTheOldOne() {
        var core = InputCore()
        _ = tap(&core, "weapon")
        let effects = tap(&core, "notes")
        let keyboard = InputView(
            view: "keyboard", responder: "notes", width: 768, height: 264,
            frame: Rect(x: 0, y: 760, width: 768, height: 264), buttons: [])
        #expect(effects == [
            .publish(.inputHidden(InputHidden(input: picker, reason: "taken-over"))),
            .publish(.inputShown(InputShown(input: keyboard, created: false, reason: "first-responder"))),
        ])
        #expect(core.devices["ipad"]?.firstResponder == .notes)
        // And back: the picker exists already.
        let back = tap(&core, "weapon")
        #expect(back.last == .publish(.inputShown(InputShown(input: picker, created: false, reason: "first-responder"))))
    }

    @Test func devicesHaveTheirOwnFirstResponder() {
        var core = InputCore()
        _ = tap(&core, "weapon")
        let other = core.handle(device: "other", body: .inputTap(InputTap(element: "fire", keyboard: portrait)))
        #expect(other.first?.isError == true)
        #expect(core.devices["ipad"]?.firstResponder == .weapon)
    }

    @Test func describeReportsTheFirstResponderAndView() {
        var core = InputCore()
        _ = tap(&core, "weapon")
        let effects = core.handle(device: "ipad", body: .inputDescribe(InputDescribe(keyboard: portrait)))
        #expect(effects == [.publish(.inputState(InputState(firstResponder: "weapon", input: picker, weaponPickerCreated: true)))])
    }
}
