/// A location in the engine's coordinate space, in points (y grows downwards, as in SwiftUI).
public struct Point: Sendable, Hashable, Codable {
    /// The horizontal coordinate, in points, growing to the right.
    public var x: Double
    /// The vertical coordinate, in points, growing downwards.
    public var y: Double

    /// The point at (`x`, `y`), in points.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin, (0, 0).
    public static let zero = Point(x: 0, y: 0)

    /// The point moved by `vector`.
    public static func + (point: Point, vector: Vector) -> Point {
        Point(x: point.x + vector.dx, y: point.y + vector.dy)
    }

    /// The point moved back by `vector`.
    public static func - (point: Point, vector: Vector) -> Point {
        Point(x: point.x - vector.dx, y: point.y - vector.dy)
    }

    /// The displacement that takes `rhs` to `lhs`.
    public static func - (lhs: Point, rhs: Point) -> Vector {
        Vector(dx: lhs.x - rhs.x, dy: lhs.y - rhs.y)
    }

    /// The Euclidean distance to `other`.
    public func distance(to other: Point) -> Double {
        (other - self).length
    }
}
