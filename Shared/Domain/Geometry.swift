/// A point in screen points.
public struct Point: Sendable, Hashable {
    /// Horizontal position, in points from the window's left edge.
    public var x: Double
    /// Vertical position, in points down from the window's top edge.
    public var y: Double
    /// A point at `x`, `y`.
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

extension Point: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Point { Point(x: 0, y: 0) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("x", &x)
        try fields.field("y", &y)
    }
}

/// A size in points.
public struct Size: Sendable, Hashable {
    /// Horizontal extent, in points.
    public var width: Double
    /// Vertical extent, in points.
    public var height: Double
    /// A size of `width` × `height`.
    public init(width: Double, height: Double) { self.width = width; self.height = height }
}

extension Size: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Size { Size(width: 0, height: 0) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("width", &width)
        try fields.field("height", &height)
    }
}

/// A rectangle in screen points, origin at the top left (UIKit's `CGRect`).
public struct Rect: Sendable, Hashable {
    /// The left edge, in points from the window's left edge.
    public var x: Double
    /// The top edge, in points down from the window's top edge.
    public var y: Double
    /// Horizontal extent, in points, rightwards from `x`.
    public var width: Double
    /// Vertical extent, in points, downwards from `y`.
    public var height: Double

    /// A rectangle at `x`, `y` of `width` × `height`.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// A rectangle at `origin` of `size`.
    public init(origin: Point, size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    /// The left edge's x (`x`), itself inside the rectangle for `contains(_: Point)`.
    public var minX: Double { x }
    /// The top edge's y (`y`), itself inside the rectangle for `contains(_: Point)`.
    public var minY: Double { y }
    /// The right edge's x (`x + width`), itself outside the rectangle for `contains(_: Point)`.
    public var maxX: Double { x + width }
    /// The bottom edge's y (`y + height`), itself outside the rectangle for `contains(_: Point)`.
    public var maxY: Double { y + height }
    /// The x of the centre, halfway between the left and right edges.
    public var midX: Double { x + width / 2 }
    /// The y of the centre, halfway between the top and bottom edges.
    public var midY: Double { y + height / 2 }
    /// Its width and height without the origin (e.g. a popover's size from its frame).
    public var size: Size { Size(width: width, height: height) }

    /// Whether `point` lies inside (left and top edges included, right and bottom excluded).
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// Whether `other` lies entirely inside this rectangle.
    public func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    /// The part of this rectangle inside `bounds` (empty, at the nearest edge, when outside).
    public func clipped(to bounds: Rect) -> Rect {
        let left = min(max(minX, bounds.minX), bounds.maxX)
        let top = min(max(minY, bounds.minY), bounds.maxY)
        let right = max(min(maxX, bounds.maxX), left)
        let bottom = max(min(maxY, bounds.maxY), top)
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }
}

extension Rect: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Rect { Rect(x: 0, y: 0, width: 0, height: 0) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("x", &x)
        try fields.field("y", &y)
        try fields.field("width", &width)
        try fields.field("height", &height)
    }
}
