/// The user interface idiom (`UIUserInterfaceIdiom`).
public enum Idiom: String, FieldCase, Sendable, CaseIterable {
    case pad, phone
}

/// The interface orientation.
public enum Orientation: String, FieldCase, Sendable, CaseIterable {
    case portrait, landscape
}

/// The horizontal size class of the app's window (`UIUserInterfaceSizeClass`).
public enum SizeClass: String, FieldCase, Sendable, CaseIterable {
    /// Full screen on an iPad, or the wide side of Split View.
    case regular
    /// An iPhone, Slide Over, or the narrow side of Split View.
    case compact
}

/// Where an app's window is on the screen (iPad multitasking). The keyboard, and so any input
/// view, spans the whole screen whatever the window's place.
public enum WindowMode: String, FieldCase, CaseIterable, Sendable {
    /// The whole screen (regular width on an iPad).
    case fullScreen = "full-screen"
    /// Slide Over: a compact 320 pt window floating at the screen's right edge.
    case slideOver = "slide-over"
    /// The narrow side of Split View: a compact 320 pt window at the screen's left edge, another app to its right.
    case splitView = "split-view"
    /// The wide side of Split View (about 2/3 of the screen) at the screen's left edge: regular
    /// in landscape, compact in portrait (docs/multitasking.md).
    case splitViewWide = "split-view-wide"
    /// Half of the screen in Split View, at its left edge: compact; in portrait, where Split View
    /// has no half, the window is the wide side until turned back (docs/multitasking.md).
    case splitViewHalf = "split-view-half"

    /// The width class a `device.resize` to this mode carries: the wide and half sides' in
    /// landscape. Theirs depends on the screen and orientation: presentation-policy gives the
    /// window the one Apple's multitasking tables give (`SplitView`).
    public var widthClass: SizeClass { self == .fullScreen || self == .splitViewWide ? .regular : .compact }

    /// Whether the window's width class comes from the screen and orientation (the wide and half
    /// sides of Split View), not from the mode alone.
    public var sizedBySplitView: Bool { self == .splitViewWide || self == .splitViewHalf }
}

/// An OS version such as `17.0` or `3.1.3`, compared numerically.
public struct OSVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The dotted components, e.g. `[3, 2]`.
    public var components: [Int]

    /// Parses `17.0`, `3.2`, `3.1.3`; `nil` for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        components = parts.map { $0! }
    }

    /// The first OS with `UIPopoverController`.
    public static let firstWithPopovers = OSVersion("3.2")!

    /// The version as dotted text (`3.1.3`), which is also its JSON form.
    public var description: String { components.map(String.init).joined(separator: ".") }

    /// Orders versions component by component, a missing component counting as 0 (`3.1.3` < `3.2`).
    public static func < (lhs: OSVersion, rhs: OSVersion) -> Bool {
        let count = max(lhs.components.count, rhs.components.count)
        for index in 0..<count {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right }
        }
        return false
    }
}

extension OSVersion: FieldValue {
    /// The version zero: what a profile being read starts from.
    public static let placeholder = OSVersion("0")!

    /// Reads a version from its wire form, a dotted string such as `"3.1.3"`; other text is refused.
    public static func read<Reader: ValueReader>(from reader: inout Reader) throws(Reader.Failure) -> OSVersion {
        let text = try reader.readString()
        guard let version = OSVersion(text) else { throw reader.invalid("bad OS version '\(text.prefix(40))'") }
        return version
    }

    /// Writes the version as its wire form, the dotted string (`"17.0"`).
    public func write<Writer: ValueWriter>(to writer: inout Writer) throws(Writer.Failure) {
        writer.writeString(description)
    }
}

/// Everything that describes a simulated device when it first appears.
public struct DeviceProfile: Sendable, Hashable {
    /// iPad or iPhone.
    public var idiom: Idiom
    /// The screen in portrait, in points (width < height).
    public var screen: Size
    /// The OS version; popovers exist from 3.2.
    public var os: OSVersion
    /// The orientation the device starts in.
    public var orientation: Orientation
    /// The window's horizontal size class it starts in (multitasking width).
    public var widthClass: SizeClass

    /// A profile from its parts.
    public init(idiom: Idiom, screen: Size, os: OSVersion, orientation: Orientation, widthClass: SizeClass) {
        self.idiom = idiom
        self.screen = screen
        self.os = os
        self.orientation = orientation
        self.widthClass = widthClass
    }

    /// iPad, 768×1024 pt, portrait, full screen (regular width), iOS 17.
    public static let ipad = DeviceProfile(
        idiom: .pad, screen: Size(width: 768, height: 1024), os: OSVersion("17.0")!,
        orientation: .portrait, widthClass: .regular)

    /// iPhone, 375×667 pt, portrait, compact width, iOS 17.
    public static let iphone = DeviceProfile(
        idiom: .phone, screen: Size(width: 375, height: 667), os: OSVersion("17.0")!,
        orientation: .portrait, widthClass: .compact)

    /// The first iPad, on iPhone OS 3.1.3: before `UIPopoverController` existed.
    public static let ipadLegacy = DeviceProfile(
        idiom: .pad, screen: Size(width: 768, height: 1024), os: OSVersion("3.1.3")!,
        orientation: .portrait, widthClass: .regular)

    /// The built-in profiles by name.
    public static let builtIn: [String: DeviceProfile] = [
        "ipad": .ipad, "iphone": .iphone, "ipad-legacy": .ipadLegacy,
    ]

    /// Problems that make this profile unusable, empty when it is fine.
    public var problems: [String] {
        var problems: [String] = []
        if !(screen.width >= 1 && screen.height >= 1 && screen.width <= 4096 && screen.height <= 4096) {
            problems.append("screen must be between 1 and 4096 points on each side")
        }
        return problems
    }
}

extension DeviceProfile: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: DeviceProfile { DeviceProfile(idiom: .pad, screen: .placeholder, os: .placeholder, orientation: .portrait, widthClass: .regular) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("idiom", &idiom)
        try fields.field("screen", &screen)
        try fields.field("os", &os)
        try fields.field("orientation", &orientation)
        try fields.field("widthClass", &widthClass)
    }
}
