import CardGeometry
import CardPhysics
import Testing

@Suite struct ScrollPhysicsTests {
    @Test func rubberBandFollowsTheFormulaBothWays() throws {
        let band = try RubberBand(dimension: 400)
        // b = (1 − 1/(x·c/d + 1))·d with c = 0.55: x = 100 → (1 − 1/1.1375)·400.
        #expect(abs(band.offset(for: 100) - (1 - 1 / 1.1375) * 400) < 1e-12)
        #expect(band.offset(for: -100) == -band.offset(for: 100))
        #expect(band.offset(for: 0) == 0)
        #expect(band.offset(for: 1e12) < 400)
        #expect(band.offset(for: .infinity) == 400)
        // Small overshoots move at rate c.
        #expect(abs(band.offset(for: 1e-6) / 1e-6 - 0.55) < 1e-6)
        for distance in stride(from: -900.0, through: 900, by: 7.5) {
            #expect(abs(band.distance(for: band.offset(for: distance)) - distance) < 1e-7)
        }
        let stiff = try RubberBand(coefficient: 0.2, dimension: 400)
        #expect(stiff.offset(for: 100) < band.offset(for: 100))
        #expect(band.clamp(50, to: 0...100) == 50)
        #expect(band.clamp(130, to: 0...100) == 100 + band.offset(for: 30))
        #expect(band.clamp(-30, to: 0...100) == band.offset(for: -30))
        #expect(throws: PhysicsError.self) { try RubberBand(dimension: 0) }
        #expect(throws: PhysicsError.self) { try RubberBand(coefficient: .nan, dimension: 10) }
    }

    @Test func decelerationMatchesScrollViewRates() throws {
        #expect(Deceleration.normal.rate == 0.998)
        #expect(Deceleration.fast.rate == 0.99)
        let normal = Deceleration.normal
        // After one millisecond the velocity is multiplied by the rate.
        #expect(abs(normal.velocity(initialVelocity: 1000, at: 0.001) - 998) < 1e-9)
        #expect(abs(normal.velocity(initialVelocity: 1000, at: 0.01) - 1000 * pow(0.998, 10)) < 1e-9)
        // Destination −v/(1000·ln r); within about 0.1 % of WWDC18's v/1000 · r/(1 − r).
        let destination = normal.destination(from: 10, initialVelocity: 2000)
        #expect(abs(destination - (10 - 2000 / (1000 * log(0.998)))) < 1e-9)
        #expect(abs((destination - 10) / (2 * 0.998 / 0.002) - 1) < 1.1e-3)
        // Position is the integral of velocity.
        let h = 1e-6
        for time in stride(from: 0.0, through: 3, by: 0.25) {
            let numeric =
                (normal.position(from: 0, initialVelocity: 2000, at: time + h)
                    - normal.position(from: 0, initialVelocity: 2000, at: max(0, time - h))) / (time > 0 ? 2 * h : h)
            #expect(abs(numeric - normal.velocity(initialVelocity: 2000, at: time)) < 1e-2)
        }
        let rest = normal.timeToRest(initialVelocity: 2000, threshold: 0.5)
        #expect(abs(destination - normal.position(from: 10, initialVelocity: 2000, at: rest) - 0.5) < 1e-9)
        #expect(normal.timeToRest(initialVelocity: 0) == 0)
        #expect(Deceleration.fast.timeToRest(initialVelocity: 2000) < rest)
        #expect(throws: PhysicsError.self) { try Deceleration(rate: 1) }
        let flung = normal.destination(from: Point(x: 1, y: 2), initialVelocity: Vector(dx: 0, dy: -500))
        #expect(flung.x == 1 && flung.y < 2)
    }
}

#if canImport(Glibc)
    import Glibc
#else
    import Foundation
#endif
