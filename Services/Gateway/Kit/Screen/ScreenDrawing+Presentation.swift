import Domain

/// The presentation on top of the window: a popover with its arrow, or an alert over a dimmed screen.
extension ScreenDrawing {
    /// A popover: its body at `frame` with the arrow on the side `arrowDirection` names, reaching
    /// to `arrowTip`, and its buttons at `buttonFrames`, clipped to the body.
    mutating func drawPopover(_ popover: Presentation) {
        let body = popover.frame
        let radius = max(0, min(ScreenTheme.popoverRadius, body.width / 2, body.height / 2))
        let arrow = popover.arrowTip.flatMap { tip in Self.arrowSide(popover.arrowDirection).map { ($0, tip) } }
        svg.open("g", [
            ("id", "popover"), ("class", "popover " + popover.content.rawValue),
            ("data-content", popover.content.rawValue),
            ("data-arrow-direction", String(popover.arrowDirection.rawValue)),
            ("data-arrow-side", arrow?.0.rawValue),
            ("data-arrow-tip", arrow.map { n($0.1.x) + "," + n($0.1.y) }),
            ("data-anchor", popover.anchor?.element),
            ("data-anchor-kind", popover.anchor?.kind.rawValue),
        ])
        svg.empty("path", [
            ("id", "popover-body"), ("d", Self.popoverPath(body: body, radius: radius, arrow: arrow)),
            ("fill", ScreenTheme.background), ("stroke", ScreenTheme.popoverStroke), ("stroke-width", "0.5"),
            ("filter", "url(#popover-shadow)"),
        ])
        svg.open("clipPath", [("id", "popover-clip")])
        svg.empty("rect", frame(body) + [("rx", n(radius))])
        svg.close()
        svg.open("g", [("clip-path", "url(#popover-clip)")])
        let checked: String? = switch popover.content {
        case .color: monster?.color.title
        case .monsterList: monster?.name
        case .add: nil
        }
        for (index, title) in popover.buttons.enumerated() {
            guard index < popover.buttonFrames.count else { break }
            let box = popover.buttonFrames[index]
            switch popover.content {
            case .add: drawPopoverButton(title, in: box, index: index)
            case .color, .monsterList:
                drawPopoverRow(title, in: box, index: index, last: index == popover.buttons.count - 1,
                               swatch: popover.content == .color ? NameColor(rawValue: title.lowercased()) : nil,
                               checked: title == checked)
            }
        }
        svg.close()
        svg.close()
    }

    /// A rounded, tinted button with its title (the `+` popover's Photo and Audio).
    private mutating func drawPopoverButton(_ title: String, in box: Rect, index: Int) {
        svg.open("g", [("class", "popover-button"), ("data-index", String(index)), ("data-title", title)])
        fill(box, ScreenTheme.tintedFill, radius: min(10, box.height / 2))
        centredText(title, in: box, size: 17, minimum: 11, color: ScreenTheme.tint, weight: "500")
        svg.close()
    }

    /// A table row with its title (the colour picker's and the roster's), a colour swatch where it
    /// has one, a checkmark on the current choice and a separator under all but the last.
    private mutating func drawPopoverRow(_ title: String, in box: Rect, index: Int, last: Bool, swatch: NameColor?, checked: Bool) {
        svg.open("g", [
            ("class", checked ? "popover-button checked" : "popover-button"),
            ("data-index", String(index)), ("data-title", title),
        ])
        let inset = 16.0
        var textX = box.minX + inset
        if let swatch {
            svg.empty("circle", [
                ("cx", n(textX + 8)), ("cy", n(box.midY)), ("r", "8"), ("fill", ScreenTheme.color(swatch)),
                ("stroke", "#000000"), ("stroke-opacity", "0.15"), ("class", "swatch"),
            ])
            textX += 26
        }
        let checkWidth = checked ? 30.0 : 0
        let shown = TextMetrics.truncated(title, size: 17, width: max(0, box.maxX - inset - checkWidth - textX))
        text(shown, x: textX, y: TextMetrics.baseline(centredOn: box.midY, size: 17), size: 17,
             color: ScreenTheme.label)
        if checked {
            let x = box.maxX - inset - 14
            let y = box.midY
            svg.empty("path", [
                ("d", "M\(n(x)) \(n(y))L\(n(x + 5)) \(n(y + 5))L\(n(x + 14)) \(n(y - 6))"),
                ("fill", "none"), ("stroke", ScreenTheme.tint), ("stroke-width", "2.2"),
                ("stroke-linecap", "round"), ("stroke-linejoin", "round"), ("class", "checkmark"),
            ])
        }
        if !last {
            fill(Rect(x: box.minX + inset, y: box.maxY - 0.5, width: max(0, box.width - inset), height: 0.5), ScreenTheme.separator)
        }
        svg.close()
    }

    /// An alert: a dimming layer over the whole window, the box at `frame` with its message
    /// above the buttons, and the buttons at `buttonFrames` (the cancel button bold).
    mutating func drawAlert(_ alert: Presentation) {
        svg.empty("rect", [
            ("id", "dimming"), ("x", "0"), ("y", "0"), ("width", n(window.width)), ("height", n(window.height)),
            ("fill", ScreenTheme.Dimming.color), ("fill-opacity", n(ScreenTheme.Dimming.opacity)),
        ])
        let box = alert.frame
        svg.open("g", [
            ("id", "alert"), ("class", "alert " + alert.content.rawValue), ("data-content", alert.content.rawValue),
            ("data-cancel-button-index", alert.cancelButtonIndex.map(String.init)),
        ])
        fill(box, ScreenTheme.alertBackground, radius: ScreenTheme.alertRadius, [("id", "alert-body")])
        // The message sits above the first button.
        let buttonsTop = alert.buttonFrames.map(\.minY).min() ?? box.maxY
        let messageArea = Rect(x: box.minX, y: box.minY, width: box.width, height: max(0, min(buttonsTop, box.maxY) - box.minY))
        if let message = alert.message {
            // The alert has no title: its message is drawn as a message (13 pt, regular weight).
            let size = 13.0
            let lines = TextMetrics.wrapped(message, size: size, width: max(0, box.width - 32), bold: false)
            let lineHeight = 17.0
            let firstBaseline = TextMetrics.baseline(
                centredOn: messageArea.midY - Double(lines.count - 1) * lineHeight / 2, size: size)
            svg.open("text", [
                ("id", "alert-message"), ("class", "message"), ("x", n(box.midX)), ("y", n(firstBaseline)),
                ("font-size", n(size)), ("fill", ScreenTheme.label), ("text-anchor", "middle"),
            ])
            for (index, line) in lines.enumerated() {
                svg.element("tspan", [
                    ("x", n(box.midX)), ("y", n(firstBaseline + Double(index) * lineHeight)),
                ], text: line)
            }
            svg.close()
        }
        for (index, title) in alert.buttons.enumerated() {
            guard index < alert.buttonFrames.count else { break }
            let button = alert.buttonFrames[index]
            let isCancel = index == alert.cancelButtonIndex
            svg.open("g", [
                ("class", isCancel ? "alert-button cancel" : "alert-button"),
                ("data-index", String(index)), ("data-title", title),
            ])
            fill(Rect(x: button.minX, y: button.minY, width: button.width, height: 0.5), ScreenTheme.separator)
            centredText(title, in: button, size: 17, minimum: 12, color: ScreenTheme.tint, weight: isCancel ? "700" : nil)
            svg.close()
        }
        svg.close()
    }

    /// The side of the body an arrow sits on.
    enum ArrowSide: String {
        case top, bottom, left, right
    }

    /// The side of the body the arrow of `direction` sits on: Up (1) on the top edge pointing
    /// up, Down (2) on the bottom, Left (4) on the left edge, Right (8) on the right; `nil` for
    /// anything but one of those (Unknown, Any, none).
    static func arrowSide(_ direction: ArrowDirections) -> ArrowSide? {
        switch direction {
        case .up: .top
        case .down: .bottom
        case .left: .left
        case .right: .right
        default: nil
        }
    }

    /// The outline of a popover: `body` with rounded corners, and a triangle on the arrow's side
    /// out to its tip. The triangle is centred under the tip where the body allows; a corner the
    /// triangle's base runs into is drawn square, as UIKit does when the anchor is near an edge.
    static func popoverPath(body: Rect, radius: Double, arrow: (side: ArrowSide, tip: Point)?) -> String {
        func n(_ value: Double) -> String { SVGBuilder.number(value) }
        // Corner radii, clockwise from the top left.
        var corners = [radius, radius, radius, radius]
        var base: (low: Double, high: Double)?
        if let arrow {
            let alongX = arrow.side == .top || arrow.side == .bottom
            let (low, high, at) = alongX ? (body.minX, body.maxX, arrow.tip.x) : (body.minY, body.maxY, arrow.tip.y)
            let half = max(0, min(ScreenTheme.arrowHalfWidth, (high - low) / 2))
            let center = max(low + half, min(at, high - half))
            base = (center - half, center + half)
            // The corners at the low and high ends of the arrow's side.
            let ends: (Int, Int) = switch arrow.side {
            case .top: (0, 1)
            case .right: (1, 2)
            case .bottom: (3, 2)
            case .left: (0, 3)
            }
            if center - half < low + radius { corners[ends.0] = 0 }
            if center + half > high - radius { corners[ends.1] = 0 }
        }
        func arc(_ r: Double, to x: Double, _ y: Double) -> String {
            r > 0 ? "A\(n(r)) \(n(r)) 0 0 1 \(n(x)) \(n(y))" : ""
        }
        let (topLeft, topRight, bottomRight, bottomLeft) = (corners[0], corners[1], corners[2], corners[3])
        var d = "M\(n(body.minX + topLeft)) \(n(body.minY))"
        if let arrow, let base, arrow.side == .top {
            d += "L\(n(base.low)) \(n(body.minY))L\(n(arrow.tip.x)) \(n(arrow.tip.y))L\(n(base.high)) \(n(body.minY))"
        }
        d += "L\(n(body.maxX - topRight)) \(n(body.minY))" + arc(topRight, to: body.maxX, body.minY + topRight)
        if let arrow, let base, arrow.side == .right {
            d += "L\(n(body.maxX)) \(n(base.low))L\(n(arrow.tip.x)) \(n(arrow.tip.y))L\(n(body.maxX)) \(n(base.high))"
        }
        d += "L\(n(body.maxX)) \(n(body.maxY - bottomRight))" + arc(bottomRight, to: body.maxX - bottomRight, body.maxY)
        if let arrow, let base, arrow.side == .bottom {
            d += "L\(n(base.high)) \(n(body.maxY))L\(n(arrow.tip.x)) \(n(arrow.tip.y))L\(n(base.low)) \(n(body.maxY))"
        }
        d += "L\(n(body.minX + bottomLeft)) \(n(body.maxY))" + arc(bottomLeft, to: body.minX, body.maxY - bottomLeft)
        if let arrow, let base, arrow.side == .left {
            d += "L\(n(body.minX)) \(n(base.high))L\(n(arrow.tip.x)) \(n(arrow.tip.y))L\(n(body.minX)) \(n(base.low))"
        }
        d += "L\(n(body.minX)) \(n(body.minY + topLeft))" + arc(topLeft, to: body.minX + topLeft, body.minY) + "Z"
        return d
    }
}
