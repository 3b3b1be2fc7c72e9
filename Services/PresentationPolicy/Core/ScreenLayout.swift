import Domain

/// Where everything is on a device's window, in points, for one orientation and width class.
///
/// iPad, regular width: a split view. In landscape the roster (master, 320 pt) is on the left
/// and the detail pane beside it; in portrait the master is hidden and the detail pane's
/// navigation bar has a "Monster List" button on the left. Compact width (iPhone, Slide Over):
/// the split view is collapsed to the detail pane, with no "Monster List" button.
/// The detail pane's navigation bar has `+` on the right and "Choose Color" to its left.
public struct ScreenLayout: Sendable, Equatable {
    /// The status bar's height at the top of every window, in points.
    public static let statusBarHeight = 20.0
    /// The height of the navigation bars, and so of their bar buttons, in points.
    public static let navigationBarHeight = 44.0
    /// The roster pane's width on a regular-width iPad in landscape, in points.
    public static let masterWidth = 320.0
    /// An iPad window's width when it is compact (Slide Over), in points.
    public static let slideOverWidth = 320.0
    /// The gap between bar buttons, and between the outer ones and the bar's ends, in points.
    public static let barButtonSpacing = 8.0

    /// The window's size.
    public let window: Size
    /// The elements, containers before what they contain (so the last hit is the topmost).
    public let elements: [LayoutElement]
    /// The keyboard (and so any input view) in this layout.
    public let keyboard: KeyboardMetrics
    /// The orientation this layout is for.
    public let orientation: Orientation
    /// The window's width class this layout is for.
    public let widthClass: SizeClass
    /// Where the window is on the screen.
    public let mode: WindowMode
    /// The window's top left corner in screen coordinates.
    public let windowOrigin: Point
    /// The screen in the current orientation.
    public let screen: Size

    /// Every element name any layout can have, for telling "not here now" from "never exists".
    public static let allElementNames: Set<String> = Set(
        ElementName.allCases.filter { $0 != .outside }.map(\.rawValue) + Catalogue.names.map { ElementName.rowPrefix + $0 })

    /// The layout of a device with `profile`, turned to `orientation`, with a window of `widthClass`
    /// placed by `mode` (by default: Slide Over for a compact iPad window, else full screen; the
    /// wide and half sides of Split View as wide as `SplitView` says).
    public init(profile: DeviceProfile, orientation: Orientation, widthClass: SizeClass, mode: WindowMode? = nil) {
        self.orientation = orientation
        self.widthClass = widthClass
        let screen = orientation == .portrait
            ? profile.screen
            : Size(width: profile.screen.height, height: profile.screen.width)
        self.screen = screen
        let narrow = widthClass == .compact && profile.idiom == .pad
        // The wide and half sides of Split View have their own widths (`SplitView`); the caller
        // gives the width class the table gives them.
        let splitSide = profile.idiom == .pad ? mode.flatMap { SplitView.window($0, screenWidth: screen.width, orientation: orientation) } : nil
        let mode = if splitSide != nil, let mode { mode } else if narrow { mode == .splitView ? WindowMode.splitView : .slideOver } else { WindowMode.fullScreen }
        self.mode = mode
        let windowWidth = splitSide?.width ?? (narrow ? min(Self.slideOverWidth, screen.width) : screen.width)
        window = Size(width: windowWidth, height: screen.height)
        windowOrigin = Point(x: mode == .slideOver ? screen.width - windowWidth : 0, y: 0)
        // The keyboard spans the whole screen, not the window (seed 002): in window coordinates
        // it starts at the screen's left edge.
        keyboard = KeyboardMetrics(
            width: screen.width,
            systemHeight: Self.systemKeyboardHeight(idiom: profile.idiom, orientation: orientation),
            windowHeight: window.height, left: -windowOrigin.x)

        let split = profile.idiom == .pad && widthClass == .regular && profile.os >= OSVersion.firstWithPopovers
        let showsMaster = split && orientation == .landscape
        var elements = [LayoutElement(
            name: "status-bar", kind: .bar, frame: Rect(x: 0, y: 0, width: window.width, height: Self.statusBarHeight))]
        let top = Self.statusBarHeight + Self.navigationBarHeight
        if showsMaster {
            elements.append(LayoutElement(
                name: "master", kind: .pane, frame: Rect(x: 0, y: Self.statusBarHeight, width: Self.masterWidth, height: window.height - Self.statusBarHeight)))
            elements.append(LayoutElement(
                name: "master-navigation-bar", kind: .bar, title: "Monsters",
                frame: Rect(x: 0, y: Self.statusBarHeight, width: Self.masterWidth, height: Self.navigationBarHeight)))
            for (index, name) in Catalogue.names.enumerated() {
                elements.append(LayoutElement(
                    name: "row:" + name, kind: .row, title: name,
                    frame: Rect(x: 0, y: top + Double(index) * 44, width: Self.masterWidth, height: 44)))
            }
        }
        let detailX = showsMaster ? Self.masterWidth + 1 : 0
        let detailWidth = window.width - detailX
        elements.append(LayoutElement(
            name: "detail", kind: .pane, frame: Rect(x: detailX, y: Self.statusBarHeight, width: detailWidth, height: window.height - Self.statusBarHeight)))
        elements.append(LayoutElement(
            name: "navigation-bar", kind: .bar,
            frame: Rect(x: detailX, y: Self.statusBarHeight, width: detailWidth, height: Self.navigationBarHeight)))
        let add = Rect(x: window.width - Self.barButtonSpacing - 44, y: Self.statusBarHeight, width: 44, height: Self.navigationBarHeight)
        let color = Rect(x: add.minX - Self.barButtonSpacing - 110, y: Self.statusBarHeight, width: 110, height: Self.navigationBarHeight)
        if split && orientation == .portrait {
            elements.append(LayoutElement(
                name: "monster-list", kind: .barButton, title: "Monster List",
                frame: Rect(x: detailX + Self.barButtonSpacing, y: Self.statusBarHeight, width: 110, height: Self.navigationBarHeight)))
        }
        elements.append(LayoutElement(name: "color", kind: .barButton, title: "Choose Color", frame: color))
        elements.append(LayoutElement(name: "add", kind: .barButton, title: "+", frame: add))
        // The detail pane: name, description and icon in a column; the weapon and the notes
        // field under them, or beside them in a second column when the window is too short.
        let left = detailX + 20
        let short = window.height < 500
        let textWidth = min(detailWidth - 40, short ? 280 : 400)
        elements.append(LayoutElement(name: "name", kind: .label, frame: Rect(x: left, y: top + 20, width: textWidth, height: 40)))
        elements.append(LayoutElement(name: "description", kind: .label, frame: Rect(x: left, y: top + 66, width: textWidth, height: 30)))
        elements.append(LayoutElement(name: "icon", kind: .image, frame: Rect(x: left, y: top + 106, width: 95, height: 95)))
        let weaponX = short ? left + 300 : left
        let weaponTop = short ? top + 20 : top + 221
        elements.append(LayoutElement(
            name: "weapon-label", kind: .label, title: "Preferred way to kill",
            frame: Rect(x: weaponX, y: weaponTop, width: 200, height: 21)))
        elements.append(LayoutElement(name: "weapon", kind: .image, frame: Rect(x: weaponX, y: weaponTop + 30, width: 70, height: 70)))
        elements.append(LayoutElement(
            name: "notes", kind: .textField, title: "Notes",
            frame: Rect(x: weaponX, y: weaponTop + 120, width: min(window.width - weaponX - 20, 300), height: 31)))
        self.elements = elements
    }

    /// The element called `name`, if this layout has it.
    public func element(_ name: String) -> LayoutElement? {
        elements.first { $0.name == name }
    }

    /// The window's bounds, in window coordinates.
    public var bounds: Rect { Rect(x: 0, y: 0, width: window.width, height: window.height) }

    /// The screen's bounds, in window coordinates.
    public var screenBounds: Rect { Rect(x: -windowOrigin.x, y: -windowOrigin.y, width: screen.width, height: screen.height) }

    /// The row of the roster list showing `monster` (by name, any case), if the list is on screen.
    public func row(named monster: String) -> LayoutElement? {
        elements.first { $0.kind == .row && $0.title?.lowercased() == monster.lowercased() }
    }

    /// The topmost element at `point`, if any.
    public func element(at point: Point) -> LayoutElement? {
        elements.last { $0.frame.contains(point) }
    }

    /// The names of the navigation bar and its buttons: a bar-button popover's passthrough views.
    public var navigationBarNames: [String] {
        elements.filter { $0.name == "navigation-bar" || $0.kind == .barButton }.map(\.name)
    }

    /// The layout as a message body, with its keyboard, changed because of `reason` if given.
    public func message(reason: ChangeReason? = nil) -> DeviceLayout {
        DeviceLayout(
            orientation: orientation, widthClass: widthClass, window: window, elements: elements,
            mode: mode, windowOrigin: windowOrigin, keyboard: keyboard, reason: reason?.rawValue)
    }

    /// The system keyboard's height (UIKit's, for the idiom and orientation).
    static func systemKeyboardHeight(idiom: Idiom, orientation: Orientation) -> Double {
        switch (idiom, orientation) {
        case (.pad, .portrait): 264
        case (.pad, .landscape): 352
        case (.phone, .portrait): 216
        case (.phone, .landscape): 162
        }
    }
}
