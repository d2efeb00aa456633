/// A displacement or a velocity, in points (or points per second).
public struct Vector: Sendable, Hashable, Codable {
    /// The horizontal component, in points (or points per second), positive to the right.
    public var dx: Double
    /// The vertical component, in points (or points per second), positive downwards.
    public var dy: Double

    /// A vector with components `dx` and `dy`.
    public init(dx: Double, dy: Double) {
        self.dx = dx
        self.dy = dy
    }

    /// No displacement.
    public static let zero = Vector(dx: 0, dy: 0)

    /// The Euclidean length, √(dx² + dy²).
    public var length: Double {
        (dx * dx + dy * dy).squareRoot()
    }

    /// The component-wise sum.
    public static func + (lhs: Vector, rhs: Vector) -> Vector {
        Vector(dx: lhs.dx + rhs.dx, dy: lhs.dy + rhs.dy)
    }

    /// The component-wise difference.
    public static func - (lhs: Vector, rhs: Vector) -> Vector {
        Vector(dx: lhs.dx - rhs.dx, dy: lhs.dy - rhs.dy)
    }

    /// The vector pointing the other way, with the same length.
    public static prefix func - (vector: Vector) -> Vector {
        Vector(dx: -vector.dx, dy: -vector.dy)
    }

    /// The vector with both components multiplied by `scale`.
    public static func * (vector: Vector, scale: Double) -> Vector {
        Vector(dx: vector.dx * scale, dy: vector.dy * scale)
    }

    /// The vector with both components multiplied by `scale`.
    public static func * (scale: Double, vector: Vector) -> Vector {
        vector * scale
    }

    /// The vector with both components divided by `divisor` (infinite or NaN components when it is 0).
    public static func / (vector: Vector, divisor: Double) -> Vector {
        Vector(dx: vector.dx / divisor, dy: vector.dy / divisor)
    }
}
