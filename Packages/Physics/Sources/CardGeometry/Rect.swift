/// An axis-aligned rectangle: an origin (top-left corner) and a size, in points.
public struct Rect: Sendable, Hashable, Codable {
    /// The corner the size is measured from; the top-left corner when the size is not negative.
    public var origin: Point
    /// The width and height, in points; may be negative (see ``standardized``).
    public var size: Size

    /// A rectangle with the given origin and size.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// A rectangle whose origin is (`x`, `y`) and whose size is `width` × `height`, in points.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The smallest x coordinate of the rectangle (its left edge), whatever the sign of the width.
    public var minX: Double { min(origin.x, origin.x + size.width) }
    /// The smallest y coordinate of the rectangle (its top edge), whatever the sign of the height.
    public var minY: Double { min(origin.y, origin.y + size.height) }
    /// The largest x coordinate of the rectangle (its right edge).
    public var maxX: Double { max(origin.x, origin.x + size.width) }
    /// The largest y coordinate of the rectangle (its bottom edge).
    public var maxY: Double { max(origin.y, origin.y + size.height) }
    /// The x coordinate of the centre.
    public var midX: Double { origin.x + size.width / 2 }
    /// The y coordinate of the centre.
    public var midY: Double { origin.y + size.height / 2 }
    /// The width, never negative.
    public var width: Double { abs(size.width) }
    /// The height, never negative.
    public var height: Double { abs(size.height) }
    /// The centre point, (``midX``, ``midY``).
    public var center: Point { Point(x: midX, y: midY) }

    /// The same rectangle with a non-negative size.
    public var standardized: Rect {
        Rect(x: minX, y: minY, width: width, height: height)
    }

    /// Whether `point` lies inside; the minimum edges are inside, the maximum edges outside (half-open, as CGRect).
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// Whether the two rectangles share any area.
    public func intersects(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    /// The rectangle moved by `vector`.
    public func offsetBy(_ vector: Vector) -> Rect {
        Rect(origin: origin + vector, size: size)
    }

    /// The rectangle shrunk by `insets` (grown where they are negative).
    public func inset(by insets: EdgeInsets) -> Rect {
        let rect = standardized
        return Rect(
            x: rect.origin.x + insets.leading,
            y: rect.origin.y + insets.top,
            width: max(0, rect.width - insets.leading - insets.trailing),
            height: max(0, rect.height - insets.top - insets.bottom)
        )
    }

    /// The rectangle scaled by `factor` about its centre.
    public func scaled(by factor: Double) -> Rect {
        let width = size.width * factor
        let height = size.height * factor
        return Rect(x: midX - width / 2, y: midY - height / 2, width: width, height: height)
    }

    /// Whether `point` lies inside the rectangle with its corners rounded by `cornerRadius`
    /// (the radius is clamped to half the shorter side, as SwiftUI's `RoundedRectangle` does).
    public func contains(_ point: Point, cornerRadius: Double) -> Bool {
        guard contains(point) else { return false }
        let radius = min(max(0, cornerRadius), width / 2, height / 2)
        guard radius > 0 else { return true }
        // Distance from the point to the inner rectangle whose corners are the arcs' centres.
        let dx = max(minX + radius - point.x, 0, point.x - (maxX - radius))
        let dy = max(minY + radius - point.y, 0, point.y - (maxY - radius))
        return dx * dx + dy * dy <= radius * radius
    }
}
