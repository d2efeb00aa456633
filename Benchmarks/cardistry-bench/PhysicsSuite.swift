import CardPhysics

#if canImport(Glibc)
    import Glibc
#endif

/// Closed-form spring evaluations and one timeline frame.
///
/// Cells:
/// - `physics/spring-eval/N/<regime>/closed-form`: N evaluations of value + velocity (`Spring.transition(at:)`
///   applied to an offset and a velocity) at varied times. Floor: `floor-exp`, the same loop computing only
///   `x₀·e^(−αt) + v₀·t·e^(−αt)` — one `exp` and a few multiplies, the least any decaying motion costs.
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
        let floorDecay = Spring.smooth.damping / 2
        let floorLoop = { () -> Double in
            var sum = 0.0
            for _ in 0..<rounds {
                for time in times {
                    let envelope = exp(-floorDecay * time)
                    sum += 100 * envelope + 3 * time * envelope
                }
            }
            return sum
        }
        var floorEmitted = false
        for (regime, spring) in regimes {
            context.progress("physics: \(count) \(regime)-damped evaluations")
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
                }, floor: floorLoop)
            if !floorEmitted {
                floorEmitted = true
                context.emit(row(context, "spring-eval", count, "floor", "floor-exp", samples.floor, samples: nil))
            }
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
