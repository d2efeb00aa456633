import CardGeometry

/// Estimates a pointer's velocity from its recent positions, as Flutter's `VelocityTracker` does.
///
/// The model (Flutter, `packages/flutter/lib/src/gestures/velocity_tracker.dart`): keep the last 20 samples;
/// walking back from the newest, use samples no older than 100 ms and stop at the first gap longer than 40 ms;
/// with at least 3 samples fit a least-squares quadratic per axis (time relative to the newest sample) and
/// report its slope at the newest sample; otherwise report zero. Flutter also reports zero once the pointer has
/// rested 40 ms; here that pause is measured against the query time, so no real clock is read.
///
/// Known values: a steady 1 pt/ms gives 1000 pt/s; samples (0 ms, 0), (10, 10), (20, 30), (30, 60) lie on
/// x = 0.05 t² + 0.5 t, whose slope at 30 ms is 3.5 pt/ms = 3500 pt/s. Adding a sample is O(1); a query is
/// O(20).
public struct VelocityTracker: Sendable, Hashable {
    /// Samples older than this (seconds before the newest) are ignored.
    public static let horizon = 0.1
    /// A gap between samples longer than this ends the history; a rest this long reports zero velocity.
    public static let assumeStoppedAfter = 0.04
    /// The ring buffer's size.
    public static let capacity = 20
    static let minimumSamples = 3

    private struct Sample: Sendable, Hashable {
        var time: Double
        var location: Point
    }

    private var samples: [Sample] = []
    /// Index of the newest sample in `samples` (once it holds `capacity` samples it is a ring).
    private var newest = -1

    /// A tracker with no samples (its velocity is zero).
    public init() {}

    /// The number of stored samples (at most ``capacity``).
    public var count: Int { samples.count }

    /// Records the pointer at `location` at `time` (seconds). A repeat of the newest sample is ignored.
    public mutating func add(time: Double, location: Point) {
        let sample = Sample(time: time, location: location)
        if newest >= 0, samples[newest] == sample { return }
        if samples.count < Self.capacity {
            samples.append(sample)
            newest = samples.count - 1
        } else {
            newest = (newest + 1) % Self.capacity
            samples[newest] = sample
        }
    }

    /// Forgets every sample.
    public mutating func reset() {
        samples.removeAll(keepingCapacity: true)
        newest = -1
    }

    /// The location of the newest sample, if any.
    public var lastLocation: Point? { newest >= 0 ? samples[newest].location : nil }

    /// The velocity in points per second, evaluated at the newest sample; zero when the pointer has rested more
    /// than 40 ms before `time` (pass the current time; `nil` skips the rest check).
    public func velocity(at time: Double? = nil) -> Vector {
        guard newest >= 0 else { return .zero }
        let latest = samples[newest]
        if let time, time - latest.time > Self.assumeStoppedAfter { return .zero }
        // Accumulate the normal equations of the weighted (weight 1) least-squares quadratic fit, in milliseconds
        // relative to the newest sample so the numbers stay small.
        var sums = Moments()  // Σ t^k, k = 0…4
        var xSums = (0.0, 0.0, 0.0)  // Σ x·t^k, k = 0…2
        var ySums = (0.0, 0.0, 0.0)
        var index = newest
        var previousTime = latest.time
        var used = 0
        while used < samples.count {
            let sample = samples[index]
            let age = latest.time - sample.time
            let gap = abs(previousTime - sample.time)
            if age > Self.horizon || gap > Self.assumeStoppedAfter { break }
            previousTime = sample.time
            let t = -age * 1000
            let t2 = t * t
            let x = sample.location.x - latest.location.x
            let y = sample.location.y - latest.location.y
            sums.s0 += 1
            sums.s1 += t
            sums.s2 += t2
            sums.s3 += t2 * t
            sums.s4 += t2 * t2
            xSums = (xSums.0 + x, xSums.1 + x * t, xSums.2 + x * t2)
            ySums = (ySums.0 + y, ySums.1 + y * t, ySums.2 + y * t2)
            used += 1
            index = index == 0 ? samples.count - 1 : index - 1
        }
        guard used >= Self.minimumSamples,
            let vx = Self.slope(sums, xSums), let vy = Self.slope(sums, ySums)
        else { return .zero }
        return Vector(dx: vx * 1000, dy: vy * 1000)
    }

    /// Σ t^k for k = 0…4.
    private struct Moments {
        var s0 = 0.0
        var s1 = 0.0
        var s2 = 0.0
        var s3 = 0.0
        var s4 = 0.0
    }

    /// Solves the 3×3 normal equations for c0 + c1·t + c2·t² by Cramer's rule and returns c1 (per millisecond),
    /// or nil when the system is singular (fewer than three distinct times).
    private static func slope(_ m: Moments, _ b: (Double, Double, Double)) -> Double? {
        // Matrix [[s0 s1 s2] [s1 s2 s3] [s2 s3 s4]].
        func det(
            _ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double, _ g: Double,
            _ h: Double, _ i: Double
        ) -> Double {
            a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        }
        let determinant = det(m.s0, m.s1, m.s2, m.s1, m.s2, m.s3, m.s2, m.s3, m.s4)
        let scale = max(1, abs(m.s0 * m.s2 * m.s4))
        guard determinant.isFinite, abs(determinant) > 1e-9 * scale else { return nil }
        let numerator = det(m.s0, b.0, m.s2, m.s1, b.1, m.s3, m.s2, b.2, m.s4)
        let result = numerator / determinant
        return result.isFinite ? result : nil
    }
}
