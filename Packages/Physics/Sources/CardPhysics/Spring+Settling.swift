import Foundation

extension Spring {
    /// The fraction of the distance within which a spring counts as settled (SwiftUI's documented ε = 0.001).
    public static let settlingEpsilon = 0.001

    /// How long the spring takes, from rest, to come and stay within ε = 0.001 of the distance of its target.
    ///
    /// Exact, not an envelope estimate: for an under-damped spring the step response from rest peaks at
    /// t_k = kπ/ω_d with |x(t_k)| = e^(−α·t_k), so the last peak above ε is found directly and the crossing after
    /// it by bisection; critically and over-damped springs approach monotonically. `.infinity` for an undamped
    /// spring (bounce 1), which never settles. O(1) (a fixed number of bisection steps).
    public var settlingDuration: Double { settlingDuration(epsilon: Spring.settlingEpsilon) }

    /// The settling duration for another fraction ε of the distance (0 < ε < 1).
    public func settlingDuration(epsilon: Double) -> Double {
        guard epsilon > 0, epsilon < 1 else { return 0 }
        guard decay > 0 else { return .infinity }
        let stepResponse = { (time: Double) -> Double in self.transition(at: time).positionFromOffset }
        switch regime {
        case .underdamped:
            let halfPeriod = Double.pi / frequency
            // Peaks k with e^(−α·kπ/ω_d) > ε: k < ln(1/ε)/(α·halfPeriod).
            let limit = log(1 / epsilon) / (decay * halfPeriod)
            let lastPeak = max(0, limit.rounded(.up) - 1)
            let low = lastPeak * halfPeriod
            let high = low + halfPeriod
            // x is monotone between consecutive peaks; find where it passes sign(peak)·ε.
            let sign: Double = lastPeak.truncatingRemainder(dividingBy: 2) == 0 ? 1 : -1
            return Spring.bisect(low: low, high: high) { sign * stepResponse($0) > epsilon }
        case .critical, .overdamped:
            // Monotone decay from 1: grow an upper bound, then bisect.
            var high = max(1 / -slowRoot, 1e-9)
            var guardCount = 0
            while stepResponse(high) > epsilon && guardCount < 2000 {
                high *= 2
                guardCount += 1
            }
            return Spring.bisect(low: 0, high: high) { stepResponse($0) > epsilon }
        }
    }

    /// Whether a motion that left with `offset` and `velocity` magnitudes is within `tolerance` of its target at
    /// `time` and stays there: `time ≥ settleTime(...)`.
    public func isSettled(offset: Double, velocity: Double, tolerance: Double, at time: Double) -> Bool {
        time >= settleTime(offset: offset, velocity: velocity, tolerance: tolerance)
    }

    /// A time after which the motion from (`offset`, `velocity`) (magnitudes, any number of components)
    /// stays within `tolerance` of the target for good.
    ///
    /// Uses the bound |x(t)| ≤ e^(ρt)·(|d₀|·(1 + α·m(t)) + |v₀|·m(t)), with ρ = −α (r₁ when over-damped) and
    /// m(t) = min(t, 1/ω_d) (t when critical, min(t, 1/2β) when over-damped), which holds in every regime and
    /// decreases after its single peak; the crossing is found by bisection. `.infinity` when undamped and
    /// moving. O(1).
    public func settleTime(offset: Double, velocity: Double, tolerance: Double) -> Double {
        let displacement = abs(offset)
        let speed = abs(velocity)
        guard tolerance > 0 else { return displacement == 0 && speed == 0 ? 0 : .infinity }
        if displacement == 0 && speed == 0 { return 0 }
        guard decay > 0 else { return .infinity }
        let rate = -slowRoot
        let cap: Double =
            switch regime {
            case .underdamped: 1 / frequency
            case .critical: .infinity
            case .overdamped: 1 / (2 * frequency)
            }
        let alpha = decay
        let bound = { (time: Double) -> Double in
            let m = min(time, cap)
            return exp(-rate * time) * (displacement * (1 + alpha * m) + speed * m)
        }
        // The bound e^(−ρt)(A + Bt) peaks at t = 1/ρ − A/B (or at 0) and decreases afterwards.
        let slope = displacement * alpha + speed
        let peak = slope > 0 ? max(0, 1 / rate - displacement / slope) : 0
        if bound(peak) <= tolerance { return 0 }
        var high = max(peak * 2, 1 / rate)
        var guardCount = 0
        while bound(high) > tolerance && guardCount < 2000 {
            high *= 2
            guardCount += 1
        }
        return Spring.bisect(low: peak, high: high) { bound($0) > tolerance }
    }

    /// The boundary in [low, high] between `isAbove` true (before) and false (after), to full precision.
    static func bisect(low: Double, high: Double, _ isAbove: (Double) -> Bool) -> Double {
        var low = low
        var high = high
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if middle <= low || middle >= high { break }
            if isAbove(middle) { low = middle } else { high = middle }
        }
        return high
    }
}
