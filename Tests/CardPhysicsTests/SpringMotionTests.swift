import CardPhysics
import Testing

@Suite struct SpringMotionTests {
    /// Compares the closed form with a fine RK4 integration at every step, to 1e-6 of the motion's scale
    /// (the largest |x| or |v| along the path; a plain relative error is meaningless at zero crossings).
    func expectMatchesIntegration(
        _ spring: Spring, offset: Double, velocity: Double, span: Double, steps: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let step = span / Double(steps)
        let path = rungeKutta(spring: spring, offset: offset, velocity: velocity, step: step, steps: steps)
        let positionScale = path.map { abs($0.position) }.max() ?? 1
        let velocityScale = path.map { abs($0.velocity) }.max() ?? 1
        var worstPosition = 0.0
        var worstVelocity = 0.0
        for sample in path {
            let map = spring.transition(at: sample.time)
            let x = map.offset(from: offset, velocity: velocity)
            let v = map.velocity(from: offset, velocity: velocity)
            worstPosition = max(worstPosition, abs(x - sample.position) / positionScale)
            worstVelocity = max(worstVelocity, abs(v - sample.velocity) / velocityScale)
        }
        #expect(
            worstPosition < 1e-6 && worstVelocity < 1e-6,
            "ζ \(spring.dampingRatio) response \(spring.response) d₀ \(offset) v₀ \(velocity): \(worstPosition), \(worstVelocity)",
            sourceLocation: sourceLocation)
    }

    @Test(arguments: [0, 0.05, 0.3, 0.7, 0.999_999, 1, 1.000_001, 1.5, 5, 40])
    func everyRegimeMatchesRungeKutta(dampingRatio: Double) throws {
        for response in [0.05, 0.3, 1, 3] {
            let spring = try Spring(response: response, dampingRatio: dampingRatio)
            for (offset, velocity) in [(1.0, 0.0), (-250, 40), (0, -3000), (12, -3000)] {
                // RK4 needs |r₂|·h small for the stiff over-damped root r₂ ≈ −c/m.
                let steps = max(4000, Int(2 * response * spring.damping / spring.mass / 0.01))
                expectMatchesIntegration(spring, offset: offset, velocity: velocity, span: 2 * response, steps: steps)
            }
        }
    }

    @Test func seededRandomSpringsMatchRungeKutta() throws {
        var random = SplitMix64(seed: 0x5EED_0003)
        for _ in 0..<2000 {
            let mass = random.logUniform(0.05, 20)
            let stiffness = random.logUniform(1, 2000)
            let damping = Double.random(in: 0...3, using: &random) * 2 * (stiffness * mass).squareRoot()
            let spring = try Spring(mass: mass, stiffness: stiffness, damping: damping, allowOverDamping: true)
            let offset = Double.random(in: -500...500, using: &random)
            let velocity = Double.random(in: -5000...5000, using: &random)
            let steps = max(600, Int(spring.response * damping / mass / 0.01))
            expectMatchesIntegration(spring, offset: offset, velocity: velocity, span: spring.response, steps: steps)
        }
    }

    @Test func startsAtTheInitialStateAndEndsAtTheTarget() throws {
        for spring in [Spring.default, .smooth, .snappy, .bouncy, try Spring(duration: 0.5, bounce: -0.6)] {
            #expect(spring.value(from: 10, to: 110, initialVelocity: 7, at: 0) == 10)
            #expect(abs(spring.velocity(from: 10, to: 110, initialVelocity: 7, at: 0) - 7) < 1e-12)
            #expect(abs(spring.value(from: 10, to: 110, at: 20) - 110) < 1e-9)
            #expect(abs(spring.velocity(from: 10, to: 110, at: 20)) < 1e-9)
        }
    }

    @Test func velocityIsTheDerivativeOfPosition() throws {
        let spring = try Spring(duration: 0.4, bounce: 0.5)
        let h = 1e-6
        for time in stride(from: 0.01, through: 1.5, by: 0.07) {
            let numeric =
                (spring.value(from: 0, to: 1, at: time + h) - spring.value(from: 0, to: 1, at: time - h)) / (2 * h)
            #expect(abs(numeric - spring.velocity(from: 0, to: 1, at: time)) < 1e-5)
        }
    }

    @Test func extremeParametersStayFinite() throws {
        var random = SplitMix64(seed: 42)
        for _ in 0..<5000 {
            let spring = try Spring(
                mass: random.logUniform(1e-6, 1e6), stiffness: random.logUniform(1e-6, 1e9),
                damping: Double.random(in: 0...1, using: &random) < 0.1 ? 0 : random.logUniform(1e-6, 1e6),
                allowOverDamping: Double.random(in: 0...1, using: &random) < 0.5)
            let time = random.logUniform(1e-9, 1e6)
            let map = spring.transition(at: time)
            #expect(map.positionFromOffset.isFinite && map.positionFromVelocity.isFinite)
            #expect(map.velocityFromOffset.isFinite && map.velocityFromVelocity.isFinite)
            #expect(!spring.settlingDuration.isNaN)
        }
        // Constants whose products would overflow are rejected rather than producing infinities.
        #expect(throws: PhysicsError.self) { try Spring(response: 1, dampingRatio: 1e300) }
        #expect(throws: PhysicsError.self) { try Spring(response: 1e-200, dampingRatio: 1) }
        // Barely over-damped and enormously over-damped springs, long after the start.
        for zeta in [1 + 1e-15, 1 + 1e-9, 1e3, 1e8, 1e140] {
            let spring = try Spring(response: 0.3, dampingRatio: zeta)
            for time in [1e-12, 0.5, 1e3, 1e9] {
                #expect(spring.value(from: 0, to: 1, initialVelocity: 5, at: time).isFinite)
                #expect(spring.velocity(from: 0, to: 1, initialVelocity: 5, at: time).isFinite)
            }
        }
    }

    @Test func settlingDurationIsTheLastTimeOutsideEpsilon() throws {
        for spring in [Spring.default, .smooth, .snappy, .bouncy, try Spring(duration: 0.3, bounce: -0.5)] {
            let duration = spring.settlingDuration
            #expect(duration.isFinite && duration > 0)
            // Just before, the spring is outside 0.001; from then on (checked densely) inside.
            #expect(abs(spring.value(from: 0, to: 1, at: duration - 1e-6) - 1) > 0.001)
            for time in stride(from: duration, through: duration + 5, by: 0.0005) {
                #expect(abs(spring.value(from: 0, to: 1, at: time) - 1) <= 0.001 + 1e-12)
            }
        }
        // Critically damped from rest: e^(−ω t)(1 + ω t) = 0.001 at ω t ≈ 9.2335.
        let critical = try Spring(response: 1, dampingRatio: 1)
        #expect(abs(critical.settlingDuration * 2 * .pi - 9.233_45) < 1e-4)
        #expect(try Spring(duration: 1, bounce: 1).settlingDuration == .infinity)
    }

    @Test func settleTimeBoundsMotionWithVelocity() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<300 {
            let spring = try Spring(
                response: random.logUniform(0.05, 2), dampingRatio: Double.random(in: 0.05...4, using: &random))
            let offset = Double.random(in: -100...100, using: &random)
            let velocity = Double.random(in: -2000...2000, using: &random)
            let tolerance = 0.01
            let settle = spring.settleTime(offset: offset, velocity: velocity, tolerance: tolerance)
            for step in 0..<200 {
                let time = settle + Double(step) * spring.response / 50
                #expect(abs(spring.transition(at: time).offset(from: offset, velocity: velocity)) <= tolerance)
            }
        }
    }
}
