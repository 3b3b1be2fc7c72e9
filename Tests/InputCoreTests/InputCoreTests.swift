import Domain
import Foundation
import InputCore
import Testing
import Wire
import TestTiers

/// SPEC §1.4: the weapon image as first responder, and its lazily created input view.
@Suite(.tags(.unit)) struct InputCoreTests {
    let portrait = KeyboardMetrics(width: 768, systemHeight: 264, windowHeight: 1024)
    let landscape = KeyboardMetrics(width: 1024, systemHeight: 352, windowHeight: 768)

    /// A tap on `element`: a first responder as presentation-policy passes it on (with the
    /// keyboard), an input view's button as the client sends it.
    func tap(_ core: inout InputCore, _ element: String, keyboard: KeyboardMetrics? = nil) -> [Effect] {
        let action: InputAction = Responder(rawValue: element) != nil
            ? .inputTap(InputTap(element: element, keyboard: keyboard ?? portrait))
            : .tap(Tap(element: element))
        return core.handle(device: "ipad", action: action)
    }

    var picker: InputView {
        let frame = Rect(x: 0, y: 914, width: 768, height: 110)
        let buttons = ["blowgun", "fire", "ninja-star", "smoke", "sword", "close"]
        return InputView(
            view: "weapon-picker", responder: "weapon", width: 768, height: 110, frame: frame,
            buttons: buttons, buttonFrames: InputViews.buttonFrames(frame: frame, buttons: buttons))
    }

    func tap(_ core: inout InputCore, at point: Point) -> [Effect] {
        core.handle(device: "ipad", action: .tap(Tap(point: point)))
    }

    func interaction(_ core: inout InputCore, _ element: String, _ enabled: Bool) -> [Effect] {
        core.handle(device: "ipad", action: .interaction(Interaction(element: element, enabled: enabled)))
    }

    /// presentation-policy's `layout.changed` after turning to `keyboard`'s orientation.
    func rotated(_ keyboard: KeyboardMetrics) -> DeviceLayout {
        DeviceLayout(
            orientation: .landscape, widthClass: .regular, window: Size(width: 1024, height: 768), elements: [],
            keyboard: keyboard, reason: "rotation")
    }

    @Test func aLayoutWithoutTheKeyboardIsRefusedAndKeepsNothing() {
        var core = InputCore()
        var layout = rotated(landscape)
        layout.keyboard = nil
        #expect(core.handle(device: "ipad", action: .layout(layout)).first?.errorBody?.code == "bad-keyboard")
        #expect(core.devices.isEmpty)
    }

    @Test func describeAnswersForADeviceNeverSeenWithoutKeepingIt() {
        var core = InputCore()
        #expect(core.handle(device: "new", action: .describe(Describe())) == [
            .publish(.inputState(InputState(firstResponder: nil, input: nil, weaponPickerCreated: false)))])
        #expect(core.devices.isEmpty)
        _ = tap(&core, "weapon")
        #expect(core.handle(device: "ipad", action: .describe(Describe())) == [
            .publish(.inputState(InputState(firstResponder: "weapon", input: picker, weaponPickerCreated: true)))])
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

    /// docs/security.md: keyboard metrics from 0 to 100,000 pt are taken; a hair outside either end is refused.
    @Test func keyboardMetricsFromZeroTo100000PointsAreTaken_aHairOutsideIsRefused() {
        for keyboard in [KeyboardMetrics(width: 0, systemHeight: 0, windowHeight: 0),
                         KeyboardMetrics(width: 100_000, systemHeight: 100_000, windowHeight: 100_000)] {
            var core = InputCore()
            #expect(types(tap(&core, "notes", keyboard: keyboard)) == [.inputShown], "\(keyboard)")
        }
        for keyboard in [KeyboardMetrics(width: -0.001, systemHeight: 264, windowHeight: 1024),
                         KeyboardMetrics(width: 768, systemHeight: -0.001, windowHeight: 1024),
                         KeyboardMetrics(width: 768, systemHeight: 264, windowHeight: -0.001),
                         KeyboardMetrics(width: 100_000.001, systemHeight: 264, windowHeight: 1024),
                         KeyboardMetrics(width: 768, systemHeight: 100_000.001, windowHeight: 1024),
                         KeyboardMetrics(width: 768, systemHeight: 264, windowHeight: 100_000.001)] {
            var core = InputCore()
            #expect(tap(&core, "notes", keyboard: keyboard).map { $0.errorBody?.code } == ["bad-keyboard"], "\(keyboard)")
            #expect(core.devices.isEmpty)
        }
    }

    @Test func tappingTheWeaponAgainWhileItIsFirstResponderSaysNothingChanged() {
        var core = InputCore()
        _ = tap(&core, "weapon")
        let effects = tap(&core, "weapon")
        #expect(types(effects) == [.unchanged])
        guard case .unchanged(let unchanged) = effects.first?.body else { return }
        #expect(unchanged.reason == "already-first-responder")
        #expect(unchanged.message.contains("already first responder"))
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

    @Test func everyWeaponButtonPicksItsWeapon() throws {
        for weapon in Weapon.allCases {
            var core = InputCore()
            _ = tap(&core, "weapon")
            let effects = tap(&core, weapon.buttonElement)
            #expect(effects.first?.body == .weaponSelected(WeaponSelected(weapon: weapon)))
            #expect(effects.first?.body == .weaponSelected(WeaponSelected(weapon: try #require(Weapon(rawValue: weapon.rawValue)))))
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

    /// Every action is a device's: one without a device id is refused, naming what is missing,
    /// and no device is made for it.
    @Test func anActionWithoutADeviceIsRefusedAsMissingItsDevice() {
        var core = InputCore()
        let effects = core.handle(device: nil, action: .tap(Tap(element: "weapon")))
        #expect(effects.count == 1)
        #expect(effects.first?.errorBody?.code == "missing-device")
        #expect(core.devices.isEmpty)
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
        let effects = core.handle(device: "ipad", action: .layout(rotated(landscape)))
        let frame = Rect(x: 0, y: 658, width: 1024, height: 110)
        let wide = InputView(
            view: "weapon-picker", responder: "weapon", width: 1024, height: 110,
            frame: frame, buttons: picker.buttons, buttonFrames: InputViews.buttonFrames(frame: frame, buttons: picker.buttons))
        #expect(effects == [.publish(.inputShown(InputShown(input: wide, created: false, reason: "rotation")))])
    }

    @Test func aRotationWithNoInputViewPublishesNothing() {
        var core = InputCore()
        #expect(core.handle(device: "ipad", action: .layout(rotated(landscape))).isEmpty)
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
        let other = core.handle(device: "other", action: .tap(Tap(element: "fire")))
        #expect(other.first?.isError == true)
        #expect(core.devices["ipad"]?.firstResponder == .weapon)
    }

    // MARK: Taps at a point: the keyboard's window is hit-tested first

    /// The picker's squares never touch: at least 8 pt between neighbours and from the view's
    /// sides, on every width it takes (iPhone portrait to iPad landscape), inside the view.
    @Test func thePickersSquaresKeepEightPointsApartAtEveryWidth() throws {
        let buttons = InputElement.weaponPickerButtons
        for (width, height) in [(320.0, 110.0), (375, 110), (414, 110), (480, 110), (568, 110), (768, 110), (1024, 110)] {
            let box = Rect(x: 0, y: 400, width: width, height: height)
            let frames = InputViews.buttonFrames(frame: box, buttons: buttons)
            try #require(frames.count == buttons.count)
            let squares = zip(buttons, frames).filter { $0.0 != InputElement.close }.map(\.1).sorted { $0.x < $1.x }
            try #require(squares.count == buttons.count - 1)
            #expect(squares.allSatisfy { $0.width > 0 && $0.width == $0.height && $0.minY >= box.minY && $0.maxY <= box.maxY }, "\(width)")
            #expect(squares[0].minX - box.minX >= 8 - 1e-9, "\(width): the first square's left margin")
            #expect(box.maxX - squares[squares.count - 1].maxX >= 8 - 1e-9, "\(width): the last square's right margin")
            for (left, right) in zip(squares, squares.dropFirst()) {
                #expect(right.minX - left.maxX >= 8 - 1e-9, "\(width): \(left) and \(right)")
            }
        }
    }

    @Test func aPointOnAKeyOfThePickerIsThatKey() throws {
        var core = InputCore()
        _ = tap(&core, "weapon")
        try #require(picker.buttonFrames.count == 6)
        let blowgun = picker.buttonFrames[0]
        let effects = tap(&core, at: Point(x: blowgun.midX, y: blowgun.midY))
        #expect(effects.first?.body == .weaponSelected(WeaponSelected(weapon: .blowgun)))
        #expect(core.devices["ipad"]?.firstResponder == nil)
    }

    @Test func aPointOnClose_closesThePicker() throws {
        var core = InputCore()
        _ = tap(&core, "weapon")
        try #require(picker.buttonFrames.count == 6)
        let close = picker.buttonFrames[5]
        #expect(tap(&core, at: Point(x: close.midX, y: close.midY)) == [.publish(.inputHidden(InputHidden(input: picker, reason: "closed")))])
    }

    @Test func aPointOnThePickerBetweenKeysSaysNoKeyIsThere() {
        var core = InputCore()
        _ = tap(&core, "weapon")
        let effects = tap(&core, at: Point(x: 2, y: 1020))
        guard case .unchanged(let unchanged) = effects.first?.body else { Issue.record("expected action.unchanged"); return }
        #expect(unchanged.reason == "no-key")
        #expect(core.devices["ipad"]?.firstResponder == .weapon)
    }

    @Test func aPointOffTheInputViewIsPassedBackToTheAppsWindow() {
        var core = InputCore()
        let effects = tap(&core, at: Point(x: 100, y: 1000))
        #expect(effects == [.forward(.inputPassed(InputPassed(point: Point(x: 100, y: 1000))), to: MonsterBus.Service.presentationPolicy)])
        _ = tap(&core, "weapon")
        #expect(types(tap(&core, at: Point(x: 100, y: 900))) == [.inputPassed])
    }

    @Test func aKeyWithInteractionOffIsRefused_byNameAndByPoint() throws {
        var core = InputCore()
        _ = tap(&core, "weapon")
        try #require(picker.buttonFrames.count == 6)
        let blowgun = picker.buttonFrames[0]
        #expect(interaction(&core, "blowgun", false) == [.publish(.interactionChanged(
            InteractionChanged(element: "blowgun", enabled: false, interactionDisabled: ["blowgun"])))])
        let byPoint = tap(&core, at: Point(x: blowgun.midX, y: blowgun.midY))
        guard case .error(let error) = byPoint.first?.body else { Issue.record("expected an error"); return }
        #expect(error.code == "interaction-disabled")
        #expect(tap(&core, "blowgun").first?.errorBody?.code == "interaction-disabled")
        #expect(core.devices["ipad"]?.firstResponder == .weapon)
        #expect(interaction(&core, "blowgun", false).first?.body.type == .unchanged)
        #expect(interaction(&core, "blowgun", true).count == 1)
        #expect(core.devices["ipad"]?.interactionOff == 0)
    }

    @Test func interactionOfAnInputViewButtonIsKeptBeforeThePickerIsShown() {
        var core = InputCore()
        _ = interaction(&core, "close", false)
        #expect(core.devices["ipad"]?.disabledButtons == ["close"])
        _ = tap(&core, "weapon")
        #expect(tap(&core, "close").first?.errorBody?.code == "interaction-disabled")
        #expect(interaction(&core, "add", false).first?.errorBody?.code == "unknown-element")
    }

    /// A device's state is a few bytes besides the keyboard's metrics, and its snapshot (what a
    /// sharded instance stores) keeps every part of it.
    @Test func theStateIsCompactAndItsSnapshotComplete() throws {
        var core = InputCore()
        _ = tap(&core, "weapon")
        _ = interaction(&core, "smoke", false)
        _ = core.handle(device: "ipad", action: .presented(Presented(presentation: presentation(.alert), reason: "tap")))
        let device = try #require(core.devices["ipad"])
        #expect(device.modalAlert && device.firstResponder == .weapon && device.weaponPickerCreated && device.disabledButtons == ["smoke"])
        #expect(try JSONCoding.decode(InputDevice.self, from: JSONCoding.encode(device)) == device)
        #expect(MemoryLayout<InputDevice>.size <= MemoryLayout<KeyboardMetrics>.size + 16)
    }

    // MARK: An alert is modal over the keyboard's window too (read from presentation.*)

    func presentation(_ style: PresentationStyle) -> Presentation {
        Presentation(
            style: style, content: .add, message: nil, buttons: ["Photo", "Audio", "Cancel"], buttonFrames: [],
            cancelButtonIndex: 2, anchor: nil, permittedArrowDirections: nil, arrowDirection: .unknown, arrowTip: nil,
            frame: Rect(x: 249, y: 437, width: 270, height: 150), contentSize: Size(width: 270, height: 150), passthrough: [])
    }

    @Test func anAlertUpRefusesInputViewButtonsAndPassesPointsBack() throws {
        var core = InputCore()
        _ = tap(&core, "weapon")
        let alert = presentation(.alert)
        #expect(core.handle(device: "ipad", action: .presented(Presented(presentation: alert, reason: "tap"))) == [])
        #expect(tap(&core, "fire").first?.errorBody?.code == "modal-alert")
        try #require(picker.buttonFrames.count == 6)
        let fire = picker.buttonFrames[1]
        #expect(types(tap(&core, at: Point(x: fire.midX, y: fire.midY))) == [.inputPassed])
        #expect(core.handle(device: "ipad", action: .dismissed(Dismissed(presentation: alert, reason: "button"))) == [])
        #expect(tap(&core, "fire").first?.body == .weaponSelected(WeaponSelected(weapon: .fire)))
    }

    @Test func anAlertOnADeviceNeverSeenIsKept_andAPopoverIsNot() {
        var core = InputCore()
        _ = core.handle(device: "ipad", action: .presented(Presented(presentation: presentation(.popover), reason: "tap")))
        #expect(core.devices.isEmpty)
        let alert = presentation(.alert)
        _ = core.handle(device: "ipad", action: .presented(Presented(presentation: alert, reason: "tap")))
        #expect(core.devices["ipad"]?.modalAlert == true)
        #expect(tap(&core, "fire").first?.errorBody?.code == "modal-alert")
    }

    @Test func inSlideOverThePickerSpansTheScreenNotTheWindow() throws {
        // A 320 pt window at the right edge of a 1024 pt landscape screen.
        var core = InputCore()
        let slideOver = KeyboardMetrics(width: 1024, systemHeight: 352, windowHeight: 768, left: -704)
        let shown = tap(&core, "weapon", keyboard: slideOver)
        guard case .inputShown(let input) = shown.first?.body else { Issue.record("expected input.shown"); return }
        #expect(input.input.width == 1024)
        #expect(input.input.frame == Rect(x: -704, y: 658, width: 1024, height: 110))
        try #require(input.input.buttonFrames.count == 6)
        // A key left of the window (negative x) is still the keyboard's to take.
        let fire = input.input.buttonFrames[1]
        #expect(fire.minX < 0)
        #expect(tap(&core, at: Point(x: fire.midX, y: fire.midY)).first?.body == .weaponSelected(WeaponSelected(weapon: .fire)))
    }

    @Test func describeReportsTheFirstResponderAndView() {
        var core = InputCore()
        _ = tap(&core, "weapon")
        let effects = core.handle(device: "ipad", action: .describe(Describe()))
        #expect(effects == [.publish(.inputState(InputState(firstResponder: "weapon", input: picker, weaponPickerCreated: true)))])
    }
}

/// The message types of `effects`, in order.
func types(_ effects: [Effect]) -> [MessageType] { effects.map(\.body.type) }

extension Effect {
    var errorBody: ErrorBody? { if case .error(let body) = self.body { body } else { nil } }
}

/// The weapon picker's key frames: part of the model, what `tap --at` hits and `screen` draws.
@Suite(.tags(.unit)) struct WeaponPickerKeyFrameTests {
    @Test func keysNeverOverlapAndStayInsideThePicker_atEveryWidth() {
        for width in [320.0, 375, 667, 768, 1024] {
            let box = Rect(x: 0, y: 500, width: width, height: 110)
            let names = ["blowgun", "fire", "ninja-star", "smoke", "sword", "close"]
            let frames = InputViews.buttonFrames(frame: box, buttons: names)
            #expect(frames.count == names.count)
            for (index, first) in frames.enumerated() {
                #expect(box.contains(first), "\(names[index]) outside at width \(width)")
                for second in frames[(index + 1)...] {
                    let apart = first.maxX <= second.minX || second.maxX <= first.minX
                        || first.maxY <= second.minY || second.maxY <= first.minY
                    #expect(apart, "keys overlap at width \(width)")
                }
            }
        }
    }
}

/// A refused action changes nothing in input-handling either: its error alone is published, the
/// device is held as before (its keyboard too, when the refused action carried another), and the
/// next action does what it would have done had the refused one never come.
@Suite(.tags(.unit)) struct InputRefusalTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let before: [InputAction]
        let refused: InputAction
        let code: String
        let next: InputAction
        var testDescription: String { name }
    }

    static let portrait = KeyboardMetrics(width: 768, systemHeight: 264, windowHeight: 1024)
    static let landscape = KeyboardMetrics(width: 1024, systemHeight: 352, windowHeight: 768)
    static let weapon = InputAction.inputTap(InputTap(element: "weapon", keyboard: portrait))
    static let alert = Presentation(
        style: .alert, content: .add, message: "Add…", buttons: ["Cancel", "Photo", "Audio"], buttonFrames: [],
        cancelButtonIndex: 0, anchor: nil, permittedArrowDirections: nil, arrowDirection: .unknown, arrowTip: nil,
        frame: Rect(x: 249, y: 437, width: 270, height: 200), contentSize: Size(width: 270, height: 200), passthrough: [])

    static let cases: [Case] = [
        Case(name: "a picker button under an alert", before: [weapon, .presented(Presented(presentation: alert, reason: "tap"))],
             refused: .tap(Tap(element: "fire")), code: "modal-alert",
             next: .dismissed(Dismissed(presentation: alert, reason: "button"))),
        Case(name: "a first responder that is not one, with another keyboard", before: [weapon],
             refused: .inputTap(InputTap(element: "laser", keyboard: landscape)), code: "unknown-element",
             next: .tap(Tap(element: "fire"))),
        Case(name: "a button with interaction off", before: [weapon, .interaction(Interaction(element: "fire", enabled: false))],
             refused: .tap(Tap(element: "fire")), code: "interaction-disabled", next: .tap(Tap(element: "smoke"))),
        Case(name: "a picker button while the picker is hidden", before: [.interaction(Interaction(element: "close", enabled: false))],
             refused: .tap(Tap(element: "sword")), code: "no-such-element", next: weapon),
        Case(name: "a button the picker has not", before: [weapon],
             refused: .tap(Tap(element: "laser")), code: "unknown-element", next: .tap(Tap(element: "close"))),
        Case(name: "an interaction of a button the picker has not", before: [weapon],
             refused: .interaction(Interaction(element: "add", enabled: false)), code: "unknown-element", next: .describe(Describe())),
        Case(name: "keyboard metrics out of range in a layout", before: [weapon],
             refused: .layout(DeviceLayout(
                orientation: .landscape, widthClass: .regular, window: Size(width: 1024, height: 768), elements: [],
                keyboard: KeyboardMetrics(width: 1e6, systemHeight: 352, windowHeight: 768), reason: "rotation")),
             code: "bad-keyboard", next: .tap(Tap(element: "blowgun"))),
    ]

    @Test(arguments: cases)
    func aRefusedActionChangesNothing_theNextActsAsIfItNeverCame(_ refusal: Case) {
        var refusing = InputCore(), twin = InputCore()
        for action in refusal.before {
            _ = refusing.handle(device: "ipad", action: action)
            _ = twin.handle(device: "ipad", action: action)
        }
        let before = refusing.devices
        let effects = refusing.handle(device: "ipad", action: refusal.refused)
        #expect(effects.map { $0.errorBody?.code } == [refusal.code], "\(effects)")
        #expect(refusing.devices == before)
        // The next action: a weapon tap after a hidden picker, or the picker as it was.
        let next = refusing.handle(device: "ipad", action: refusal.next)
        #expect(next == twin.handle(device: "ipad", action: refusal.next))
        #expect(refusing.devices == twin.devices)
    }
}
