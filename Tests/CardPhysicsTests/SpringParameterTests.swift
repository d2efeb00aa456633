import CardPhysics
import Testing

@Suite struct SpringParameterTests {
    // Apple's documentation of `Spring(duration:bounce:)` and `Spring(mass:stiffness:damping:)`, quoted in the
    // issue: Spring(duration 0.5, bounce 0.3) → mass 1, stiffness ≈ 157.9, damping ≈ 17.6;
    // Spring(mass 1, stiffness 100, damping 10) → duration ≈ 0.63, bounce 0.5.
    @Test func applesDocumentedValues() throws {
        let bouncy = try Spring(duration: 0.5, bounce: 0.3)
        #expect(bouncy.mass == 1)
        #expect(abs(bouncy.stiffness - 157.91) < 0.01)
        #expect(abs(bouncy.damping - 17.59) < 0.01)
        let physical = try Spring(mass: 1, stiffness: 100, damping: 10)
        #expect(abs(physical.duration - 0.628) < 0.001)
        #expect(abs(physical.bounce - 0.5) < 1e-12)
        #expect(abs(physical.dampingRatio - 0.5) < 1e-12)
    }

    // Published vectors from Wave (github.com/jtrivedi/Wave, Tests/WaveTests/SpringTests.swift):
    // Spring(dampingRatio 1.0, response 0.8) → stiffness 61.6850, damping 15.7079;
    // Spring(dampingRatio 0.6, response 0.8) → stiffness 61.6850, damping 9.4247 (to 1e-4).
    @Test func waveLibraryVectors() throws {
        let critical = try Spring(response: 0.8, dampingRatio: 1)
        #expect(abs(critical.stiffness - 61.6850) < 1e-4)
        #expect(abs(critical.damping - 15.7079) < 1e-4)
        let under = try Spring(response: 0.8, dampingRatio: 0.6)
        #expect(abs(under.stiffness - 61.6850) < 1e-4)
        #expect(abs(under.damping - 9.4247) < 1e-4)
        #expect(abs(under.response - 0.8) < 1e-12)
        #expect(abs(under.dampingRatio - 0.6) < 1e-12)
    }

    @Test func bounceMapsToDampingRatioBothWays() throws {
        let negative = try Spring(duration: 0.7, bounce: -0.2)
        #expect(abs(negative.dampingRatio - 1 / 0.8) < 1e-12)
        #expect(abs(negative.bounce - -0.2) < 1e-12)
        #expect(abs(negative.duration - 0.7) < 1e-12)
        for bounce in stride(from: -0.95, through: 1.0, by: 0.05) {
            let spring = try Spring(duration: 0.42, bounce: bounce)
            #expect(abs(spring.bounce - bounce) < 1e-9, "bounce \(bounce)")
            #expect(abs(spring.duration - 0.42) < 1e-12)
        }
    }

    @Test func massScalesTheReverseConversions() throws {
        let spring = try Spring(mass: 4, stiffness: 100, damping: 10)
        #expect(abs(spring.response - 2 * Double.pi * (4.0 / 100).squareRoot()) < 1e-12)
        #expect(abs(spring.dampingRatio - 10 / (2 * (400.0).squareRoot())) < 1e-12)
    }

    @Test func overDampingIsCriticalUnlessAllowed() throws {
        let clamped = try Spring(mass: 1, stiffness: 100, damping: 50)
        #expect(abs(clamped.damping - 20) < 1e-12)
        #expect(abs(clamped.dampingRatio - 1) < 1e-12)
        let allowed = try Spring(mass: 1, stiffness: 100, damping: 50, allowOverDamping: true)
        #expect(allowed.damping == 50)
        #expect(abs(allowed.bounce - (1 / 2.5 - 1)) < 1e-12)
    }

    @Test func presetsMatchSwiftUI() throws {
        #expect(abs(Spring.default.response - 0.5) < 1e-12)
        #expect(abs(Spring.default.dampingRatio - 0.825) < 1e-12)
        #expect(abs(Spring.smooth.bounce - 0) < 1e-12)
        #expect(abs(Spring.snappy.bounce - 0.15) < 1e-12)
        #expect(abs(Spring.bouncy.bounce - 0.3) < 1e-12)
        for spring in [Spring.smooth, .snappy, .bouncy] { #expect(abs(spring.duration - 0.5) < 1e-12) }
        #expect(abs(try Spring.bouncy(duration: 0.8, extraBounce: 0.1).bounce - 0.4) < 1e-12)
        #expect(abs(try Spring.snappy(extraBounce: -0.15).bounce) < 1e-12)
        #expect(abs(try Spring.smooth(duration: 1).duration - 1) < 1e-12)

        guard case .spring(let interactive, let blend) = Animation.interactiveSpring.motion else {
            Issue.record("interactiveSpring is not a spring")
            return
        }
        #expect(abs(interactive.response - 0.15) < 1e-12)
        #expect(abs(interactive.dampingRatio - 0.86) < 1e-12)
        #expect(blend == 0.25)
        // Apple: `Animation.default` is spring(response 0.55, dampingFraction 1.0) since iOS 17.
        let standard = try #require(Animation.default.spring)
        #expect(abs(standard.response - 0.55) < 1e-12)
        #expect(abs(standard.dampingRatio - 1) < 1e-12)
        #expect(Animation.easeInOut.duration == 0.35)
    }

    @Test func invalidParametersThrowTypedErrors() {
        #expect(throws: PhysicsError.notPositive(parameter: "mass", value: 0)) {
            try Spring(mass: 0, stiffness: 1, damping: 1)
        }
        #expect(throws: PhysicsError.notPositive(parameter: "mass", value: -1)) {
            try Spring(mass: -1, stiffness: 1, damping: 1)
        }
        #expect(throws: PhysicsError.notPositive(parameter: "stiffness", value: -5)) {
            try Spring(stiffness: -5, damping: 1)
        }
        #expect(throws: PhysicsError.negative(parameter: "damping", value: -1)) {
            try Spring(stiffness: 5, damping: -1)
        }
        #expect(throws: PhysicsError.notPositive(parameter: "response", value: 0)) {
            try Spring(response: 0, dampingRatio: 1)
        }
        #expect(throws: PhysicsError.notPositive(parameter: "response", value: -0.3)) {
            try Spring(response: -0.3, dampingRatio: 1)
        }
        #expect(throws: PhysicsError.self) { try Spring(response: .nan, dampingRatio: 1) }
        #expect(throws: PhysicsError.self) { try Spring(response: 1, dampingRatio: .infinity) }
        #expect(throws: PhysicsError.self) { try Spring(duration: 0.5, bounce: -1) }
        #expect(throws: PhysicsError.self) { try Spring(duration: 0.5, bounce: 1.2) }
        #expect(throws: PhysicsError.self) { try Spring(mass: 1e-300, stiffness: 1e300, damping: 0) }
        #expect(throws: PhysicsError.self) { try Animation.spring(response: 0.3).speed(0) }
        #expect(throws: PhysicsError.self) { try Animation.timingCurve(1.2, 0, 0.5, 1) }
        #expect(throws: PhysicsError.self) { try Animation.linear(duration: -1) }
    }

    @Test func errorsDescribeTheProblem() {
        let error = PhysicsError.notPositive(parameter: "response", value: 0)
        #expect(error.description == "response must be greater than 0, got 0.0")
    }
}
