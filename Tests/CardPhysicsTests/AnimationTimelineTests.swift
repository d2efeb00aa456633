import CardGeometry
import CardPhysics
import Testing

@Suite struct AnimationTimelineTests {
    struct Key: Hashable, Sendable {
        var node: Int
        var property: String
    }

    @Test func aStartedSpringSamplesAsTheClosedForm() throws {
        var timeline = AnimationTimeline<Key, Double>()
        let key = Key(node: 1, property: "x")
        timeline.animate(key, to: 100, with: .bouncy, at: 2, from: 0)
        for time in stride(from: 2.0, through: 2.4, by: 0.01) {
            let sample = try #require(timeline.sample(key, at: time))
            #expect(abs(sample.value - Spring.bouncy.value(from: 0, to: 100, at: time - 2)) < 1e-9)
            #expect(abs(sample.velocity - Spring.bouncy.velocity(from: 0, to: 100, at: time - 2)) < 1e-9)
        }
        #expect(timeline.value(for: key, at: 1) == 0)
        #expect(timeline.value(for: Key(node: 2, property: "x"), at: 1) == nil)
        #expect(timeline.target(for: key) == 100)
    }

    @Test func springRetargetsKeepPositionAndVelocity() throws {
        var random = SplitMix64(seed: 2024)
        let springs: [Animation] = [
            .spring, .smooth, .snappy, .bouncy, .interactiveSpring, try .spring(duration: 0.3, bounce: -0.4),
        ]
        for _ in 0..<1000 {
            var timeline = AnimationTimeline<Int, Point>()
            timeline.animate(
                0, to: Point(x: 300, y: -40), with: springs[Int.random(in: 0..<springs.count, using: &random)], at: 0,
                from: .zero)
            var time = 0.0
            for _ in 0..<5 {
                time += Double.random(in: 0.001...0.3, using: &random)
                let before = try #require(timeline.sample(0, at: time))
                let target = Point(
                    x: Double.random(in: -500...500, using: &random), y: Double.random(in: -500...500, using: &random))
                timeline.animate(
                    0, to: target, with: springs[Int.random(in: 0..<springs.count, using: &random)], at: time)
                let after = try #require(timeline.sample(0, at: time))
                #expect(before.value.subtracting(after.value).magnitude < 1e-9)
                #expect(before.velocity.subtracting(after.velocity).magnitude < 1e-6)
                // And no jump just after, including across the interactive spring's response blend.
                let later = try #require(timeline.sample(0, at: time + 1e-7))
                #expect(later.value.subtracting(after.value).magnitude < 1e-7 * (after.velocity.magnitude + 1) + 1e-6)
            }
        }
    }

    @Test func blendingIsContinuousThroughoutTheBlend() throws {
        var timeline = AnimationTimeline<Int, Double>()
        timeline.animate(0, to: 100, with: .interactiveSpring, at: 0, from: 0)
        timeline.animate(
            0, to: -50, with: try .spring(response: 0.6, dampingFraction: 0.7, blendDuration: 0.3), at: 0.05)
        var previous = try #require(timeline.sample(0, at: 0.05))
        let h = 1e-4
        for step in 1...6000 {
            let time = 0.05 + Double(step) * h
            let sample = try #require(timeline.sample(0, at: time))
            // No jump: position moves by about velocity·h, velocity by at most (ω₀²·|x| + c·|v|)·h ≈ 4e5·h.
            #expect(abs(sample.value - previous.value - previous.velocity * h) < 1e-2)
            #expect(abs(sample.velocity - previous.velocity) < 4e5 * h)
            // The velocity (with the blend weight's derivative) is the derivative of the position.
            let ahead = try #require(timeline.value(for: 0, at: time + 1e-6))
            let behind = try #require(timeline.value(for: 0, at: time - 1e-6))
            #expect(abs((ahead - behind) / 2e-6 - sample.velocity) < 1e-3 * (abs(sample.velocity) + 1))
            previous = sample
        }
    }

    @Test func curvesRetargetFromTheCurrentValue() throws {
        var timeline = AnimationTimeline<Int, Double>()
        timeline.animate(0, to: 10, with: .easeInOut, at: 0, from: 0)
        let before = try #require(timeline.value(for: 0, at: 0.2))
        timeline.animate(0, to: 0, with: try .linear(duration: 1), at: 0.2)
        #expect(timeline.value(for: 0, at: 0.2) == before)
        #expect(abs((timeline.value(for: 0, at: 0.7) ?? .nan) - before / 2) < 1e-12)
        #expect(abs((timeline.velocity(for: 0, at: 0.7) ?? .nan) + before) < 1e-12)
        #expect(timeline.value(for: 0, at: 1.2) == 0)
        // A spring after a curve keeps the curve's velocity.
        let velocity = try #require(timeline.velocity(for: 0, at: 0.5))
        timeline.animate(0, to: 5, with: .smooth, at: 0.5)
        #expect(abs((timeline.velocity(for: 0, at: 0.5) ?? .nan) - velocity) < 1e-12)
    }

    @Test func interpolatingSpringsAddUp() throws {
        let additive = try Animation.interpolatingSpring(stiffness: 170, damping: 15)
        var timeline = AnimationTimeline<Int, Double>()
        timeline.animate(0, to: 100, with: additive, at: 0, from: 0)
        let single = try Spring(mass: 1, stiffness: 170, damping: 15)
        let middle = try #require(timeline.sample(0, at: 0.1))
        timeline.animate(0, to: 300, with: additive, at: 0.1)
        let after = try #require(timeline.sample(0, at: 0.1))
        #expect(abs(after.value - middle.value) < 1e-9)
        #expect(abs(after.velocity - middle.velocity) < 1e-9)
        // Superposition: the first motion continues, plus the change 100 → 300 from 0.1 s.
        for time in stride(from: 0.1, through: 0.9, by: 0.05) {
            let expected =
                single.value(from: 0, to: 100, at: time) - 100 + single.value(from: 100, to: 300, at: time - 0.1)
            #expect(abs((timeline.value(for: 0, at: time) ?? .nan) - expected) < 1e-9)
        }
        #expect(abs((timeline.value(for: 0, at: 10) ?? .nan) - 300) < 1e-9)
        #expect(timeline.isSettled(at: timeline.settleTime))
    }

    @Test func samplingIsAPureFunctionOfStateAndTime() throws {
        var random = SplitMix64(seed: 31337)
        var sampled = AnimationTimeline<Int, Double>()
        var unsampled = AnimationTimeline<Int, Double>()
        var time = 0.0
        for _ in 0..<2000 {
            let key = Int.random(in: 0..<20, using: &random)
            let target = Double.random(in: -100...100, using: &random)
            let animation: Animation = [.smooth, .bouncy, .easeOut, .interactiveSpring][
                Int.random(in: 0..<4, using: &random)]
            time += Double.random(in: 0...0.05, using: &random)
            for probe in 0..<Int.random(in: 0...5, using: &random) {
                _ = sampled.sample(key, at: time - Double(probe) * 0.01)
            }
            sampled.animate(
                key, to: target, with: animation.delay(Double.random(in: 0...0.1, using: &random)), at: time)
            unsampled.animate(
                key, to: target, with: animation.delay(Double.random(in: 0...0.1, using: &random)), at: time)
        }
        var first: [Double] = []
        var second: [Double] = []
        sampled.sampleAll(at: time + 0.123, into: &first)
        _ = sampled.sample(3, at: 1e6)
        sampled.sampleAll(at: time + 0.123, into: &second)
        #expect(first == second)
        #expect(sampled.keys.count == 20)
    }

    @Test func staggeredDelaysHoldEachKeyUntilItsTurn() throws {
        var timeline = AnimationTimeline<Int, Double>()
        for key in 0..<10 { timeline.set(key, to: 0) }
        timeline.animate((0..<10).map { (key: $0, target: 50.0) }, with: .snappy, at: 1, stagger: 0.05)
        for key in 0..<10 {
            let start = 1 + Double(key) * 0.05
            #expect(timeline.value(for: key, at: start - 1e-9) == 0)
            #expect(timeline.velocity(for: key, at: start - 1e-9) == 0)
            #expect((timeline.value(for: key, at: start + 0.05) ?? 0) > 0)
            #expect(!timeline.isSettled(key, at: start))
        }
        #expect(abs(timeline.settleTime - (1.45 + (timeline.settleTime(for: 0) ?? 0) - 1)) < 1e-9)
    }

    @Test func aDelayedRetargetLetsTheRunningMotionContinue() throws {
        var timeline = AnimationTimeline<Int, Double>()
        timeline.animate(0, to: 100, with: .smooth, at: 0, from: 0)
        timeline.animate(0, to: 0, with: Animation.bouncy.delay(0.2), at: 0.1)
        for time in stride(from: 0.1, to: 0.3, by: 0.01) {
            #expect(
                abs((timeline.value(for: 0, at: time) ?? .nan) - Spring.smooth.value(from: 0, to: 100, at: time)) < 1e-9
            )
        }
        let handover = Spring.smooth.velocity(from: 0, to: 100, at: 0.3)
        #expect(abs((timeline.velocity(for: 0, at: 0.3) ?? .nan) - handover) < 1e-9)
        #expect(abs((timeline.value(for: 0, at: 20) ?? .nan)) < 1e-9)
    }

    @Test func settlingIsReportedAndWithinTolerance() throws {
        var timeline = AnimationTimeline<Int, Double>()
        #expect(timeline.isSettled(at: 0))
        timeline.animate(0, to: 200, with: .bouncy, at: 0, from: 0)
        timeline.animate(1, to: 1, with: .easeIn, at: 0, from: 0)
        let settle = timeline.settleTime
        #expect(!timeline.isSettled(at: settle - 0.01))
        #expect(timeline.isSettled(at: settle))
        #expect(abs(timeline.settleTime(for: 1)! - 0.35) < 1e-12)
        // From the settle time on, the exact motion is within 0.001 of the distance.
        let entry = try #require(timeline.settleTime(for: 0))
        for time in stride(from: entry, through: entry + 2, by: 0.001) {
            #expect(abs(Spring.bouncy.value(from: 0, to: 200, at: time) - 200) <= 0.2)
        }
        timeline.remove(0)
        #expect(timeline.settleTime == 0.35)
        timeline.stop(1, at: 0.1)
        #expect(timeline.isSettled(at: 0.1))
        #expect(timeline.count == 1)
        timeline.removeAll()
        #expect(timeline.isEmpty)
    }

    @Test func anInstantAnimatorJumpsToTheTarget() {
        var timeline = AnimationTimeline<Int, RGBA>(animator: InstantAnimator())
        timeline.animate(0, to: .white, with: .bouncy, at: 0, from: .black)
        #expect(timeline.value(for: 0, at: 0) == .white)
        #expect(timeline.isSettled(at: 0))
    }
}

/// The closed form behind another type, so the timeline takes its general (non-inlined) path.
private struct WrappedAnimator: Animator {
    let inner = ClosedFormAnimator()

    func transition(of animation: Animation, blendingFrom previous: Spring?, elapsed: Double) -> MotionTransition {
        inner.transition(of: animation, blendingFrom: previous, elapsed: elapsed)
    }

    func settleTime(
        of animation: Animation, blendingFrom previous: Spring?, offset: Double, velocity: Double, tolerance: Double
    ) -> Double {
        inner.settleTime(
            of: animation, blendingFrom: previous, offset: offset, velocity: velocity, tolerance: tolerance)
    }
}

@Suite struct AnimationTimelineStorageTests {
    @Test func theInlineSpringPathAgreesWithTheGeneralPath() throws {
        var random = SplitMix64(seed: 77)
        var fast = AnimationTimeline<Int, Size>()
        var general = AnimationTimeline<Int, Size>(animator: WrappedAnimator())
        let animations: [Animation] = [
            .smooth, .bouncy, .interactiveSpring, .easeOut, try .spring(duration: 0.4, bounce: 0.2).speed(1.5),
            try .interpolatingSpring(stiffness: 300, damping: 12),
        ]
        var time = 0.0
        for _ in 0..<3000 {
            let key = Int.random(in: 0..<50, using: &random)
            let target = Size(
                width: Double.random(in: 0...400, using: &random), height: Double.random(in: 0...400, using: &random))
            let animation = animations[Int.random(in: 0..<animations.count, using: &random)]
                .delay(Double.random(in: 0...1, using: &random) < 0.2 ? 0.05 : 0)
            time += Double.random(in: 0...0.02, using: &random)
            fast.animate(key, to: target, with: animation, at: time)
            general.animate(key, to: target, with: animation, at: time)
            let probe = time + Double.random(in: 0...0.5, using: &random)
            let a = try #require(fast.sample(key, at: probe))
            let b = try #require(general.sample(key, at: probe))
            #expect(a.value.subtracting(b.value).magnitude < 1e-9)
            #expect(a.velocity.subtracting(b.velocity).magnitude < 1e-7)
        }
    }

    @Test func removingAKeyKeepsTheOthersIntact() throws {
        var timeline = AnimationTimeline<String, Double>()
        for (index, name) in ["a", "b", "c", "d"].enumerated() {
            timeline.animate(name, to: Double(index) * 100, with: .smooth, at: 0, from: -50)
        }
        let before = try #require(timeline.value(for: "d", at: 0.2))
        timeline.remove("b")
        #expect(timeline.value(for: "b", at: 0.2) == nil)
        #expect(timeline.value(for: "d", at: 0.2) == before)
        #expect(timeline.target(for: "c") == 200)
        #expect(Set(timeline.keys) == ["a", "c", "d"])
        var values: [Double] = []
        timeline.sampleAll(at: 10, into: &values)
        #expect(Set(values) == [0, 200, 300])
        var seen: [String: Double] = [:]
        timeline.forEachSample(at: 10) { key, value, _ in seen[key] = value }
        #expect(seen == ["a": 0, "c": 200, "d": 300])
    }
}
