import Domain

/// Where a popover goes: the rule this simulation uses, modelled on UIKit's.
///
/// The popover's body must stay inside the window less a 10 pt margin and below the status bar;
/// its arrow (13 pt) touches the anchor's edge. The permitted directions are tried in UIKit's
/// order of preference — Up (body below the anchor), Down (above), Left (to the right),
/// Right (to the left) — and the first one where the whole content fits wins. Across the arrow
/// the body is centred on the anchor and then slid to stay on screen; the arrow's tip stays
/// over the anchor. When no direction fits, the permitted direction with the most room wins
/// and the body is shrunk to that room (UIKit also shrinks a popover that does not fit).
public struct PopoverGeometry: Sendable, Equatable {
    /// The gap, in points, kept between a popover's body and the window's edges and status bar.
    public static let margin = 10.0
    /// How far, in points, the arrow reaches from the body to the anchor's edge.
    public static let arrowHeight = 13.0
    /// Keeps the arrow's tip away from the body's rounded corners.
    public static let cornerInset = 13.0

    /// The body's frame, without the arrow.
    public let frame: Rect
    /// The arrow direction chosen (one bit of the mask).
    public let arrowDirection: ArrowDirections
    /// Where the arrow's tip touches the anchor.
    public let arrowTip: Point

    /// The placement of content of `size` pointing at `anchor` in `window`, with `permitted` arrows.
    public init(anchor: Rect, contentSize size: Size, permitted: ArrowDirections, window: Size) {
        let bounds = Rect(
            x: Self.margin, y: ScreenLayout.statusBarHeight + Self.margin,
            width: window.width - 2 * Self.margin,
            height: window.height - ScreenLayout.statusBarHeight - 2 * Self.margin)
        let order: [ArrowDirections] = [.up, .down, .left, .right]
        let candidates = order.filter { permitted.contains($0) }
        let choices = (candidates.isEmpty ? order : candidates).map {
            Self.place(direction: $0, anchor: anchor, size: size, bounds: bounds)
        }
        let chosen = choices.first { $0.fits } ?? choices.max { $0.room < $1.room }!
        frame = chosen.frame
        arrowDirection = chosen.direction
        arrowTip = chosen.tip
    }

    private struct Placement {
        let direction: ArrowDirections
        let frame: Rect
        let tip: Point
        let fits: Bool
        let room: Double
    }

    private static func place(direction: ArrowDirections, anchor: Rect, size: Size, bounds: Rect) -> Placement {
        func slide(_ start: Double, _ length: Double, _ low: Double, _ high: Double) -> Double {
            max(low, min(start, high - length))
        }
        func tipAlong(_ center: Double, _ anchorLow: Double, _ anchorHigh: Double, _ bodyLow: Double, _ bodyHigh: Double) -> Double {
            let low = max(anchorLow, bodyLow + cornerInset)
            let high = min(anchorHigh, bodyHigh - cornerInset)
            return low <= high ? max(low, min(center, high)) : center
        }
        switch direction {
        case .up, .down:
            let room = direction == .up
                ? bounds.maxY - (anchor.maxY + arrowHeight)
                : (anchor.minY - arrowHeight) - bounds.minY
            let width = min(size.width, bounds.width)
            let height = max(0, min(size.height, room))
            let x = slide(anchor.midX - width / 2, width, bounds.minX, bounds.maxX)
            let y = direction == .up ? anchor.maxY + arrowHeight : anchor.minY - arrowHeight - height
            let tipX = tipAlong(anchor.midX, anchor.minX, anchor.maxX, x, x + width)
            return Placement(
                direction: direction, frame: Rect(x: x, y: y, width: width, height: height),
                tip: Point(x: tipX, y: direction == .up ? anchor.maxY : anchor.minY),
                fits: room >= size.height && size.width <= bounds.width, room: room)
        default:
            let room = direction == .left
                ? bounds.maxX - (anchor.maxX + arrowHeight)
                : (anchor.minX - arrowHeight) - bounds.minX
            let width = max(0, min(size.width, room))
            let height = min(size.height, bounds.height)
            let y = slide(anchor.midY - height / 2, height, bounds.minY, bounds.maxY)
            let x = direction == .left ? anchor.maxX + arrowHeight : anchor.minX - arrowHeight - width
            let tipY = tipAlong(anchor.midY, anchor.minY, anchor.maxY, y, y + height)
            return Placement(
                direction: direction, frame: Rect(x: x, y: y, width: width, height: height),
                tip: Point(x: direction == .left ? anchor.maxX : anchor.minX, y: tipY),
                fits: room >= size.width && size.height <= bounds.height, room: room)
        }
    }
}
