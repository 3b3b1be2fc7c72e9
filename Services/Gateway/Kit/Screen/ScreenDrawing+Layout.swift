import Domain

/// The window's layout elements: status bar, navigation bars and their buttons, panes and rows.
extension ScreenDrawing {
    /// The CSS class a layout element's `kind` is drawn under.
    static func cssClass(kind: ElementKind) -> String {
        switch kind {
        case .barButton: "bar-button"
        case .bar: "bar"
        case .pane: "pane"
        case .row: "row"
        case .label: "label"
        case .image: "image"
        case .textField: "text-field"
        }
    }

    /// One element of the layout, in a group that names it; greyed when its interaction is off.
    mutating func drawElement(_ element: LayoutElement) {
        let isDisabled = disabled.contains(element.name)
        let isSelectedRow = element.kind == .row && monster != nil && element.title == monster?.name
        var classes = [Self.cssClass(kind: element.kind)]
        if isDisabled { classes.append("disabled") }
        if isSelectedRow { classes.append("selected") }
        if input?.firstResponder == element.name { classes.append("first-responder") }
        svg.open("g", [
            ("id", uniqueID(for: element.name)),
            ("class", classes.joined(separator: " ")),
            ("data-name", element.name),
            ("data-kind", element.kind.rawValue),
            ("data-title", element.title),
            // Bar buttons grey their title instead; anything else fades.
            ("opacity", isDisabled && element.kind != .barButton ? "0.4" : nil),
        ])
        switch (element.kind, element.name) {
        case (.bar, ElementName.statusBar.rawValue): drawStatusBar(element.frame)
        case (.bar, _): drawNavigationBar(element)
        case (.pane, _): fill(element.frame, ScreenTheme.background)
        case (.row, _): drawRow(element, selected: isSelectedRow)
        case (.barButton, _): drawBarButton(element, disabled: isDisabled)
        case (.label, _): drawLabel(element)
        case (.image, ElementName.icon.rawValue): drawIcon(element.frame)
        case (.image, ElementName.weapon.rawValue): drawWeaponImage(element.frame)
        case (.image, _): drawImagePlaceholder(element.frame, title: element.title ?? element.name, file: nil)
        case (.textField, _): drawTextField(element)
        }
        svg.close()
    }

    /// The status bar: the device's name where the carrier goes, the time, the battery.
    mutating func drawStatusBar(_ bar: Rect) {
        fill(bar, ScreenTheme.barBackground)
        let size = 12.0
        let baseline = TextMetrics.baseline(centredOn: bar.midY, size: size)
        let name = TextMetrics.truncated(deviceName, size: size, width: max(0, bar.width / 2 - 50), bold: true)
        text(name, x: bar.minX + 6, y: baseline, size: size, color: ScreenTheme.label, weight: "600", [("class", "device-name")])
        text(ScreenTheme.statusBarTime, x: bar.midX, y: baseline, size: size, color: ScreenTheme.label,
             weight: "600", anchor: "middle", [("class", "time")])
        // A full battery: body, fill and nub.
        let body = Rect(x: bar.maxX - 33, y: bar.midY - 5.5, width: 24, height: 11)
        svg.empty("rect", frame(body) + [
            ("rx", "3"), ("fill", "none"), ("stroke", ScreenTheme.label), ("stroke-opacity", "0.4"), ("stroke-width", "1"),
        ])
        fill(Rect(x: body.minX + 2, y: body.minY + 2, width: body.width - 4, height: body.height - 4), ScreenTheme.label, radius: 1.5)
        fill(Rect(x: body.maxX + 1, y: body.midY - 2, width: 1.5, height: 4), ScreenTheme.label, radius: 0.75, [("fill-opacity", "0.4")])
        text("100%", x: body.minX - 4, y: baseline, size: size, color: ScreenTheme.label, anchor: "end")
    }

    /// A navigation bar: its background, the hairline under it and its title if it has one.
    mutating func drawNavigationBar(_ element: LayoutElement) {
        let bar = element.frame
        fill(bar, ScreenTheme.barBackground)
        fill(Rect(x: bar.minX, y: bar.maxY - 1, width: bar.width, height: 1), ScreenTheme.barHairline)
        if let title = element.title {
            centredText(title, in: bar, size: 17, color: ScreenTheme.label, weight: "600", inset: 12, [("class", "bar-title")])
        }
    }

    /// A bar button: its title in the tint (grey when disabled); `+` is drawn as a large glyph.
    mutating func drawBarButton(_ element: LayoutElement, disabled isDisabled: Bool) {
        let color = isDisabled ? ScreenTheme.disabled : ScreenTheme.tint
        let title = element.title ?? element.name
        if title == "+" {
            // A plus sign of two strokes, as UIBarButtonSystemItemAdd draws it.
            let center = Point(x: element.frame.midX, y: element.frame.midY)
            let arm = min(10, element.frame.width / 3, element.frame.height / 3)
            svg.empty("path", [
                ("d", "M\(n(center.x - arm)) \(n(center.y))H\(n(center.x + arm))M\(n(center.x)) \(n(center.y - arm))V\(n(center.y + arm))"),
                ("stroke", color), ("stroke-width", "2"), ("stroke-linecap", "round"), ("fill", "none"), ("class", "plus"),
            ])
        } else {
            centredText(title, in: element.frame, size: 17, minimum: 12, color: color, inset: 2, [("class", "title")])
        }
    }

    /// A row of the roster: its title, a separator, and the tint behind it when it is selected.
    mutating func drawRow(_ element: LayoutElement, selected: Bool) {
        let row = element.frame
        let inset = device.profile.idiom == .pad ? 20.0 : 16.0
        fill(row, selected ? ScreenTheme.tint : ScreenTheme.background)
        if !selected {
            fill(Rect(x: row.minX + inset, y: row.maxY - 1, width: max(0, row.width - inset), height: 1), ScreenTheme.separator)
        }
        let title = TextMetrics.truncated(element.title ?? element.name, size: 17, width: max(0, row.width - 2 * inset))
        text(title, x: row.minX + inset, y: TextMetrics.baseline(centredOn: row.midY, size: 17), size: 17,
             color: selected ? "#FFFFFF" : ScreenTheme.label, [("class", "title")])
    }
}
