import CardModels
import CardPhysics

/// The project's seeded generator (CardModels' `SplitMix64`); the packages under test do not import CardModels,
/// their tests may.
typealias SplitMix64 = CardModels.SplitMix64

extension CardModels.SplitMix64 {
    /// A log-uniform number in [low, high].
    mutating func logUniform(_ low: Double, _ high: Double) -> Double {
        exp(Double.random(in: log(low)...log(high), using: &self))
    }
}

/// Integrates m·x″ + c·x′ + k·x = 0 with classical fourth-order Runge–Kutta, recording every step.
func rungeKutta(
    spring: Spring, offset: Double, velocity: Double, step: Double, steps: Int
) -> [(time: Double, position: Double, velocity: Double)] {
    let k = spring.stiffness / spring.mass
    let c = spring.damping / spring.mass
    func acceleration(_ x: Double, _ v: Double) -> Double { -k * x - c * v }
    var x = offset
    var v = velocity
    var result = [(time: 0.0, position: x, velocity: v)]
    result.reserveCapacity(steps + 1)
    for index in 1...steps {
        let k1x = v
        let k1v = acceleration(x, v)
        let k2x = v + step / 2 * k1v
        let k2v = acceleration(x + step / 2 * k1x, v + step / 2 * k1v)
        let k3x = v + step / 2 * k2v
        let k3v = acceleration(x + step / 2 * k2x, v + step / 2 * k2v)
        let k4x = v + step * k3v
        let k4v = acceleration(x + step * k3x, v + step * k3v)
        x += step / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
        v += step / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
        result.append((Double(index) * step, x, v))
    }
    return result
}

#if canImport(Glibc)
    import Glibc
#else
    import Foundation
#endif
