/// A cubic Bézier timing curve from (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2), as in CSS
/// `cubic-bezier()`, Core Animation's `CAMediaTimingFunction` and SwiftUI's `timingCurve`.
///
/// `progress(at:)` solves x(s) = u for the curve parameter s (Newton's method, falling back to bisection, to
/// 1e-12 — the approach of WebKit's `UnitBezier`) and returns y(s). Control x-coordinates must lie in [0, 1] so
/// that x(s) is monotone and the solution unique; y-coordinates are free (overshooting curves are allowed).
public struct TimingCurve: Sendable, Hashable {
    /// The x coordinate of the first control point, in 0…1 (the fraction of the duration).
    public let x1: Double
    /// The y coordinate of the first control point (the fraction of the change; may lie outside 0…1).
    public let y1: Double
    /// The x coordinate of the second control point, in 0…1.
    public let x2: Double
    /// The y coordinate of the second control point (may lie outside 0…1).
    public let y2: Double

    // Polynomial coefficients: x(s) = ((ax·s + bx)·s + cx)·s, likewise y.
    @usableFromInline let ax: Double
    @usableFromInline let bx: Double
    @usableFromInline let cx: Double
    @usableFromInline let ay: Double
    @usableFromInline let by: Double
    @usableFromInline let cy: Double
    /// y(s) = x(s) for every s: progress is time itself.
    @usableFromInline let isLinear: Bool

    /// A curve with the given control points.
    /// - Throws: `PhysicsError` when a value is not finite or x1, x2 lie outside [0, 1].
    public init(x1: Double, y1: Double, x2: Double, y2: Double) throws {
        for (name, value) in [("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2)] {
            try PhysicsError.requireFinite(value, name)
        }
        for (name, value) in [("x1", x1), ("x2", x2)] where !(0...1).contains(value) {
            throw PhysicsError.outOfRange(parameter: name, value: value, range: "0 ≤ \(name) ≤ 1")
        }
        self.init(unchecked: x1, y1, x2, y2)
    }

    init(unchecked x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
        cx = 3 * x1
        bx = 3 * (x2 - x1) - 3 * x1
        ax = 1 - 3 * x1 - (3 * (x2 - x1) - 3 * x1)
        cy = 3 * y1
        by = 3 * (y2 - y1) - 3 * y1
        ay = 1 - 3 * y1 - (3 * (y2 - y1) - 3 * y1)
        isLinear = x1 == y1 && x2 == y2
    }

    /// Constant speed.
    public static let linear = TimingCurve(unchecked: 0, 0, 1, 1)
    /// Slow start: (0.42, 0, 1, 1) (CSS `ease-in`, `kCAMediaTimingFunctionEaseIn`).
    public static let easeIn = TimingCurve(unchecked: 0.42, 0, 1, 1)
    /// Slow end: (0, 0, 0.58, 1) (CSS `ease-out`).
    public static let easeOut = TimingCurve(unchecked: 0, 0, 0.58, 1)
    /// Slow start and end: (0.42, 0, 0.58, 1) (CSS `ease-in-out`).
    public static let easeInOut = TimingCurve(unchecked: 0.42, 0, 0.58, 1)
    /// Core Animation's default timing function: (0.25, 0.1, 0.25, 1) (CSS `ease`).
    public static let coreAnimationDefault = TimingCurve(unchecked: 0.25, 0.1, 0.25, 1)

    @inlinable func sampleX(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
    @inlinable func sampleY(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
    @inlinable func slopeX(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }
    @inlinable func slopeY(_ s: Double) -> Double { (3 * ay * s + 2 * by) * s + cy }

    /// The curve parameter s in [0, 1] with x(s) = `x`, to 1e-12. O(1): at most 8 Newton steps, then at most
    /// 64 bisection steps.
    @inlinable
    public func parameter(forX x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        if isLinear && x1 == 0 && x2 == 1 { return x }
        var s = x
        for _ in 0..<8 {
            let error = sampleX(s) - x
            if abs(error) < 1e-12 { return s }
            let slope = slopeX(s)
            if abs(slope) < 1e-7 { break }
            s -= error / slope
            if s < 0 || s > 1 { break }
        }
        var low = 0.0
        var high = 1.0
        s = x
        for _ in 0..<64 {
            let value = sampleX(s)
            if abs(value - x) < 1e-12 { return s }
            if value < x { low = s } else { high = s }
            s = (low + high) / 2
        }
        return s
    }

    /// The eased progress at time fraction `fraction` (clamped to [0, 1]).
    @inlinable
    public func progress(at fraction: Double) -> Double {
        if fraction <= 0 { return 0 }
        if fraction >= 1 { return 1 }
        if isLinear { return fraction }
        return sampleY(parameter(forX: fraction))
    }

    /// `progress(at:)` and `slope(at:)` together, solving for the curve parameter once (an animation samples
    /// both every frame). The same values as the two calls, bit for bit.
    @inlinable
    public func progressAndSlope(at fraction: Double) -> (progress: Double, slope: Double) {
        if isLinear { return (progress(at: fraction), slope(at: fraction)) }
        guard fraction >= 0, fraction <= 1 else { return (progress(at: fraction), 0) }
        let s = parameter(forX: fraction)
        let progress = fraction <= 0 ? 0 : fraction >= 1 ? 1 : sampleY(s)
        return (progress, slope(atParameter: s))
    }

    /// dProgress/dFraction at `fraction`: y′(s)/x′(s). Where x′ vanishes (a control point on the axis at an
    /// end), the limit of the ratio is taken from the second derivatives; an infinite slope is clamped to a
    /// large finite one so velocities stay finite.
    @inlinable
    public func slope(at fraction: Double) -> Double {
        if isLinear { return fraction < 0 || fraction > 1 ? 0 : 1 }
        guard fraction >= 0, fraction <= 1 else { return 0 }
        return slope(atParameter: parameter(forX: fraction))
    }

    /// y′(s)/x′(s) at the curve parameter `s` (see `slope(at:)`).
    @inlinable
    func slope(atParameter s: Double) -> Double {
        let dx = slopeX(s)
        let dy = slopeY(s)
        if abs(dx) > 1e-9 { return dy / dx }
        // L'Hôpital: second derivatives 6a·s + 2b.
        let ddx = 6 * ax * s + 2 * bx
        let ddy = 6 * ay * s + 2 * by
        if abs(dy) <= 1e-9 && abs(ddx) > 1e-9 { return ddy / ddx }
        let ratio = dy / max(abs(dx), 1e-9)
        return min(max(ratio, -1e9), 1e9)
    }
}
