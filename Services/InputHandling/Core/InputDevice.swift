import MonsterKit

/// The views that can become first responder.
public enum Responder: String, Sendable {
    /// The weapon image (`WeaponSelectorImageView`): its input view is the weapon picker.
    case weapon
    /// The notes text field: its input view is the system keyboard.
    case notes
}

/// What input-handling keeps for one device.
public struct InputDevice: Sendable, Equatable {
    /// The one first responder, if any.
    public var firstResponder: Responder?
    /// Whether the weapon picker exists yet (created once, lazily, on first use).
    public var weaponPickerCreated = false
    /// The keyboard's metrics as last reported by presentation-policy.
    public var keyboard: KeyboardMetrics

    /// A device with no first responder and the given keyboard metrics.
    public init(keyboard: KeyboardMetrics) { self.keyboard = keyboard }

    /// The input view on screen, if any.
    public var visibleInput: InputView? {
        firstResponder.map { InputViews.view(for: $0, keyboard: keyboard) }
    }
}

/// The two input views and their geometry.
public enum InputViews {
    /// The weapon picker's height (the tutorial's xib: 768 × 110).
    public static let weaponPickerHeight = 110.0
    /// The weapon picker's buttons, as taps name them, in the tutorial's order.
    public static let weaponPickerButtons = [Weapon.blowgun, .fire, .ninjaStar, .smoke, .sword].map(\.buttonElement) + ["close"]

    /// The input view of `responder`: as wide as the keyboard, at the bottom of the window.
    public static func view(for responder: Responder, keyboard: KeyboardMetrics) -> InputView {
        let height = responder == .weapon ? weaponPickerHeight : keyboard.systemHeight
        return InputView(
            view: responder == .weapon ? "weapon-picker" : "keyboard",
            responder: responder.rawValue, width: keyboard.width, height: height,
            frame: Rect(x: 0, y: keyboard.windowHeight - height, width: keyboard.width, height: height),
            buttons: responder == .weapon ? weaponPickerButtons : [])
    }
}
