/// UIKit's `UIPopoverArrowDirection` bit mask.
public struct ArrowDirections: OptionSet, Sendable, Hashable {
    /// The mask's bits as UIKit defines them (Up 1, Down 2, Left 4, Right 8); also its JSON form.
    public let rawValue: UInt64
    /// A mask from its raw value.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The arrow points up: the popover is below its anchor (1).
    public static let up = ArrowDirections(rawValue: 1)
    /// The arrow points down: the popover is above its anchor (2).
    public static let down = ArrowDirections(rawValue: 2)
    /// The arrow points left: the popover is to the right of its anchor (4).
    public static let left = ArrowDirections(rawValue: 4)
    /// The arrow points right: the popover is to the left of its anchor (8).
    public static let right = ArrowDirections(rawValue: 8)
    /// Every direction (15): what this app permits for its popovers.
    public static let any: ArrowDirections = [.up, .down, .left, .right]
    /// `UIPopoverArrowDirectionUnknown` (`NSUIntegerMax`): reported while no popover is visible.
    public static let unknown = ArrowDirections(rawValue: UInt64.max)
}

extension ArrowDirections: FieldValue {
    /// Reads a mask from its wire form, the bare number (`1`, `15`, `18446744073709551615`).
    public static func read<Reader: ValueReader>(from reader: inout Reader) throws(Reader.Failure) -> ArrowDirections {
        ArrowDirections(rawValue: try reader.readInteger(UInt64.self))
    }

    /// Writes the mask as its wire form, the bare number UIKit would report.
    public func write<Writer: ValueWriter>(to writer: inout Writer) throws(Writer.Failure) {
        writer.writeInteger(rawValue)
    }
}

/// How a presentation appears.
public enum PresentationStyle: String, FieldCase, Sendable, CaseIterable {
    case popover, alert
}

/// What a presentation shows.
public enum PresentationContent: String, FieldCase, Sendable, CaseIterable {
    /// The `+` button's choice: Photo or Audio.
    case add
    /// The colour picker: Red, Green, Blue.
    case color
    /// The roster, in portrait on an iPad.
    case monsterList = "monster-list"
}

/// What a popover is presented from.
public struct Anchor: Sendable, Hashable {
    /// `barButton` (`presentPopoverFromBarButtonItem:`) or `rect` (`presentPopoverFromRect:inView:`).
    public enum Kind: String, FieldCase, Sendable, CaseIterable { case barButton, rect }
    /// How the popover was presented: from a bar button or from a view's rectangle.
    public var kind: Kind
    /// The bar button or view the popover comes from.
    public var element: String
    /// The anchor's rectangle in window coordinates.
    public var rect: Rect
    /// An anchor of `kind` at `element`, occupying `rect`.
    public init(kind: Kind, element: String, rect: Rect) {
        self.kind = kind; self.element = element; self.rect = rect
    }
}

extension Anchor: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Anchor { Anchor(kind: .barButton, element: "", rect: .placeholder) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("kind", &kind)
        try fields.field("element", &element)
        try fields.field("rect", &rect)
    }
}

/// A popover or alert as it is on screen.
public struct Presentation: Sendable, Hashable {
    /// Popover, or alert where a popover cannot be (iPhone, compact width, before iPhone OS 3.2).
    public var style: PresentationStyle
    /// What it shows: the `+` choice, the colour picker or the Monster List.
    public var content: PresentationContent
    /// The alert's message (`Add…`); `nil` for popovers.
    public var message: String?
    /// Button titles in order; for an alert, index 0 is Cancel (UIAlertView's indices).
    public var buttons: [String]
    /// Each button's frame in window coordinates, in the order of `buttons`.
    public var buttonFrames: [Rect]
    /// The alert's cancel button index (0); `nil` for popovers.
    public var cancelButtonIndex: Int?
    /// Where a popover comes from; `nil` for alerts.
    public var anchor: Anchor?
    /// The arrow directions the app permitted (popovers only).
    public var permittedArrowDirections: ArrowDirections?
    /// The arrow direction chosen; `unknown` for alerts.
    public var arrowDirection: ArrowDirections
    /// Where the arrow's tip touches the anchor (popovers only).
    public var arrowTip: Point?
    /// The presentation's frame (the popover's body without its arrow, or the alert box).
    public var frame: Rect
    /// The content's preferred size.
    public var contentSize: Size
    /// Elements whose taps pass through while this is up (a bar-button popover's navigation bar).
    public var passthrough: [String]

    /// A presentation from all of its parts.
    public init(
        style: PresentationStyle, content: PresentationContent, message: String?, buttons: [String],
        buttonFrames: [Rect], cancelButtonIndex: Int?, anchor: Anchor?, permittedArrowDirections: ArrowDirections?,
        arrowDirection: ArrowDirections, arrowTip: Point?, frame: Rect, contentSize: Size, passthrough: [String]
    ) {
        self.style = style; self.content = content; self.message = message; self.buttons = buttons
        self.buttonFrames = buttonFrames
        self.cancelButtonIndex = cancelButtonIndex; self.anchor = anchor
        self.permittedArrowDirections = permittedArrowDirections; self.arrowDirection = arrowDirection
        self.arrowTip = arrowTip; self.frame = frame; self.contentSize = contentSize; self.passthrough = passthrough
    }
}

extension Presentation: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Presentation { Presentation(style: .popover, content: .add, message: nil, buttons: [], buttonFrames: [], cancelButtonIndex: nil, anchor: nil, permittedArrowDirections: nil, arrowDirection: .unknown, arrowTip: nil, frame: .placeholder, contentSize: .placeholder, passthrough: []) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("style", &style)
        try fields.field("content", &content)
        try fields.field("message", &message)
        try fields.field("buttons", &buttons)
        try fields.field("buttonFrames", &buttonFrames)
        try fields.field("cancelButtonIndex", &cancelButtonIndex)
        try fields.field("anchor", &anchor)
        try fields.field("permittedArrowDirections", &permittedArrowDirections)
        try fields.field("arrowDirection", &arrowDirection)
        try fields.field("arrowTip", &arrowTip)
        try fields.field("frame", &frame)
        try fields.field("contentSize", &contentSize)
        try fields.field("passthrough", &passthrough)
    }
}

/// `presentation.presented`: a popover or alert appeared (or re-appeared after a rotation).
public struct Presented: Sendable, Equatable {
    /// The popover or alert as it now is on screen.
    public var presentation: Presentation
    /// `tap`, or `rotation` / `resize` when it is shown again at a new place.
    public var reason: String
    /// A presentation that appeared for `reason`.
    public init(presentation: Presentation, reason: String) { self.presentation = presentation; self.reason = reason }
}

extension Presented: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Presented { Presented(presentation: .placeholder, reason: "") }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("presentation", &presentation)
        try fields.field("reason", &reason)
    }
}

/// `presentation.moved`: the presentation on screen stayed up but moved: an alert re-centred
/// after a rotation or resize (it never left the screen, so it is not presented again).
public struct Moved: Sendable, Equatable {
    /// The presentation at its new place.
    public var presentation: Presentation
    /// `rotation` or `resize`.
    public var reason: String
    /// A presentation moved for `reason`.
    public init(presentation: Presentation, reason: String) { self.presentation = presentation; self.reason = reason }
}

extension Moved: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Moved { Moved(presentation: .placeholder, reason: "") }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("presentation", &presentation)
        try fields.field("reason", &reason)
    }
}

/// `interaction.changed`: a view's user interaction was turned on or off.
public struct InteractionChanged: Sendable, Equatable {
    /// The view, by element name (`weapon`, `blowgun`, …).
    public var element: String
    /// Its user interaction now.
    public var enabled: Bool
    /// Every element with user interaction off now, sorted.
    public var interactionDisabled: [String]
    /// `element`'s interaction now `enabled`, leaving `interactionDisabled` off.
    public init(element: String, enabled: Bool, interactionDisabled: [String]) {
        self.element = element; self.enabled = enabled; self.interactionDisabled = interactionDisabled
    }
}

extension InteractionChanged: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: InteractionChanged { InteractionChanged(element: "", enabled: false, interactionDisabled: []) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("element", &element)
        try fields.field("enabled", &enabled)
        try fields.field("interactionDisabled", &interactionDisabled)
    }
}

/// `presentation.hidden`: a popover hidden because the device started rotating.
public struct Hidden: Sendable, Equatable {
    /// The popover as it was; after the rotation it is shown again or dismissed.
    public var presentation: Presentation
    /// Why it was hidden: `rotation`, the only reason so far.
    public var reason: String
    /// A presentation hidden for `reason`.
    public init(presentation: Presentation, reason: String) { self.presentation = presentation; self.reason = reason }
}

extension Hidden: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Hidden { Hidden(presentation: .placeholder, reason: "") }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("presentation", &presentation)
        try fields.field("reason", &reason)
    }
}

/// `presentation.dismissed`: a popover or alert went away, and why.
public struct Dismissed: Sendable, Equatable {
    /// The popover or alert as it was when it went away.
    public var presentation: Presentation
    /// `button`, `outside-tap`, `toggle`, `replaced`, `selection`, `anchor-gone`, `rect-anchor`, `size-class`.
    public var reason: String
    /// The button that dismissed it, if one did.
    public var button: String?
    /// That button's index (UIAlertView's `buttonIndex` for alerts).
    public var buttonIndex: Int?
    /// A dismissal for `reason`, by `button` at `buttonIndex` if any.
    public init(presentation: Presentation, reason: String, button: String? = nil, buttonIndex: Int? = nil) {
        self.presentation = presentation; self.reason = reason; self.button = button; self.buttonIndex = buttonIndex
    }
}

extension Dismissed: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Dismissed { Dismissed(presentation: .placeholder, reason: "") }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("presentation", &presentation)
        try fields.field("reason", &reason)
        try fields.field("button", &button)
        try fields.field("buttonIndex", &buttonIndex)
    }
}

/// What `media.add.requested` asks for.
public enum MediaKind: String, FieldCase, Sendable, CaseIterable { case photo, audio }

/// `media.add.requested`: the user chose Photo or Audio.
public struct MediaAddRequested: Sendable, Equatable {
    /// Photo or Audio, as chosen in the `+` popover or alert.
    public var kind: MediaKind
    /// A request to add `kind`.
    public init(kind: MediaKind) { self.kind = kind }
}

extension MediaAddRequested: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: MediaAddRequested { MediaAddRequested(kind: .photo) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("kind", &kind)
    }
}

/// `color.selected`: the user picked a colour in the colour picker (roster applies it).
public struct ColorSelected: Sendable, Equatable {
    /// The new name-label colour for the monster selected on the envelope's device: red, green or blue.
    public var color: NameColor
    /// A pick of `color`.
    public init(color: NameColor) { self.color = color }
}

extension ColorSelected: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: ColorSelected { ColorSelected(color: .black) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("color", &color)
    }
}

/// One element of the screen's layout.
public struct LayoutElement: Sendable, Equatable {
    /// The name a tap uses: `add`, `color`, `monster-list`, `weapon`, …
    public var name: String
    /// `barButton`, `bar`, `pane`, `row`, `label`, `image`, `textField`.
    public var kind: ElementKind
    /// Its title or text, where it has one.
    public var title: String?
    /// Its frame in window coordinates.
    public var frame: Rect
    /// An element named `name` of `kind` at `frame`.
    public init(name: String, kind: ElementKind, title: String? = nil, frame: Rect) {
        self.name = name; self.kind = kind; self.title = title; self.frame = frame
    }
}

extension LayoutElement: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: LayoutElement { LayoutElement(name: "", kind: .barButton, frame: .placeholder) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("name", &name)
        try fields.field("kind", &kind)
        try fields.field("title", &title)
        try fields.field("frame", &frame)
    }
}

/// `layout.changed`: the window after a rotation or resize.
public struct DeviceLayout: Sendable, Equatable {
    /// The device's orientation now.
    public var orientation: Orientation
    /// The window's horizontal size class now (compact on an iPhone or in Slide Over).
    public var widthClass: SizeClass
    /// The app's window size in the current orientation.
    public var window: Size
    /// Every element on screen with its frame, containers before what they contain.
    public var elements: [LayoutElement]
    /// Where the window is on the screen (`full-screen`, `slide-over`, `split-view`, `split-view-wide`, `split-view-half`); absent: full screen.
    public var mode: WindowMode?
    /// The window's top left corner in screen coordinates; absent: the screen's top left.
    public var windowOrigin: Point?
    /// Where the keyboard, and so any input view, goes now: input-handling keeps its copy from
    /// `layout.changed`.
    public var keyboard: KeyboardMetrics?
    /// Why it changed: `rotation` or `resize` (`layout.changed`); absent in `layout.state`.
    public var reason: String?
    /// A layout from its parts.
    public init(
        orientation: Orientation, widthClass: SizeClass, window: Size, elements: [LayoutElement],
        mode: WindowMode? = nil, windowOrigin: Point? = nil, keyboard: KeyboardMetrics? = nil, reason: String? = nil
    ) {
        self.orientation = orientation; self.widthClass = widthClass; self.window = window; self.elements = elements
        self.mode = mode; self.windowOrigin = windowOrigin; self.keyboard = keyboard; self.reason = reason
    }
}

extension DeviceLayout: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: DeviceLayout { DeviceLayout(orientation: .portrait, widthClass: .regular, window: .placeholder, elements: []) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("orientation", &orientation)
        try fields.field("widthClass", &widthClass)
        try fields.field("window", &window)
        try fields.field("elements", &elements)
        try fields.field("mode", &mode)
        try fields.field("windowOrigin", &windowOrigin)
        try fields.field("keyboard", &keyboard)
        try fields.field("reason", &reason)
    }
}

/// `layout.state`: what presentation-policy knows of a device (the answer to `device.describe`).
public struct DeviceState: Sendable, Equatable {
    /// The hardware the device was first described with (its starting orientation and width too).
    public var profile: DeviceProfile
    /// The window as it is now: orientation, width class, size and elements.
    public var layout: DeviceLayout
    /// The popover or alert on screen, if any.
    public var presentation: Presentation?
    /// The visible popover's arrow direction, `unknown` when no popover is visible.
    public var popoverArrowDirection: ArrowDirections
    /// Elements whose user interaction is disabled.
    public var interactionDisabled: [String]
    /// A state from its parts.
    public init(
        profile: DeviceProfile, layout: DeviceLayout, presentation: Presentation?,
        popoverArrowDirection: ArrowDirections, interactionDisabled: [String]
    ) {
        self.profile = profile; self.layout = layout; self.presentation = presentation
        self.popoverArrowDirection = popoverArrowDirection; self.interactionDisabled = interactionDisabled
    }
}

extension DeviceState: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: DeviceState { DeviceState(profile: .placeholder, layout: .placeholder, presentation: nil, popoverArrowDirection: .unknown, interactionDisabled: []) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("profile", &profile)
        try fields.field("layout", &layout)
        try fields.field("presentation", &presentation)
        try fields.field("popoverArrowDirection", &popoverArrowDirection)
        try fields.field("interactionDisabled", &interactionDisabled)
    }
}
