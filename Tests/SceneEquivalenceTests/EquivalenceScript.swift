import CardEngine
import CardGeometry
import CardGestures
import CardModels

/// Where a pointer input lands: a fixed point, or a node of the reference scene's frame at the moment the input
/// is played (so a random session hits cards wherever they are). Both scenes receive the same resolved point.
enum Aim: Sendable, Hashable {
    /// This point, in viewport points.
    case point(Point)
    /// The `rank`-th node (modulo their count) among the nodes that carry gestures, topmost first, at the given
    /// fraction of its width and height (0.5, 0.5 is its centre); a point in the middle of the viewport when no
    /// node carries a gesture.
    case node(rank: Int, fx: Double, fy: Double)
}

/// One input of an equivalence script, starting at `time` (seconds on the injected clock).
enum ScriptStep: Sendable, Hashable {
    /// A press and release 0.05 s later.
    case tap(Aim, time: Double)
    /// A press, `steps` moves along `by` over `duration`, and a release where the last move went; a short
    /// duration is a flick.
    case drag(Aim, by: Vector, duration: Double, steps: Int, time: Double)
    /// A press held `hold` seconds, then released where it started.
    case longPress(Aim, hold: Double, time: Double)
    /// A wheel (or trackpad scroll) event.
    case wheel(Aim, dx: Double, dy: Double, time: Double)
    /// A key press.
    case key(KeyInput, time: Double)
    /// The viewport changes size.
    case resize(Size, time: Double)
    /// A host's action.
    case action(SceneAction, time: Double)

    /// When the step starts.
    var time: Double {
        switch self {
        case .tap(_, let time), .drag(_, _, _, _, let time), .longPress(_, _, let time), .wheel(_, _, _, let time),
            .key(_, let time), .resize(_, let time), .action(_, let time):
            time
        }
    }

    /// When the step's last input happens.
    var end: Double {
        switch self {
        case .tap(_, let time): time + 0.05
        case .drag(_, _, let duration, _, let time): time + duration
        case .longPress(_, let hold, let time): time + hold
        default: time
        }
    }
}

/// A script: the viewport a session opens in and its steps, in time order (each starts after the previous ends).
struct EquivalenceScript: Sendable, Hashable {
    var viewport: Size
    var steps: [ScriptStep]
}

/// Seeded random sessions for the harness: taps, drags, flicks, long presses, wheel, keys, resizes and the
/// scene's actions (with arguments its descriptor allows), aimed mostly at the nodes that carry gestures. The same
/// seed gives the same scripts on every machine (`SplitMix64`).
struct EquivalenceScriptGenerator {
    /// The descriptor whose keys and actions the sessions use.
    var descriptor: SceneDescriptor
    /// The cards an action may name (the scene's initial deck; a card no longer in the deck tests the refusal).
    var cards: [CardID]
    /// How many steps a session has (inclusive range).
    var steps: ClosedRange<Int> = 8...18

    /// The scripts of `count` sessions from `seed`.
    func sessions(_ count: Int, seed: UInt64) -> [EquivalenceScript] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in session(&random) }
    }

    func session(_ random: inout SplitMix64) -> EquivalenceScript {
        let viewport = Self.viewport(&random)
        var time = 0.2
        var script: [ScriptStep] = []
        let keys = descriptor.keyHelp.flatMap(\.names) + ["x", "escape"]
        for _ in 0..<Int.random(in: steps, using: &random) {
            time +=
                [0.0, 0.05, 0.2, 0.5, 1.2].randomElement(using: &random)! + Double.random(in: 0..<0.05, using: &random)
            let aim = Self.aim(&random)
            let step: ScriptStep
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<20: step = .tap(aim, time: time)
            case 20..<40:
                step = Self.drag(aim, reach: (500, 300), duration: 0.15...1.2, steps: 2...12, time: time, &random)
            case 40..<52:
                // A flick: short and fast.
                step = Self.drag(aim, reach: (400, 150), duration: 0.03...0.12, steps: 2...4, time: time, &random)
            case 52..<60: step = .longPress(aim, hold: Double.random(in: 0.3...1.2, using: &random), time: time)
            case 60..<65:
                step = .wheel(
                    aim, dx: Double.random(in: -60...60, using: &random),
                    dy: Double.random(in: -120...120, using: &random),
                    time: time)
            case 65..<82:
                step = .key(KeyInput(keys.randomElement(using: &random)!), time: time)
            case 82..<88: step = .resize(Self.viewport(&random), time: time)
            default:
                guard let action = self.action(&random) else { continue }
                step = .action(action, time: time)
            }
            script.append(step)
            time = step.end
        }
        return EquivalenceScript(viewport: viewport, steps: script)
    }

    /// A drag from `aim` by up to `reach` points each way, over a duration and a number of moves from the ranges.
    static func drag(
        _ aim: Aim, reach: (Double, Double), duration: ClosedRange<Double>, steps: ClosedRange<Int>, time: Double,
        _ random: inout SplitMix64
    ) -> ScriptStep {
        let vector = Vector(
            dx: Double.random(in: -reach.0...reach.0, using: &random),
            dy: Double.random(in: -reach.1...reach.1, using: &random))
        return .drag(
            aim, by: vector, duration: Double.random(in: duration, using: &random),
            steps: Int.random(in: steps, using: &random), time: time)
    }

    static func viewport(_ random: inout SplitMix64) -> Size {
        // Phones, tablets, desktop windows and the terminal's 80×24 cells in points, with some odd sizes.
        let common = [
            Size(width: 390, height: 844), Size(width: 844, height: 390), Size(width: 1024, height: 768),
            Size(width: 1440, height: 900), Size(width: 640, height: 384), Size(width: 320, height: 240),
        ]
        if Bool.random(using: &random) { return common.randomElement(using: &random)! }
        return Size(
            width: Double.random(in: 200...1600, using: &random).rounded(),
            height: Double.random(in: 160...1000, using: &random).rounded())
    }

    static func aim(_ random: inout SplitMix64) -> Aim {
        if Int.random(in: 0..<10, using: &random) < 8 {
            // Mostly the topmost node; sometimes one under it.
            let rank = Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 1..<8, using: &random) : 0
            return .node(
                rank: rank, fx: Double.random(in: 0.1...0.9, using: &random),
                fy: Double.random(in: 0.1...0.9, using: &random))
        }
        return .point(
            Point(x: Double.random(in: 0...1600, using: &random), y: Double.random(in: 0...1000, using: &random)))
    }

    /// One of the descriptor's actions with random (mostly valid) arguments.
    func action(_ random: inout SplitMix64) -> SceneAction? {
        guard let info = descriptor.actions.randomElement(using: &random) else { return nil }
        var arguments: [String: ActionValue] = [:]
        for argument in info.arguments where argument.isRequired || Bool.random(using: &random) {
            switch argument.kind {
            case .card:
                if let card = cards.randomElement(using: &random) {
                    arguments[argument.name] = .string(card.description)
                }
            case .string(let choices):
                arguments[argument.name] = .string(choices.randomElement(using: &random) ?? "x")
            case .boolean: arguments[argument.name] = .bool(Bool.random(using: &random))
            case .integer, .position:
                arguments[argument.name] = .number(Double(Int.random(in: 0..<max(1, cards.count), using: &random)))
            case .number(let minimum, let maximum):
                arguments[argument.name] = .number(
                    Double.random(in: (minimum ?? -100)...(maximum ?? 100), using: &random))
            }
        }
        return SceneAction(info.name, arguments)
    }
}
