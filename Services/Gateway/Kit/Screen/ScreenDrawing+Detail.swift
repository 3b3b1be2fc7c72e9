import Domain

/// The detail pane's contents: the monster's name and description, its icon, its weapon, the notes.
extension ScreenDrawing {
    /// A label: the monster's name (in its colour) or description, or the label's own title.
    mutating func drawLabel(_ element: LayoutElement) {
        let box = element.frame
        switch element.name {
        case "name":
            guard let monster else { return }
            let size = min(30, box.height * 0.75)
            let shown = TextMetrics.truncated(monster.name, size: size, width: box.width, bold: true)
            text(shown, x: box.minX, y: TextMetrics.baseline(centredOn: box.midY, size: size), size: size,
                 color: ScreenTheme.color(monster.color), weight: "700", [("data-color", monster.color.rawValue)])
        case "description":
            guard let monster else { return }
            let size = min(18, box.height * 0.6)
            let shown = TextMetrics.truncated(monster.description, size: size, width: box.width)
            text(shown, x: box.minX, y: TextMetrics.baseline(centredOn: box.midY, size: size), size: size,
                 color: ScreenTheme.secondaryLabel)
        default:
            let size = min(17, box.height * 0.8)
            let shown = TextMetrics.truncated(element.title ?? "", size: size, width: box.width, bold: true)
            text(shown, x: box.minX, y: TextMetrics.baseline(centredOn: box.midY, size: size), size: size,
                 color: ScreenTheme.label, weight: "600")
        }
    }

    /// The monster's icon: a placeholder picture labelled with its file name.
    mutating func drawIcon(_ box: Rect) {
        drawImagePlaceholder(box, title: nil, file: monster?.icon)
    }

    /// The weapon image: a placeholder labelled with the weapon and its file, ringed in the tint
    /// while it is first responder (its input view is up).
    mutating func drawWeaponImage(_ box: Rect) {
        drawImagePlaceholder(box, title: monster?.weapon.name, file: monster?.weaponImage)
        if input?.firstResponder == "weapon" {
            svg.empty("rect", frame(Rect(x: box.minX - 3, y: box.minY - 3, width: box.width + 6, height: box.height + 6)) + [
                ("rx", "12"), ("fill", "none"), ("stroke", ScreenTheme.tint), ("stroke-width", "2"), ("class", "focus-ring"),
            ])
        }
    }

    /// A picture that is not drawn: a rounded box with a landscape pictogram, `title` and `file`
    /// (a question mark when neither is known).
    mutating func drawImagePlaceholder(_ box: Rect, title: String?, file: String?) {
        let radius = min(10, box.width / 6, box.height / 6)
        svg.empty("rect", frame(box) + [
            ("rx", n(radius)), ("fill", ScreenTheme.Image.fill), ("stroke", ScreenTheme.Image.stroke),
            ("stroke-width", "1"), ("stroke-dasharray", "4 3"), ("class", "placeholder"), ("data-file", file),
        ])
        let lines = [title, file].compactMap { $0 }
        if lines.isEmpty {
            centredText("?", in: box, size: min(24, box.height / 2), color: ScreenTheme.tertiaryLabel)
            return
        }
        // The pictogram takes the upper part of the box, the labels the lower part.
        let labelHeight = Double(lines.count) * 13 + 6
        let glyphBox = Rect(x: box.minX, y: box.minY + 6, width: box.width, height: max(0, box.height - labelHeight - 6))
        if glyphBox.height >= 22 {
            drawPictogram(in: glyphBox)
        }
        var y = box.maxY - labelHeight + 3
        if let title {
            centredText(title, in: Rect(x: box.minX, y: y, width: box.width, height: 13), size: 11, minimum: 7,
                        color: ScreenTheme.secondaryLabel, weight: "600", inset: 3, [("class", "image-title")])
            y += 13
        }
        if let file {
            centredText(file, in: Rect(x: box.minX, y: y, width: box.width, height: 13), size: 10, minimum: 6.5,
                        color: ScreenTheme.tertiaryLabel, inset: 3, [("class", "image-file")])
        }
    }

    /// A small "picture" glyph: a frame with a sun and two hills, centred in `box`.
    mutating func drawPictogram(in box: Rect) {
        let side = min(box.width * 0.55, box.height * 0.9, 46)
        let width = side * 1.25
        let origin = Point(x: box.midX - width / 2, y: box.midY - side / 2)
        let glyph = Rect(x: origin.x, y: origin.y, width: width, height: side)
        let sun = Point(x: glyph.minX + width * 0.72, y: glyph.minY + side * 0.3)
        let hills = "M\(n(glyph.minX)) \(n(glyph.maxY))"
            + "L\(n(glyph.minX + width * 0.35)) \(n(glyph.minY + side * 0.45))"
            + "L\(n(glyph.minX + width * 0.58)) \(n(glyph.minY + side * 0.72))"
            + "L\(n(glyph.minX + width * 0.72)) \(n(glyph.minY + side * 0.58))"
            + "L\(n(glyph.maxX)) \(n(glyph.maxY))Z"
        svg.open("g", [("class", "pictogram")])
        svg.empty("rect", frame(glyph) + [
            ("rx", n(side * 0.12)), ("fill", "none"), ("stroke", ScreenTheme.Image.glyph), ("stroke-width", "1.5"),
        ])
        svg.empty("circle", [("cx", n(sun.x)), ("cy", n(sun.y)), ("r", n(side * 0.1)), ("fill", ScreenTheme.Image.glyph)])
        svg.empty("path", [("d", hills), ("fill", ScreenTheme.Image.glyph)])
        svg.close()
    }

    /// A rounded-rect text field with its placeholder, and a caret while it is first responder.
    mutating func drawTextField(_ element: LayoutElement) {
        let box = element.frame
        svg.empty("rect", frame(box) + [
            ("rx", "5"), ("fill", ScreenTheme.background), ("stroke", ScreenTheme.separator), ("stroke-width", "1"),
        ])
        let size = min(17, box.height * 0.6)
        let focused = input?.firstResponder == element.name
        if focused {
            fill(Rect(x: box.minX + 7, y: box.midY - size * 0.6, width: 2, height: size * 1.2), ScreenTheme.tint,
                 [("class", "caret")])
        }
        if let placeholder = element.title {
            let shown = TextMetrics.truncated(placeholder, size: size, width: max(0, box.width - 20))
            text(shown, x: box.minX + (focused ? 11 : 8), y: TextMetrics.baseline(centredOn: box.midY, size: size),
                 size: size, color: ScreenTheme.placeholder, [("class", "placeholder-text")])
        }
    }
}
