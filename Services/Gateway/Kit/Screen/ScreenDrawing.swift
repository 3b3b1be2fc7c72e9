import Domain

/// One drawing of a screen in progress: the state drawn and the SVG written so far.
struct ScreenDrawing {
    let device: DeviceState
    let input: InputState?
    let roster: RosterSnapshot?
    let deviceName: String
    /// The window's size, at least one point each way.
    let window: Size
    /// The monster the detail pane shows.
    let monster: Monster?
    /// Names of the elements whose user interaction is off.
    let disabled: Set<String>
    var svg = SVGBuilder()
    /// Ids given out so far, so that every id in the document is unique.
    var usedIDs: Set<String> = []

    /// Ids the drawing itself uses; layout elements never take these.
    static let reservedIDs: Set<String> = [
        "screen", "bezel", "other-app", "window", "window-clip", "window-background", "popover", "popover-shadow",
        "popover-clip", "popover-body", "alert", "alert-body", "alert-message", "dimming",
        "input-view", "input-view-background", "keyboard", "weapon-picker", "keyboard-window", "alert-window", "screen-clip",
    ]

    init(device: DeviceState, input: InputState?, roster: RosterSnapshot?, deviceName: String) {
        self.device = device
        self.input = input
        self.roster = roster
        self.deviceName = deviceName
        let size = device.layout.window
        window = Size(
            width: size.width.isFinite ? max(1, size.width) : 1,
            height: size.height.isFinite ? max(1, size.height) : 1)
        if let roster {
            monster = roster.monsters.first { $0.name == roster.selected } ?? roster.monsters.first
        } else {
            monster = nil
        }
        disabled = Set(device.interactionDisabled)
        usedIDs = Self.reservedIDs
    }

    /// The device's screen in the current orientation, at least as large as the window.
    var screen: Size {
        let portrait = device.profile.screen
        let turned = device.layout.orientation == .portrait
            ? portrait : Size(width: portrait.height, height: portrait.width)
        return Size(
            width: turned.width.isFinite ? max(window.width, turned.width) : window.width,
            height: turned.height.isFinite ? max(window.height, turned.height) : window.height)
    }

    /// The whole document.
    mutating func render() -> String {
        let bezel = ScreenTheme.Bezel.width
        let screen = screen
        // A window narrower than the screen: where the model says (Slide Over at the right edge,
        // Split View at the left); a model that does not say gets Slide Over's place.
        let origin = device.layout.windowOrigin ?? Point(x: screen.width - window.width, y: screen.height - window.height)
        let translate = origin.x != 0 || origin.y != 0 ? "translate(\(n(origin.x)) \(n(origin.y)))" : nil
        let outer = Size(width: screen.width + 2 * bezel, height: screen.height + 2 * bezel)
        let layout = device.layout
        svg.open("svg", [
            ("xmlns", "http://www.w3.org/2000/svg"),
            ("id", "screen"),
            ("width", n(outer.width)), ("height", n(outer.height)),
            ("viewBox", [n(-bezel), n(-bezel), n(outer.width), n(outer.height)].joined(separator: " ")),
            ("font-family", ScreenTheme.fontFamily),
            ("data-device", deviceName),
            ("data-idiom", device.profile.idiom.rawValue),
            ("data-os", device.profile.os.description),
            ("data-orientation", layout.orientation.rawValue),
            ("data-width-class", layout.widthClass.rawValue),
        ])
        svg.element("title", [], text: "\(deviceName) — \(device.profile.idiom == .pad ? "iPad" : "iPhone") "
            + "\(device.profile.os), \(layout.orientation.rawValue), \(layout.widthClass.rawValue) width, "
            + "window \(n(window.width))×\(n(window.height)) pt")
        svg.open("defs")
        svg.open("clipPath", [("id", "window-clip")])
        svg.empty("rect", [("x", "0"), ("y", "0"), ("width", n(window.width)), ("height", n(window.height))])
        svg.close()
        // The keyboard's window spans the screen: its clip, in window coordinates.
        svg.open("clipPath", [("id", "screen-clip")])
        svg.empty("rect", [("x", n(-origin.x)), ("y", n(-origin.y)), ("width", n(screen.width)), ("height", n(screen.height))])
        svg.close()
        svg.open("filter", [("id", "popover-shadow"), ("x", "-30%"), ("y", "-30%"), ("width", "160%"), ("height", "160%")])
        svg.empty("feGaussianBlur", [("in", "SourceAlpha"), ("stdDeviation", "9")])
        svg.empty("feOffset", [("dy", "4"), ("result", "blur")])
        svg.open("feComponentTransfer", [("result", "shadow")])
        svg.empty("feFuncA", [("type", "linear"), ("slope", "0.22")])
        svg.close()
        svg.open("feMerge")
        svg.empty("feMergeNode", [("in", "shadow")])
        svg.empty("feMergeNode", [("in", "SourceGraphic")])
        svg.close()
        svg.close()
        svg.close()

        svg.empty("rect", [
            ("id", "bezel"), ("x", n(-bezel)), ("y", n(-bezel)), ("width", n(outer.width)), ("height", n(outer.height)),
            ("rx", n(ScreenTheme.Bezel.radius)), ("fill", ScreenTheme.Bezel.color),
        ])
        if window.width < screen.width || window.height < screen.height {
            drawOtherApp(screen: screen, origin: origin)
        }
        svg.open("g", [
            ("id", "window"),
            ("transform", translate),
            ("clip-path", "url(#window-clip)"),
            ("data-x", n(origin.x)), ("data-y", n(origin.y)),
            ("data-width", n(window.width)), ("data-height", n(window.height)),
        ])
        // The window shows through only in the split view's one-point gap: the divider.
        svg.empty("rect", [
            ("id", "window-background"), ("x", "0"), ("y", "0"),
            ("width", n(window.width)), ("height", n(window.height)), ("fill", ScreenTheme.separator),
        ])
        for element in layout.elements {
            drawElement(element)
        }
        // The keyboard's window is above the app's popovers and spans the whole screen (also in
        // Slide Over and Split View); an alert dims the app's window above both.
        if let presentation = device.presentation, presentation.style == .popover {
            drawPopover(presentation)
        }
        svg.close()
        if let view = input?.input {
            svg.open("g", [("id", "keyboard-window"), ("transform", translate), ("clip-path", "url(#screen-clip)")])
            drawInputView(view)
            svg.close()
        }
        if let presentation = device.presentation, presentation.style == .alert {
            svg.open("g", [("id", "alert-window"), ("transform", translate), ("clip-path", "url(#window-clip)")])
            drawAlert(presentation)
            svg.close()
        }
        return svg.finish()
    }

    /// The part of the screen the app's window leaves to another app: a plain grey area, left of
    /// a window at the right edge (Slide Over), right of one at the left edge (Split View).
    mutating func drawOtherApp(screen: Size, origin: Point) {
        svg.open("g", [("id", "other-app")])
        fill(Rect(x: 0, y: 0, width: screen.width, height: screen.height), ScreenTheme.Image.fill)
        let free = origin.x > 0
            ? Rect(x: 0, y: 0, width: origin.x, height: screen.height)
            : Rect(x: origin.x + window.width, y: 0, width: max(0, screen.width - origin.x - window.width), height: screen.height)
        centredText("another app", in: free, size: 15, minimum: 9, color: ScreenTheme.tertiaryLabel)
        let edge = origin.x > 0 ? free.maxX - 1 : free.minX
        fill(Rect(x: edge, y: free.minY, width: 1, height: free.height), ScreenTheme.barHairline)
        svg.close()
    }

    // MARK: Helpers shared by the drawing files

    /// `value` as an SVG number.
    func n(_ value: Double) -> String { SVGBuilder.number(value) }

    /// An id for the layout element `name`: the name made into a token (`row:Cat-Bot` →
    /// `row-Cat-Bot`), or `nil` when that token is taken or empty.
    mutating func uniqueID(for name: String) -> String? {
        var token = ""
        for scalar in name.unicodeScalars {
            let ascii = scalar.isASCII ? Character(scalar) : "-"
            token.append(ascii.isLetter || ascii.isNumber || ascii == "-" || ascii == "_" ? ascii : "-")
        }
        guard let first = token.first, first.isLetter, !usedIDs.contains(token) else { return nil }
        usedIDs.insert(token)
        return token
    }

    /// The rectangle attributes of `rect`.
    func frame(_ rect: Rect) -> [SVGBuilder.Attribute] {
        [("x", n(rect.x)), ("y", n(rect.y)), ("width", n(max(0, rect.width))), ("height", n(max(0, rect.height)))]
    }

    /// A filled rectangle, with `extra` attributes.
    mutating func fill(_ rect: Rect, _ color: String, radius: Double = 0, _ extra: [SVGBuilder.Attribute] = []) {
        svg.empty("rect", frame(rect) + [("rx", radius > 0 ? n(radius) : nil), ("fill", color)] + extra)
    }

    /// One line of text at `x` with its baseline at `y`.
    mutating func text(
        _ content: String, x: Double, y: Double, size: Double, color: String,
        weight: String? = nil, anchor: String? = nil, _ extra: [SVGBuilder.Attribute] = []
    ) {
        svg.element("text", [
            ("x", n(x)), ("y", n(y)), ("font-size", n(size)), ("font-weight", weight),
            ("fill", color), ("text-anchor", anchor),
        ] + extra, text: content)
    }

    /// One line of text centred in `rect`, shrunk (down to `minimum`) or cut short to fit its width.
    mutating func centredText(
        _ content: String, in rect: Rect, size: Double, minimum: Double? = nil, color: String,
        weight: String? = nil, inset: Double = 4, _ extra: [SVGBuilder.Attribute] = []
    ) {
        let bold = weight != nil
        let room = max(0, rect.width - 2 * inset)
        let fitted = minimum.map { TextMetrics.fittingSize(content, size: size, minimum: $0, width: room, bold: bold) } ?? size
        let shown = TextMetrics.truncated(content, size: fitted, width: room, bold: bold)
        text(shown, x: rect.midX, y: TextMetrics.baseline(centredOn: rect.midY, size: fitted), size: fitted,
             color: color, weight: weight, anchor: "middle", extra)
    }
}
