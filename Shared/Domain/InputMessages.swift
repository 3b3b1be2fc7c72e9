/// Where the keyboard goes on a device right now: its width and the system keyboard's height.
/// The keyboard (and so any input view) spans the whole screen, not the app's window: in Slide
/// Over or Split View it is wider than the window and starts left of it.
public struct KeyboardMetrics: Codable, Sendable, Equatable {
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

    /// Decodes metrics; `left` may be absent (0).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        width = try container.decode(Double.self, forKey: .width)
        systemHeight = try container.decode(Double.self, forKey: .systemHeight)
        windowHeight = try container.decode(Double.self, forKey: .windowHeight)
        left = try container.decodeIfPresent(Double.self, forKey: .left) ?? 0
    }
}

/// `input.tap`: presentation-policy passes a tap on a first responder of the app's window
/// (`weapon`, `notes`) to input-handling, with the keyboard's metrics for the input view it
/// brings up. (Taps on input views' buttons and at points come to input-handling first, as
/// `device.tap`; `point` and `interactionDisabled` are no longer sent.)
public struct InputTap: Codable, Sendable, Equatable {
    /// The first responder tapped (`weapon`, `notes`).
    public var element: String
    /// The device's keyboard metrics now, to size and place an input view it brings up.
    public var keyboard: KeyboardMetrics
    /// A tap on `element` with the device's current `keyboard` metrics.
    public init(element: String, keyboard: KeyboardMetrics) {
        self.element = element; self.keyboard = keyboard
    }
}

/// `input.passed`: input-handling passes a tap at a point back to presentation-policy because
/// no input view is there: the app's window hit-tests it (UIKit's next window down).
public struct InputPassed: Codable, Sendable, Equatable {
    /// The point tapped, in window coordinates.
    public var point: Point
    /// The tap's device profile, when it carried one (the app's window creates a device from it).
    public var profile: DeviceProfile?
    /// A tap at `point` passed on to the app's window.
    public init(point: Point, profile: DeviceProfile? = nil) { self.point = point; self.profile = profile }
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
    /// Each button's frame in window coordinates, in the order of `buttons` (what `tap --at` hits
    /// and what `gateway screen` draws). Absent in JSON means none.
    public var buttonFrames: [Rect]
    /// A view from its parts.
    public init(view: String, responder: String, width: Double, height: Double, frame: Rect, buttons: [String], buttonFrames: [Rect] = []) {
        self.view = view; self.responder = responder; self.width = width; self.height = height
        self.frame = frame; self.buttons = buttons; self.buttonFrames = buttonFrames
    }

    /// Decodes a view; `buttonFrames` may be absent (none).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        view = try container.decode(String.self, forKey: .view)
        responder = try container.decode(String.self, forKey: .responder)
        width = try container.decode(Double.self, forKey: .width)
        height = try container.decode(Double.self, forKey: .height)
        frame = try container.decode(Rect.self, forKey: .frame)
        buttons = try container.decode([String].self, forKey: .buttons)
        buttonFrames = try container.decodeIfPresent([Rect].self, forKey: .buttonFrames) ?? []
    }

    /// The button at `point`, if any: its index in `buttons`.
    public func button(at point: Point) -> Int? {
        buttonFrames.firstIndex { $0.contains(point) }
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
