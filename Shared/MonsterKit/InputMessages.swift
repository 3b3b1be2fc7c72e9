/// Where the keyboard goes on a device right now: its width and the system keyboard's height.
public struct KeyboardMetrics: Codable, Sendable, Equatable {
    /// The keyboard's width: the window's width in the current orientation.
    public var width: Double
    /// The system keyboard's height in the current orientation.
    public var systemHeight: Double
    /// The window's height, so an input view's frame can sit at its bottom.
    public var windowHeight: Double
    /// Metrics from their parts.
    public init(width: Double, systemHeight: Double, windowHeight: Double) {
        self.width = width; self.systemHeight = systemHeight; self.windowHeight = windowHeight
    }
}

/// `input.tap`: presentation-policy passes a tap it does not own to input-handling.
public struct InputTap: Codable, Sendable, Equatable {
    /// The element tapped: a first responder (`weapon`, `notes`) or an input view button (`fire`, `close`, …).
    public var element: String
    /// The device's keyboard metrics now, to size and place an input view it brings up.
    public var keyboard: KeyboardMetrics
    /// A tap on `element` with the device's current `keyboard` metrics.
    public init(element: String, keyboard: KeyboardMetrics) { self.element = element; self.keyboard = keyboard }
}

/// `input.layout`: the keyboard's metrics changed (rotation, resize).
public struct InputLayout: Codable, Sendable, Equatable {
    /// The keyboard's metrics after the change, for the visible input view's new frame.
    public var keyboard: KeyboardMetrics
    /// `rotation` or `resize`.
    public var reason: String
    /// New `keyboard` metrics for `reason`.
    public init(keyboard: KeyboardMetrics, reason: String) { self.keyboard = keyboard; self.reason = reason }
}

/// `input.describe`: asks input-handling for a device's first responder and input view.
public struct InputDescribe: Codable, Sendable, Equatable {
    /// The device's keyboard metrics now, so the reported input view has its current frame.
    public var keyboard: KeyboardMetrics
    /// A request with the device's current `keyboard` metrics.
    public init(keyboard: KeyboardMetrics) { self.keyboard = keyboard }
}

/// An input view as it is on screen.
public struct InputView: Codable, Sendable, Equatable {
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
    /// A view from its parts.
    public init(view: String, responder: String, width: Double, height: Double, frame: Rect, buttons: [String]) {
        self.view = view; self.responder = responder; self.width = width; self.height = height
        self.frame = frame; self.buttons = buttons
    }
}

/// `input.shown`: an input view slid in (or took a new width after a rotation).
public struct InputShown: Codable, Sendable, Equatable {
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

/// `input.hidden`: an input view went away (its responder resigned).
public struct InputHidden: Codable, Sendable, Equatable {
    /// The input view as it was on screen before it went away.
    public var input: InputView
    /// `weapon-selected`, `closed`, `taken-over`.
    public var reason: String
    /// `input` hidden for `reason`.
    public init(input: InputView, reason: String) { self.input = input; self.reason = reason }
}

/// `input.weapon.selected`: the user picked a weapon in the weapon input view.
public struct WeaponSelected: Codable, Sendable, Equatable {
    /// The weapon picked; in JSON its name (`Fire`, `NinjaStar`, …).
    public var weapon: Weapon
    /// The weapon's raw `WeaponType` value.
    public var weaponType: Int
    /// A pick of `weapon`.
    public init(weapon: Weapon) { self.weapon = weapon; self.weaponType = weapon.rawValue }
}

/// `input.state`: a device's first responder and visible input view.
public struct InputState: Codable, Sendable, Equatable {
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
