import CardEngine
import CardGeometry
import CardGestures
import CardModels

/// Plays seeded random sessions through a described scene under the frame lint: what `cardistry scene check`
/// runs, and the loader fuzz plays every description it does not refuse.
///
/// A session opens the scene in a random viewport, then sends random taps, drags (slow and flung), keys and
/// actions at increasing times, sampling frames as it goes and once every animation should have settled.
/// Problems: a non-finite number in a frame, a lint finding at rest (`FrameLint`, and `FrameContrastLint` unless
/// `checksContrast` is off), an animation still running 30 seconds after the last input. O(sessions × inputs × nodes).
package struct ScenePlayer {
    /// One problem found, with the session and time it was found at.
    package struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The session's index.
        package var session: Int
        /// What is wrong.
        package var message: String

        package var description: String { "session \(session): \(message)" }
    }

    /// The description played.
    package let description: SceneDescription
    /// How many inputs a session sends.
    package var inputs = 12
    /// Whether a frame at rest must also pass `FrameContrastLint` (text legible against what is behind it, over
    /// the description's background): what `cardistry scene check` asks of a scene a person will read; the
    /// loader fuzz, which looks for crashes and non-finite frames in mutated descriptions, turns it off.
    package var checksContrast = true

    /// A player of `description`.
    package init(_ description: SceneDescription) { self.description = description }

    /// Plays `count` sessions from `seed`; every problem found, at most `limit` of them.
    package func play(sessions count: Int, seed: UInt64, limit: Int = 100) -> [Problem] {
        var problems: [Problem] = []
        var random = SplitMix64(seed: seed)
        for session in 0..<count where problems.count < limit {
            problems += play(session: session, random: &random)
        }
        return Array(problems.prefix(limit))
    }

    func play(session: Int, random: inout SplitMix64) -> [Problem] {
        var problems: [Problem] = []
        let viewport = Size(
            width: Double.random(in: 120...1600, using: &random), height: Double.random(in: 80...1000, using: &random))
        let scene: DescribedScene
        do {
            scene = try DescribedScene(description: description)
        } catch {
            return [Problem(session: session, message: "does not open: \(error)")]
        }
        var engine = Engine(scene: scene, viewport: viewport)
        let lint = FrameLint()
        let contrast = FrameContrastLint(page: description.backgroundFill ?? .white)
        var time = 0.0
        func check(_ frame: Frame, atRest: Bool) {
            for node in frame.nodes {
                let numbers = [
                    node.rect.minX, node.rect.minY, node.rect.width, node.rect.height, node.opacity, node.rotation,
                    node.scale, node.z,
                ]
                if numbers.contains(where: { !$0.isFinite }) {
                    problems.append(
                        Problem(session: session, message: "t=\(frame.time) \(node.id): a non-finite number"))
                    return
                }
            }
            if atRest {
                for finding in lint.findings(in: frame) {
                    problems.append(Problem(session: session, message: finding.description))
                }
                for finding in checksContrast ? contrast.findings(in: frame) : [] {
                    problems.append(Problem(session: session, message: "text hard to read: \(finding)"))
                }
            }
        }
        check(engine.frame(at: time), atRest: false)
        let keys = description.descriptor.keyHelp.flatMap(\.names) + ["x"]
        let actions = description.descriptor.actions
        for _ in 0..<inputs {
            time += Double.random(in: 0.01...0.8, using: &random)
            let point = Point(
                x: Double.random(in: 0...viewport.width, using: &random),
                y: Double.random(in: 0...viewport.height, using: &random))
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                engine.handle(.pointer(PointerEvent(.down, at: point, time: time)))
                time += 0.05
                engine.handle(.pointer(PointerEvent(.up, at: point, time: time)))
            case 1, 2:
                let end = Point(
                    x: Double.random(in: -50...(viewport.width + 50), using: &random),
                    y: Double.random(in: -50...(viewport.height + 50), using: &random))
                let duration = Double.random(in: 0.03...0.9, using: &random)
                engine.handle(.pointer(PointerEvent(.down, at: point, time: time)))
                for step in 1...6 {
                    let t = Double(step) / 6
                    engine.handle(
                        .pointer(
                            PointerEvent(
                                .move,
                                at: Point(x: point.x + (end.x - point.x) * t, y: point.y + (end.y - point.y) * t),
                                time: time + duration * t)))
                    if step == 3 { check(engine.frame(at: time + duration * t), atRest: false) }
                }
                time += duration
                engine.handle(.pointer(PointerEvent(.up, at: end, time: time)))
            case 3:
                engine.handle(.key(KeyInput(keys.randomElement(using: &random) ?? "x"), time: time))
            default:
                guard let action = actions.randomElement(using: &random) else { continue }
                var arguments: [String: ActionValue] = [:]
                if action.argument("card") != nil, Bool.random(using: &random),
                    let card = engine.deck.ids.randomElement(using: &random)
                {
                    arguments["card"] = .string(card.description)
                }
                try? engine.perform(SceneAction(action.name, arguments), at: time)
            }
            check(engine.frame(at: time + Double.random(in: 0...0.3, using: &random)), atRest: false)
            time += 0.3
        }
        // Every animation settles: 30 s after the last input nothing moves, and the frame at rest passes the lint.
        time += 30
        let rest = engine.frame(at: time)
        if rest.isAnimating {
            problems.append(Problem(session: session, message: "t=\(time): still animating 30 s after the last input"))
        }
        check(rest, atRest: true)
        return problems
    }
}
