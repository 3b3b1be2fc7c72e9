import Domain

/// input-handling's decisions for any number of devices: first responders and input views.
/// The keyboard's window is above the app's: taps on input views' buttons and at points come
/// here first (`Routing.firstHop(of:)`), and a point no input view is under goes back to the
/// app's window (`input.passed`); an alert is modal over both (read from `presentation.*`).
/// Taps on first responders come from presentation-policy with the keyboard's place, which
/// `layout.changed` updates.
public struct InputCore: Sendable {
    /// Every device seen, by id (`forget` and `restore` come with `DeviceStateCore`).
    public var devices: [String: InputDevice] = [:]

    /// A core that knows no device yet.
    public init() {}

    /// Handles an action for `device` and says what to publish.
    public mutating func handle(device deviceId: String?, action: InputAction) -> [Effect] {
        guard let deviceId else {
            return [.error(.missingDevice, "input-handling needs a device id in the envelope")]
        }
        switch action {
        case .tap(let tap):
            return update(deviceId) { Self.tap(tap, on: &$0) }
        case .inputTap(let tap):
            return update(deviceId, keyboard: tap.keyboard) { device in
                guard let responder = Responder(rawValue: tap.element) else {
                    return [.error(.unknownElement, "'\(tap.element)' is not a first responder (weapon, notes)")]
                }
                return Self.becomeFirstResponder(responder, on: &device)
            }
        case .interaction(let interaction):
            return update(deviceId) { Self.setInteraction(interaction, on: &$0) }
        case .presented(let presented):
            guard presented.presentation.style == .alert else { return [] }
            return update(deviceId) { device in
                device.modalAlert = true
                return []
            }
        case .dismissed:
            guard devices[deviceId]?.modalAlert == true else { return [] }
            devices[deviceId]?.modalAlert = false
            return []
        case .layout(let layout):
            guard let keyboard = layout.keyboard else {
                return [.error(.badKeyboard, "a layout for input-handling must carry the keyboard's metrics")]
            }
            return update(deviceId, keyboard: keyboard) { device in
                device.visibleInput.map {
                    [.publish(.inputShown(InputShown(input: $0, created: false, reason: layout.reason ?? ChangeReason.rotation.rawValue)))]
                } ?? []
            }
        case .describe:
            // A device never seen here has no first responder: nothing to keep for it.
            let device = devices[deviceId]
            return [.publish(.inputState(InputState(
                firstResponder: device?.firstResponder?.rawValue, input: device?.visibleInput,
                weaponPickerCreated: device?.weaponPickerCreated ?? false)))]
        }
    }

    /// Runs `change` on `device` (with the `keyboard` now, when given); keeps the result unless
    /// it was refused.
    private mutating func update(_ deviceId: String, keyboard: KeyboardMetrics? = nil, _ change: (inout InputDevice) -> [Effect]) -> [Effect] {
        if let keyboard, !keyboard.isPlausible {
            return [.error(
                .badKeyboard,
                "keyboard metrics must be from 0 to \(Int(KeyboardMetrics.largest)) points (width \(keyboard.width), systemHeight \(keyboard.systemHeight), windowHeight \(keyboard.windowHeight))")]
        }
        var device = devices[deviceId] ?? InputDevice()
        if let keyboard { device.keyboard = keyboard }
        let effects = change(&device)
        if !effects.contains(where: \.isError) && (devices[deviceId] != nil || device != InputDevice()) {
            devices[deviceId] = device
        }
        return effects
    }

    /// A client's tap: a button of an input view by name, or a point in the keyboard's window.
    private static func tap(_ tap: Tap, on device: inout InputDevice) -> [Effect] {
        switch (tap.element, tap.point) {
        case (let element?, nil):
            // An alert is above everything, the keyboard's window included.
            if device.modalAlert {
                return [.error(.modalAlert, "an alert is up: only its buttons can be tapped, not '\(element)'")]
            }
            return button(element, on: &device)
        case (nil, let point?):
            guard point.x.isFinite, point.y.isFinite else {
                return [.error(.badTap, "a tap's point must be finite numbers")]
            }
            // The alert (above) or the app's window (below) when no input view is under the point.
            guard !device.modalAlert, let view = device.visibleInput, view.frame.contains(point) else {
                return [.forward(.inputPassed(InputPassed(point: point, profile: tap.profile)), to: MonsterBus.Service.presentationPolicy)]
            }
            guard let index = view.button(at: point) else {
                let keys = view.buttons.isEmpty ? " (its keys are not simulated)" : ", between its keys"
                return [.unchanged(.noKey, "the tap at \(describe(point)) landed on the \(view.view)\(keys): no key is there, nothing changed")]
            }
            return button(view.buttons[index], on: &device)
        case (nil, nil), (_?, _?):
            return [.error(.badTap, "a tap names either an element or a point")]
        }
    }

    private static func button(_ element: String, on device: inout InputDevice) -> [Effect] {
        guard InputElement.weaponPickerButtons.contains(element) else {
            return [.error(
                .unknownElement,
                "'\(element)' is not a button of the weapon picker (\(InputElement.weaponPickerButtons.joined(separator: ", ")))")]
        }
        guard device.firstResponder == .weapon, let picker = device.visibleInput else {
            return [.error(.noSuchElement, "'\(element)' is a button of the weapon picker, which is not on screen: tap weapon first")]
        }
        guard device.isEnabled(element) else {
            return [.error(.interactionDisabled, "'\(element)' has user interaction disabled: it never receives the tap")]
        }
        device.firstResponder = nil
        if element == InputElement.close {
            return [.publish(.inputHidden(InputHidden(input: picker, reason: ChangeReason.closed.rawValue)))]
        }
        let weapon = Weapon(named: element)!
        return [
            .forward(.weaponSelected(WeaponSelected(weapon: weapon)), to: MonsterBus.Service.roster),
            .publish(.inputHidden(InputHidden(input: picker, reason: ChangeReason.weaponSelected.rawValue))),
        ]
    }

    /// Turns an input view button's user interaction on or off.
    private static func setInteraction(_ interaction: Interaction, on device: inout InputDevice) -> [Effect] {
        let element = interaction.element
        guard InputElement.weaponPickerButtons.contains(interaction.element) else {
            return [.error(.unknownElement, "'\(element)' is not a button of the weapon picker (\(InputElement.weaponPickerButtons.joined(separator: ", ")))")]
        }
        guard device.isEnabled(element) != interaction.enabled else {
            return [.unchanged(.interactionUnchanged, "'\(element)' already has user interaction \(interaction.enabled ? "on" : "off")")]
        }
        device.set(element, enabled: interaction.enabled)
        return [.publish(.interactionChanged(InteractionChanged(
            element: element, enabled: interaction.enabled, interactionDisabled: device.disabledButtons)))]
    }

    /// Makes `responder` first responder unless it already is; the old one resigns.
    private static func becomeFirstResponder(_ responder: Responder, on device: inout InputDevice) -> [Effect] {
        if device.firstResponder == responder, let view = device.visibleInput {
            return [.unchanged(.alreadyFirstResponder, "\(responder.rawValue) is already first responder: its \(view.view) stays up")]
        }
        var effects: [Effect] = []
        if let old = device.visibleInput {
            effects.append(.publish(.inputHidden(InputHidden(input: old, reason: ChangeReason.takenOver.rawValue))))
        }
        device.firstResponder = responder
        var created = false
        if responder == .weapon && !device.weaponPickerCreated {
            device.weaponPickerCreated = true
            created = true
        }
        effects.append(.publish(.inputShown(InputShown(input: device.visibleInput!, created: created, reason: ChangeReason.firstResponder.rawValue))))
        return effects
    }

    private static func describe(_ point: Point) -> String {
        func number(_ value: Double) -> String { value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value) }
        return "(\(number(point.x)), \(number(point.y)))"
    }
}

extension KeyboardMetrics {
    /// The largest metric accepted, in points: well above any screen (profiles stop at 4096), and
    /// small enough that no frame computed from it overflows to infinity.
    static let largest = 100_000.0

    /// Whether every metric is from 0 to `largest` (a forged one could make a frame non-finite).
    var isPlausible: Bool {
        [width, systemHeight, windowHeight].allSatisfy { $0 >= 0 && $0 <= Self.largest }
    }
}
