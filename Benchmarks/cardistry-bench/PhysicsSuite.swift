import CardPhysics

#if canImport(Glibc)
    import Glibc
#endif

/// Closed-form spring evaluations and one timeline frame.
///
/// Cells:
/// - `physics/spring-eval/N/<regime>/closed-form`: N evaluations of value + velocity (`Spring.transition(at:)`
///   applied to an offset and a velocity) at varied times. Floor: `<regime>/floor-flat`, the same loop over the
///   regime's closed form written out flat from the spring's mass, stiffness and damping (`FlatSpring`): the same
///   `exp`, `sin`/`cos` or `cosh`/`sinh` calls and about the same arithmetic, with no `Spring` or
///   `MotionTransition` around them. The ratio is what the type costs over its maths (about 1). A floor of the
///   same shape is what keeps the ratio still when the machine is shared: against a bare `exp` loop, the
///   under-damped cell read 4.0 on a quiet host and 4.4–5.3 when another tenant's load slowed arithmetic more than
///   `exp` (1.10–1.33 for the critical cell, in fresh processes minutes apart), which no gate with the power to see
///   a 1.3× slowdown can tell from one.
/// - `physics/timeline-frame/40000/springs/timeline`: sampling every entry of an `AnimationTimeline` holding
///   10,000 cards × 4 scalar properties, all in flight. Floor: the same 40,000 closed-form evaluations over flat
///   arrays with no timeline around them. `frame_share_120hz` is the frame's share of an 8.33 ms frame, in %.
struct PhysicsSuite: BenchSuite {
    let name = "physics"

    func run(_ context: BenchContext) {
        if context.selects("physics/spring-eval") { springEvaluations(context) }
        if context.selects("physics/timeline-frame") { timelineFrame(context) }
    }

    private func springEvaluations(_ context: BenchContext) {
        let count = context.quick ? 200_000 : 2_000_000
        // 1,000 times spread over 0…0.7 s, cycled: the loop stays in cache, so memory does not blur the maths.
        let times = (0..<1000).map { Double($0) * 0.0007 }
        let rounds = count / times.count
        let regimes: [(String, Spring)] = [
            ("under", .bouncy), ("critical", .smooth),
            ("over", (try? Spring(duration: 0.5, bounce: -0.4)) ?? .smooth),
        ]
        for (regime, spring) in regimes {
            context.progress("physics: \(count) \(regime)-damped evaluations")
            let flat = FlatSpring(spring)
            let cellSum = spring.sumOfMotion(over: times)
            let floorSum = flat.sum(over: times, rounds: 1)
            precondition(
                abs(cellSum - floorSum) <= 1e-9 * max(1, abs(cellSum)),
                "the \(regime) floor computes another motion: \(floorSum) against the spring's \(cellSum)")
            let samples = measureCell(
                "\(name)/spring-eval/\(count)/\(regime)/closed-form", rounds: gateRounds(context),
                { () -> Double in
                    var sum = 0.0
                    for _ in 0..<rounds {
                        for time in times {
                            let map = spring.transition(at: time)
                            sum += map.offset(from: 100, velocity: 3) + map.velocity(from: 100, velocity: 3)
                        }
                    }
                    return sum
                }, floor: { flat.sum(over: times, rounds: rounds) })
            context.emit(row(context, "spring-eval", count, regime, "floor-flat", samples.floor, samples: nil))
            context.emit(row(context, "spring-eval", count, regime, "closed-form", samples.cell, samples: samples))
        }
    }

    private struct CardProperty: Hashable, Sendable {
        var card: Int32
        var property: UInt8
    }

    private func timelineFrame(_ context: BenchContext) {
        let cards = 10_000
        let properties = 4
        let animations: [Animation] = [.smooth, .snappy, .bouncy, .spring]
        var timeline = AnimationTimeline<CardProperty, Double>()
        var springs: [Spring] = []
        var offsets: [Double] = []
        var targets: [Double] = []
        for card in 0..<cards {
            for property in 0..<properties {
                let animation = animations[(card + property) % animations.count]
                let target = Double(card * 7 + property * 13)
                let start = target - 120 - Double(card % 17)
                timeline.animate(
                    CardProperty(card: Int32(card), property: UInt8(property)), to: target, with: animation, at: 0,
                    from: start)
                springs.append(animation.spring ?? .smooth)
                offsets.append(start - target)
                targets.append(target)
            }
        }
        let n = cards * properties
        let time = 0.1
        context.progress("physics: timeline frame of \(cards) cards × \(properties) properties")
        var values: [Double] = []
        values.reserveCapacity(n)
        let flatLoop = { () -> Double in
            var sum = 0.0
            for index in 0..<n {
                let map = springs[index].transition(at: time)
                sum += targets[index] + map.offset(from: offsets[index], velocity: 0)
                sum += map.velocity(from: offsets[index], velocity: 0)
            }
            return sum
        }
        let rounds = gateRounds(context) * 2
        let frame = measureCell(
            "\(name)/timeline-frame/\(n)/springs/timeline", rounds: rounds,
            { () -> Double in
                var sum = 0.0
                timeline.forEachSample(at: time) { _, value, velocity in sum += value + velocity }
                return sum
            }, floor: flatLoop)
        let fill = measureCell(
            "\(name)/timeline-frame/\(n)/springs/sampleAll", rounds: rounds,
            { () -> Int in
                timeline.sampleAll(at: time, into: &values)
                return values.count
            }, floor: flatLoop)
        context.emit(row(context, "timeline-frame", n, "springs", "flat-closed-form", frame.floor, samples: nil))
        context.emit(row(context, "timeline-frame", n, "springs", "timeline", frame.cell, samples: frame, frame: true))
        context.emit(row(context, "timeline-frame", n, "springs", "sampleAll", fill.cell, samples: fill, frame: true))
    }

    private func row(
        _ context: BenchContext, _ workload: String, _ n: Int, _ key: String, _ impl: String, _ timing: Timing,
        samples: CellSamples?, frame: Bool = false
    ) -> BenchRow {
        let nanoseconds = timing.medianMs * 1e6 / Double(n)
        var metrics: [(String, Double)] = [
            ("ns_per_eval", nanoseconds), ("evals_per_sec", 1e9 / nanoseconds),
        ]
        if frame { metrics.append(("frame_share_120hz", timing.medianMs / (1000.0 / 120) * 100)) }
        guard let samples else {
            return BenchRow(
                suite: name, workload: workload, n: n, key: key, impl: impl, timing: timing, metrics: metrics)
        }
        return BenchRow(suite: name, workload: workload, n: n, key: key, impl: impl, samples: samples, metrics: metrics)
    }
}

extension Spring {
    /// The sum of x + x′ for d₀ = 100, v₀ = 3 at every time: what one round of the cell adds up.
    func sumOfMotion(over times: [Double]) -> Double {
        times.reduce(0) { sum, time in
            let map = transition(at: time)
            return sum + map.offset(from: 100, velocity: 3) + map.velocity(from: 100, velocity: 3)
        }
    }
}

/// A spring's closed form written out flat, the floor of `physics/spring-eval`: the formulas at the top of
/// `Spring+Motion.swift` (x = e^(−αt)·((C + αS)·d₀ + S·v₀), x′ = e^(−αt)·(−ω₀²S·d₀ + (C − αS)·v₀)) computed from
/// the spring's public mass, stiffness and damping, with the same branch for the over-damped case.
struct FlatSpring {
    let alpha: Double
    let naturalSquared: Double
    /// ω_d (under-damped), β (over-damped) or 0 (critical).
    let frequency: Double
    let kind: Int

    init(_ spring: Spring) {
        alpha = spring.damping / (2 * spring.mass)
        naturalSquared = spring.stiffness / spring.mass
        // The regimes as `Spring` tells them apart: (α − ω₀)(α + ω₀) against 1e-12·ω₀².
        let omega0 = naturalSquared.squareRoot()
        let discriminant = (alpha - omega0) * (alpha + omega0)
        if abs(discriminant) <= 1e-12 * naturalSquared {
            kind = 1
            frequency = 0
        } else if discriminant < 0 {
            kind = 0
            frequency = (-discriminant).squareRoot()
        } else {
            kind = 2
            frequency = discriminant.squareRoot()
        }
    }

    /// The sum of x + x′ for d₀ = 100, v₀ = 3 at every time, `rounds` times over.
    func sum(over times: [Double], rounds: Int) -> Double {
        var sum = 0.0
        for _ in 0..<rounds {
            for time in times {
                let envelope: Double
                let c: Double
                let s: Double
                switch kind {
                case 0:
                    envelope = exp(-alpha * time)
                    c = cos(frequency * time)
                    s = sin(frequency * time) / frequency
                case 1:
                    envelope = exp(-alpha * time)
                    c = 1
                    s = time
                default:
                    let bt = frequency * time
                    if bt < 1 {
                        envelope = exp(-alpha * time)
                        c = cosh(bt)
                        s = sinh(bt) / frequency
                    } else {
                        // The separate exponentials the spring switches to, folded back into the same shape.
                        let slow = exp((-alpha + frequency) * time)
                        let fast = exp((-alpha - frequency) * time)
                        envelope = 1
                        c = (slow + fast) / 2
                        s = (slow - fast) / (2 * frequency)
                    }
                }
                sum += envelope * ((c + alpha * s) * 100 + s * 3)
                sum += envelope * (-naturalSquared * s * 100 + (c - alpha * s) * 3)
            }
        }
        return sum
    }
}
