import Domain

/// The views that can become first responder.
public enum Responder: String, FieldCase, Sendable {
    /// The weapon image (`WeaponSelectorImageView`): its input view is the weapon picker.
    case weapon
    /// The notes text field: its input view is the system keyboard.
    case notes
}

/// What input-handling keeps for one device: a few bytes besides the keyboard's metrics.
public struct InputDevice: Sendable, Equatable {
    /// The one first responder, if any.
    public var firstResponder: Responder?
    /// Whether the weapon picker exists yet (created once, lazily, on first use).
    public var weaponPickerCreated = false
    /// Whether an alert is up (read from `presentation.*`): it is modal over the keyboard too.
    public var modalAlert = false
    /// The input views' buttons with user interaction off: bit `i` is
    /// `InputElement.weaponPickerButtons[i]`.
    public var interactionOff: UInt8 = 0
    /// The keyboard's metrics as last reported by presentation-policy (`input.tap`,
    /// `layout.changed`); `nil` until then.
    public var keyboard: KeyboardMetrics?

    /// A device with no first responder and the given keyboard metrics.
    public init(keyboard: KeyboardMetrics? = nil) { self.keyboard = keyboard }

    /// The input view on screen, if any.
    public var visibleInput: InputView? {
        guard let firstResponder, let keyboard else { return nil }
        return InputViews.view(for: firstResponder, keyboard: keyboard)
    }

    /// Whether `button` (an input view's) has user interaction on.
    public func isEnabled(_ button: String) -> Bool {
        InputElement.weaponPickerButtons.firstIndex(of: button).map { interactionOff & (1 << $0) == 0 } ?? true
    }

    /// Turns `button`'s user interaction on or off.
    public mutating func set(_ button: String, enabled: Bool) {
        guard let index = InputElement.weaponPickerButtons.firstIndex(of: button) else { return }
        if enabled { interactionOff &= ~(1 << index) } else { interactionOff |= 1 << index }
    }

    /// The buttons with user interaction off, in the picker's order.
    public var disabledButtons: [String] {
        InputElement.weaponPickerButtons.filter { !isEnabled($0) }
    }
}

extension InputDevice: FieldSet {
    /// A device as it starts: what reading its snapshot starts from.
    public static var placeholder: InputDevice { InputDevice() }

    /// The fields of a device's snapshot, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("firstResponder", &firstResponder)
        try fields.field("weaponPickerCreated", &weaponPickerCreated)
        try fields.field("modalAlert", &modalAlert)
        try fields.field("interactionOff", &interactionOff)
        try fields.field("keyboard", &keyboard)
    }
}

/// The two input views and their geometry.
public enum InputViews {
    /// The weapon picker's height (the tutorial's xib: 768 × 110).
    public static let weaponPickerHeight = 110.0

    /// The input view of `responder`: as wide as the keyboard (the whole screen), at the bottom of
    /// the window, with its buttons' frames (the system keyboard's keys are not simulated).
    public static func view(for responder: Responder, keyboard: KeyboardMetrics) -> InputView {
        let height = responder == .weapon ? weaponPickerHeight : keyboard.systemHeight
        let frame = Rect(x: keyboard.left, y: keyboard.windowHeight - height, width: keyboard.width, height: height)
        let buttons = responder == .weapon ? InputElement.weaponPickerButtons : []
        return InputView(
            view: responder == .weapon ? "weapon-picker" : "keyboard",
            responder: responder.rawValue, width: keyboard.width, height: height,
            frame: frame, buttons: buttons, buttonFrames: buttonFrames(frame: frame, buttons: buttons))
    }

    /// Where the weapon picker's buttons are: `close` as a small key at the top right, the others
    /// as squares of up to 70 pt in a row. Where the view is wide enough the row is centred across
    /// the middle, clear of `close` on both sides; in a narrow view it fills the width below
    /// `close` instead. In the order of `buttons`.
    public static func buttonFrames(frame box: Rect, buttons: [String]) -> [Rect] {
        let hasClose = buttons.contains(InputElement.close)
        let close = Rect(x: box.maxX - 8 - 64, y: box.minY + 6, width: 64, height: 28)
        let squares = buttons.filter { $0 != InputElement.close }
        let count = Double(squares.count)
        /// Squares in `area`, as large as fit (up to 70 pt), spread evenly across it.
        func row(in area: Rect) -> [Rect] {
            guard count > 0 else { return [] }
            let side = max(0, min(70, area.height, (area.width - (count + 1) * 8) / count))
            let gap = (area.width - count * side) / (count + 1)
            return squares.indices.map { index in
                Rect(x: area.minX + gap + Double(index) * (side + gap), y: area.midY - side / 2, width: side, height: side)
            }
        }
        let reserve = hasClose ? close.width + 16 : 0
        var frames = row(in: Rect(x: box.minX + reserve, y: box.minY + 10, width: max(0, box.width - 2 * reserve), height: max(0, box.height - 20)))
        if let first = frames.first, first.width < 56 {
            let top = hasClose ? close.maxY + 4 : box.minY + 8
            frames = row(in: Rect(x: box.minX, y: top, width: box.width, height: max(0, box.maxY - 8 - top)))
        }
        var byName = Dictionary(uniqueKeysWithValues: zip(squares, frames))
        if hasClose { byName[InputElement.close] = close }
        return buttons.map { byName[$0] ?? Rect(x: box.minX, y: box.minY, width: 0, height: 0) }
    }
}
