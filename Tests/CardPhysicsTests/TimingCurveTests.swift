import CardPhysics
import Testing

@Suite struct TimingCurveTests {
    /// A brute-force inverse: the curve sampled at 2²⁰ + 1 parameters, then the bracket of `x` interpolated.
    struct BruteForce {
        let xs: [Double]
        let ys: [Double]

        init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
            let count = 1 << 20
            func bezier(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
                let u = 1 - s
                return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
            }
            xs = (0...count).map { bezier(x1, x2, Double($0) / Double(count)) }
            ys = (0...count).map { bezier(y1, y2, Double($0) / Double(count)) }
        }

        func progress(_ x: Double) -> Double {
            var low = 0
            var high = xs.count - 1
            while high - low > 1 {
                let middle = (low + high) / 2
                if xs[middle] <= x { low = middle } else { high = middle }
            }
            let span = xs[high] - xs[low]
            let fraction = span > 0 ? (x - xs[low]) / span : 0
            return ys[low] + fraction * (ys[high] - ys[low])
        }
    }

    @Test func namedCurvesHaveTheirControlPoints() {
        #expect(
            [TimingCurve.easeIn.x1, TimingCurve.easeIn.y1, TimingCurve.easeIn.x2, TimingCurve.easeIn.y2] == [
                0.42, 0, 1, 1,
            ])
        #expect([TimingCurve.easeOut.x1, TimingCurve.easeOut.x2] == [0, 0.58])
        #expect([TimingCurve.easeInOut.x1, TimingCurve.easeInOut.x2] == [0.42, 0.58])
        let standard = TimingCurve.coreAnimationDefault
        #expect([standard.x1, standard.y1, standard.x2, standard.y2] == [0.25, 0.1, 0.25, 1])
    }

    @Test func solverMatchesBruteForceInverse() throws {
        let curves: [(Double, Double, Double, Double)] = [
            (0.42, 0, 1, 1), (0, 0, 0.58, 1), (0.42, 0, 0.58, 1), (0.25, 0.1, 0.25, 1), (0.68, -0.55, 0.27, 1.55),
            (0, 1, 1, 0), (0.9, 0.1, 0.1, 0.9),
        ]
        for (x1, y1, x2, y2) in curves {
            let curve = try TimingCurve(x1: x1, y1: y1, x2: x2, y2: y2)
            let reference = BruteForce(x1, y1, x2, y2)
            for index in 0...1000 {
                let x = Double(index) / 1000
                #expect(abs(curve.progress(at: x) - reference.progress(x)) < 1e-8, "(\(x1),\(y1),\(x2),\(y2)) at \(x)")
            }
        }
    }

    @Test func seededRandomCurvesInvertX() throws {
        var random = SplitMix64(seed: 99)
        for _ in 0..<3000 {
            let curve = try TimingCurve(
                x1: Double.random(in: 0...1, using: &random), y1: Double.random(in: -1...2, using: &random),
                x2: Double.random(in: 0...1, using: &random), y2: Double.random(in: -1...2, using: &random))
            let x = Double.random(in: 0...1, using: &random)
            let s = curve.parameter(forX: x)
            let u = 1 - s
            let solved = 3 * u * u * s * curve.x1 + 3 * u * s * s * curve.x2 + s * s * s
            #expect(abs(solved - x) < 1e-9)
        }
    }

    /// The combined sample an animation takes every frame is the two separate ones, bit for bit (replays and
    /// golden frames depend on it), at the ends, outside 0…1, for the linear curve and for random curves.
    @Test func progressAndSlopeTogetherEqualEachAlone() throws {
        var random = SplitMix64(seed: 4)
        var curves: [TimingCurve] = [.easeIn, .easeOut, .easeInOut, .coreAnimationDefault, .linear]
        for _ in 0..<500 {
            curves.append(
                try TimingCurve(
                    x1: Double.random(in: 0...1, using: &random), y1: Double.random(in: -1...2, using: &random),
                    x2: Double.random(in: 0...1, using: &random), y2: Double.random(in: -1...2, using: &random)))
        }
        for curve in curves {
            var fractions = [-0.5, 0, 1e-9, 0.5, 1 - 1e-9, 1, 1.5]
            for _ in 0..<20 { fractions.append(Double.random(in: 0...1, using: &random)) }
            for fraction in fractions {
                let both = curve.progressAndSlope(at: fraction)
                #expect(both.progress.bitPattern == curve.progress(at: fraction).bitPattern)
                #expect(both.slope.bitPattern == curve.slope(at: fraction).bitPattern)
            }
        }
    }

    @Test func slopeIsTheDerivativeOfProgress() {
        let h = 1e-6
        for curve in [TimingCurve.easeIn, .easeOut, .easeInOut, .coreAnimationDefault, .linear] {
            for index in 1..<100 {
                let x = Double(index) / 100
                let numeric = (curve.progress(at: x + h) - curve.progress(at: x - h)) / (2 * h)
                #expect(abs(numeric - curve.slope(at: x)) < 1e-4)
            }
            #expect(curve.slope(at: 0).isFinite && curve.slope(at: 1).isFinite)
        }
        // easeOut starts with x′ = y′ = 0: the slope's limit there is y″/x″ = (−2·0)/(… ) taken by L'Hôpital.
        #expect(abs(TimingCurve.easeOut.slope(at: 0) - TimingCurve.easeOut.slope(at: 1e-7)) < 1e-2)
    }

    @Test func animationsApplyDelayAndSpeed() throws {
        let animation = try Animation.easeInOut(duration: 1).delay(0.5).speed(2)
        #expect(animation.delay == 0.25)
        #expect(animation.speed == 2)
        // Half-way through the sped-up curve: the ease-in-out midpoint is exactly 0.5.
        let map = animation.transition(elapsed: 0.25)
        #expect(abs(map.positionFromOffset - 0.5) < 1e-12)
        #expect(animation.transition(elapsed: 0.5) == .finished)
        #expect(Animation.linear.duration == 0.35)
        #expect(Animation.linear.delay(-3).delay == 0)
    }
}
