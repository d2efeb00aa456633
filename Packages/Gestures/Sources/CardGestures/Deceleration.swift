/// The scroll-view deceleration projection: how far content keeps moving after release at `velocity`.
///
/// UIScrollView's normal deceleration rate keeps `d = 0.998` of the velocity per millisecond, so the distance
/// travelled is `v/1000 · d/(1 − d)` (WWDC 2018 "Designing Fluid Interfaces", the `project(initialVelocity:
/// decelerationRate:)` helper). CardPhysics has the same formula; CardGestures may not import it, so this tiny
/// copy lives here. O(1).
enum Deceleration {
    /// UIScrollView.DecelerationRate.normal.
    static let normalRate = 0.998

    /// Distance in points covered from `velocity` (points per second) until rest.
    static func projectedDistance(velocity: Double, rate: Double = normalRate) -> Double {
        (velocity / 1000) * rate / (1 - rate)
    }

    /// The projection of a 2-D velocity.
    static func projectedOffset(velocity: Vector, rate: Double = normalRate) -> Vector {
        Vector(
            dx: projectedDistance(velocity: velocity.dx, rate: rate),
            dy: projectedDistance(velocity: velocity.dy, rate: rate)
        )
    }
}
