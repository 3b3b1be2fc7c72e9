/// `device.tap`: the user taps a named element (`add`, `photo`, `weapon`, `outside`, …) or a point.
public struct Tap: Sendable, Equatable {
    /// The element tapped; `nil` when `point` is given instead.
    public var element: String?
    /// The point tapped, in window coordinates; `nil` when `element` is given.
    public var point: Point?
    /// The device's description, needed the first time a device id is used.
    public var profile: DeviceProfile?
    /// A tap on `element`.
    public init(element: String, profile: DeviceProfile? = nil) {
        self.element = element; self.point = nil; self.profile = profile
    }
    /// A tap at `point`.
    public init(point: Point, profile: DeviceProfile? = nil) {
        self.element = nil; self.point = point; self.profile = profile
    }
}

extension Tap: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Tap { Tap(element: "") }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("element", &element)
        try fields.field("point", &point)
        try fields.field("profile", &profile)
    }
}

/// `device.rotate`: the device turns to `orientation`.
public struct Rotate: Sendable, Equatable {
    /// The orientation the device turns to.
    public var orientation: Orientation
    /// The device's description, needed the first time a device id is used.
    public var profile: DeviceProfile?
    /// A rotation to `orientation`.
    public init(orientation: Orientation, profile: DeviceProfile? = nil) {
        self.orientation = orientation; self.profile = profile
    }
}

extension Rotate: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Rotate { Rotate(orientation: .portrait) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("orientation", &orientation)
        try fields.field("profile", &profile)
    }
}

/// `device.resize`: the app's window changes width class (Slide Over, Split View, full screen).
public struct Resize: Sendable, Equatable {
    /// The width class the window takes: `compact` (Slide Over) or `regular` (full screen).
    public var width: SizeClass
    /// Where the window goes: `slide-over` or `split-view` (compact), `full-screen` (regular),
    /// `split-view-wide` or `split-view-half` (the class the screen and orientation give, whatever
    /// `width` says); absent: Slide Over for compact, full screen for regular.
    public var mode: WindowMode?
    /// The device's description, needed the first time a device id is used.
    public var profile: DeviceProfile?
    /// A resize to `width`.
    public init(width: SizeClass, profile: DeviceProfile? = nil) {
        self.width = width; self.mode = nil; self.profile = profile
    }
    /// A resize to the window `mode` (its width class follows).
    public init(mode: WindowMode, profile: DeviceProfile? = nil) {
        self.width = mode.widthClass; self.mode = mode; self.profile = profile
    }
}

extension Resize: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Resize { Resize(width: .regular) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("width", &width)
        try fields.field("mode", &mode)
        try fields.field("profile", &profile)
    }
}

/// `device.select`: the user picks a monster in the roster list.
public struct Select: Sendable, Equatable {
    /// The name of the monster picked, e.g. `Dog-Bot`.
    public var monster: String
    /// The device's description, needed the first time a device id is used.
    public var profile: DeviceProfile?
    /// A selection of `monster`.
    public init(monster: String, profile: DeviceProfile? = nil) {
        self.monster = monster; self.profile = profile
    }
}

extension Select: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Select { Select(monster: "") }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("monster", &monster)
        try fields.field("profile", &profile)
    }
}

/// `device.interaction`: turns user interaction of a view on or off (`userInteractionEnabled`).
public struct Interaction: Sendable, Equatable {
    /// The view to change, by element name (`weapon`, `add`, `notes`, …).
    public var element: String
    /// `false` makes taps on the view refused (`interaction-disabled`); `true` lets them through again.
    public var enabled: Bool
    /// The device's description, needed the first time a device id is used.
    public var profile: DeviceProfile?
    /// Sets `element`'s user interaction to `enabled`.
    public init(element: String, enabled: Bool, profile: DeviceProfile? = nil) {
        self.element = element; self.enabled = enabled; self.profile = profile
    }
}

extension Interaction: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Interaction { Interaction(element: "", enabled: false) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("element", &element)
        try fields.field("enabled", &enabled)
        try fields.field("profile", &profile)
    }
}

/// `device.describe`: asks for everything on the device's screen (layout, presentation, input view, roster).
public struct Describe: Sendable, Equatable {
    /// The device's description, needed the first time a device id is used.
    public var profile: DeviceProfile?
    /// A request for the device's state.
    public init(profile: DeviceProfile? = nil) { self.profile = profile }
}

extension Describe: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Describe { Describe() }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("profile", &profile)
    }
}
