/// Where the keyboard goes on a device right now: its width and the system keyboard's height.
/// The keyboard (and so any input view) spans the whole screen, not the app's window: in Slide
/// Over or Split View it is wider than the window and starts left of it.
public struct KeyboardMetrics: Sendable, Equatable {
    /// The keyboard's width: the screen's width in the current orientation.
    public var width: Double
    /// The system keyboard's height in the current orientation.
    public var systemHeight: Double
    /// The window's height, so an input view's frame can sit at its bottom.
    public var windowHeight: Double
    /// The keyboard's left edge in window coordinates (the screen's left edge): 0 for a window
    /// at the screen's left, negative for one further right (Slide Over). Absent in JSON means 0.
    public var left: Double
    /// Metrics from their parts.
    public init(width: Double, systemHeight: Double, windowHeight: Double, left: Double = 0) {
        self.width = width; self.systemHeight = systemHeight; self.windowHeight = windowHeight; self.left = left
    }
}

extension KeyboardMetrics: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: KeyboardMetrics { KeyboardMetrics(width: 0, systemHeight: 0, windowHeight: 0) }

    /// The fields, in the order they are written; `left` may be absent (0).
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("width", &width)
        try fields.field("systemHeight", &systemHeight)
        try fields.field("windowHeight", &windowHeight)
        try fields.field("left", &left, whenAbsent: 0)
    }
}

/// `input.tap`: presentation-policy passes a tap on a first responder of the app's window
/// (`weapon`, `notes`) to input-handling, with the keyboard's metrics for the input view it
/// brings up. (Taps on input views' buttons and at points come to input-handling first, as
/// `device.tap`; `point` and `interactionDisabled` are no longer sent.)
public struct InputTap: Sendable, Equatable {
    /// The first responder tapped (`weapon`, `notes`).
    public var element: String
    /// The device's keyboard metrics now, to size and place an input view it brings up.
    public var keyboard: KeyboardMetrics
    /// A tap on `element` with the device's current `keyboard` metrics.
    public init(element: String, keyboard: KeyboardMetrics) {
        self.element = element; self.keyboard = keyboard
    }
}

extension InputTap: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: InputTap { InputTap(element: "", keyboard: .placeholder) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("element", &element)
        try fields.field("keyboard", &keyboard)
    }
}

/// `input.passed`: input-handling passes a tap at a point back to presentation-policy because
/// no input view is there: the app's window hit-tests it (UIKit's next window down).
public struct InputPassed: Sendable, Equatable {
    /// The point tapped, in window coordinates.
    public var point: Point
    /// The tap's device profile, when it carried one (the app's window creates a device from it).
    public var profile: DeviceProfile?
    /// A tap at `point` passed on to the app's window.
    public init(point: Point, profile: DeviceProfile? = nil) { self.point = point; self.profile = profile }
}

extension InputPassed: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: InputPassed { InputPassed(point: .placeholder) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("point", &point)
        try fields.field("profile", &profile)
    }
}

/// An input view as it is on screen.
public struct InputView: Sendable, Equatable {
    /// `weapon-picker` (the custom input view) or `keyboard` (the system keyboard).
    public var view: String
    /// The first responder it belongs to: `weapon` or `notes`.
    public var responder: String
    /// Width: always the keyboard's.
    public var width: Double
    /// The view's own height: 110 pt for the weapon picker, the system keyboard's height for `keyboard`.
    public var height: Double
    /// Its frame at the bottom of the window.
    public var frame: Rect
    /// Its buttons, in order (element names `blowgun`, … `close`).
    public var buttons: [String]
    /// Each button's frame in window coordinates, in the order of `buttons` (what `tap --at` hits
    /// and what `gateway screen` draws). Absent in JSON means none.
    public var buttonFrames: [Rect]
    /// A view from its parts.
    public init(view: String, responder: String, width: Double, height: Double, frame: Rect, buttons: [String], buttonFrames: [Rect] = []) {
        self.view = view; self.responder = responder; self.width = width; self.height = height
        self.frame = frame; self.buttons = buttons; self.buttonFrames = buttonFrames
    }

    /// The button at `point`, if any: its index in `buttons`.
    public func button(at point: Point) -> Int? {
        buttonFrames.firstIndex { $0.contains(point) }
    }
}

extension InputView: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: InputView { InputView(view: "", responder: "", width: 0, height: 0, frame: .placeholder, buttons: []) }

    /// The fields, in the order they are written; `buttonFrames` may be absent (none).
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("view", &view)
        try fields.field("responder", &responder)
        try fields.field("width", &width)
        try fields.field("height", &height)
        try fields.field("frame", &frame)
        try fields.field("buttons", &buttons)
        try fields.field("buttonFrames", &buttonFrames, whenAbsent: [])
    }
}

/// `input.shown`: an input view slid in (or took a new width after a rotation).
public struct InputShown: Sendable, Equatable {
    /// The input view now on screen: its frame and buttons.
    public var input: InputView
    /// True the one time the view is created (lazily, on first use).
    public var created: Bool
    /// `first-responder`, `rotation`, `resize`.
    public var reason: String
    /// `input` shown for `reason`.
    public init(input: InputView, created: Bool, reason: String) {
        self.input = input; self.created = created; self.reason = reason
    }
}

extension InputShown: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: InputShown { InputShown(input: .placeholder, created: false, reason: "") }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("input", &input)
        try fields.field("created", &created)
        try fields.field("reason", &reason)
    }
}

/// `input.hidden`: an input view went away (its responder resigned).
public struct InputHidden: Sendable, Equatable {
    /// The input view as it was on screen before it went away.
    public var input: InputView
    /// `weapon-selected`, `closed`, `taken-over`.
    public var reason: String
    /// `input` hidden for `reason`.
    public init(input: InputView, reason: String) { self.input = input; self.reason = reason }
}

extension InputHidden: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: InputHidden { InputHidden(input: .placeholder, reason: "") }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("input", &input)
        try fields.field("reason", &reason)
    }
}

/// `input.weapon.selected`: the user picked a weapon in the weapon input view.
public struct WeaponSelected: Sendable, Equatable {
    /// The weapon picked; in JSON its name (`Fire`, `NinjaStar`, …).
    public var weapon: Weapon
    /// The weapon's raw `WeaponType` value.
    public var weaponType: Int
    /// A pick of `weapon`.
    public init(weapon: Weapon) { self.weapon = weapon; self.weaponType = weapon.rawValue }
}

extension WeaponSelected: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: WeaponSelected { WeaponSelected(weapon: .blowgun) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("weapon", &weapon)
        try fields.field("weaponType", &weaponType)
    }
}

/// `input.state`: a device's first responder and visible input view.
public struct InputState: Sendable, Equatable {
    /// `weapon`, `notes`, or `nil`.
    public var firstResponder: String?
    /// The input view on screen, if any.
    public var input: InputView?
    /// Whether the weapon picker has been created yet (it is created once, lazily).
    public var weaponPickerCreated: Bool
    /// A state from its parts.
    public init(firstResponder: String?, input: InputView?, weaponPickerCreated: Bool) {
        self.firstResponder = firstResponder; self.input = input; self.weaponPickerCreated = weaponPickerCreated
    }
}

extension InputState: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: InputState { InputState(firstResponder: nil, input: nil, weaponPickerCreated: false) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("firstResponder", &firstResponder)
        try fields.field("input", &input)
        try fields.field("weaponPickerCreated", &weaponPickerCreated)
    }
}
