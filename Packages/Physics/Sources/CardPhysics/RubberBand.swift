/// UIScrollView's rubber-band resistance past an edge: b = (1 − 1 / (x·c / d + 1))·d, where x is the distance
/// dragged past the edge, d the dimension of the view and c the coefficient (0.55 to match UIKit; the formula
/// as published by Grant Paul and widely reused). The result approaches d but never reaches it; negative
/// overshoot mirrors positive.
public struct RubberBand: Sendable, Hashable {
    /// The resistance coefficient c (UIKit: 0.55).
    public let coefficient: Double
    /// The dimension d (the view's width or height along the axis), in points.
    public let dimension: Double

    /// A rubber band.
    /// - Throws: `PhysicsError` when the coefficient or the dimension is not finite and > 0.
    public init(coefficient: Double = 0.55, dimension: Double) throws {
        try PhysicsError.requirePositive(coefficient, "coefficient")
        try PhysicsError.requirePositive(dimension, "dimension")
        self.coefficient = coefficient
        self.dimension = dimension
    }

    /// The displayed offset for an overshoot of `distance` points (either sign). O(1).
    public func offset(for distance: Double) -> Double {
        guard distance.isFinite else { return distance > 0 ? dimension : distance < 0 ? -dimension : 0 }
        let magnitude = abs(distance)
        let banded = (1 - 1 / (magnitude * coefficient / dimension + 1)) * dimension
        return distance < 0 ? -banded : banded
    }

    /// The overshoot that displays as `offset` (the inverse of `offset(for:)`); |offset| < dimension.
    public func distance(for offset: Double) -> Double {
        let magnitude = min(abs(offset), dimension * (1 - 1e-12))
        let distance = (dimension / (dimension - magnitude) - 1) * dimension / coefficient
        return offset < 0 ? -distance : distance
    }

    /// `value` clamped to `range`, with the part outside rubber-banded against the nearer edge.
    public func clamp(_ value: Double, to range: ClosedRange<Double>) -> Double {
        if value < range.lowerBound { return range.lowerBound + offset(for: value - range.lowerBound) }
        if value > range.upperBound { return range.upperBound + offset(for: value - range.upperBound) }
        return value
    }
}
