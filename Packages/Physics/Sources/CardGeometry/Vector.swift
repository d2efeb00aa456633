/// A displacement or a velocity, in points (or points per second).
public struct Vector: Sendable, Hashable, Codable {
    public var dx: Double
    public var dy: Double

    public init(dx: Double, dy: Double) {
        self.dx = dx
        self.dy = dy
    }

    /// No displacement.
    public static let zero = Vector(dx: 0, dy: 0)

    /// The Euclidean length, computed without intermediate overflow.
    public var length: Double {
        (dx * dx + dy * dy).squareRoot()
    }

    public static func + (lhs: Vector, rhs: Vector) -> Vector {
        Vector(dx: lhs.dx + rhs.dx, dy: lhs.dy + rhs.dy)
    }

    public static func - (lhs: Vector, rhs: Vector) -> Vector {
        Vector(dx: lhs.dx - rhs.dx, dy: lhs.dy - rhs.dy)
    }

    public static prefix func - (vector: Vector) -> Vector {
        Vector(dx: -vector.dx, dy: -vector.dy)
    }

    public static func * (vector: Vector, scale: Double) -> Vector {
        Vector(dx: vector.dx * scale, dy: vector.dy * scale)
    }

    public static func * (scale: Double, vector: Vector) -> Vector {
        vector * scale
    }

    public static func / (vector: Vector, divisor: Double) -> Vector {
        Vector(dx: vector.dx / divisor, dy: vector.dy / divisor)
    }
}
