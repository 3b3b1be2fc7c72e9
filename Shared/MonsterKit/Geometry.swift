/// A point in screen points.
public struct Point: Codable, Sendable, Equatable {
    public var x: Double
    public var y: Double
    /// A point at `x`, `y`.
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// A size in points.
public struct Size: Codable, Sendable, Equatable {
    public var width: Double
    public var height: Double
    /// A size of `width` × `height`.
    public init(width: Double, height: Double) { self.width = width; self.height = height }
}

/// A rectangle in screen points, origin at the top left (UIKit's `CGRect`).
public struct Rect: Codable, Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    /// A rectangle at `x`, `y` of `width` × `height`.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// A rectangle at `origin` of `size`.
    public init(origin: Point, size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
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
