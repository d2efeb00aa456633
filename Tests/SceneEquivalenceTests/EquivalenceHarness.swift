import CardEngine
import CardGeometry
import CardGestures
import CardModels
import Foundation

/// What the harness found over a number of sessions: how much it compared, the largest deviations it measured
/// and the differences past the tolerances (the first `EquivalenceHarness.keptDifferences` of them).
struct EquivalenceReport: Sendable, CustomStringConvertible {
    var sessions = 0
    /// Sessions with at least one difference past the tolerances.
    var failedSessions = 0
    var framesCompared = 0
    var stepsCompared = 0
    /// The largest distance, in points, a node's corner was apart between the two scenes (rect, rotation and
    /// scale together), over nodes present in both.
    var maxGeometry = 0.0
    var maxOpacity = 0.0
    var differences: [String] = []
    /// How many haptics and deck changes the reference reported (what the sessions exercised).
    var haptics = 0
    var deckChanges = 0
    /// How many differences of each kind (nodes, geometry, opacity, text, fill, events, accessibility, deck order,
    /// input used, …).
    var kinds: [String: Int] = [:]
    /// The first difference of each kind.
    var firstOfKind: [String: String] = [:]
    /// How many differences there were in all (only the first few are kept).
    var differenceCount = 0

    var passed: Bool { differenceCount == 0 }

    var description: String {
        let figures =
            "\(sessions) sessions (\(failedSessions) failed), \(framesCompared) frames and \(stepsCompared) steps "
            + "compared, max geometry deviation \(maxGeometry) pt, max opacity deviation \(maxOpacity), "
            + "\(differenceCount) differences \(kinds.sorted { $0.key < $1.key }); the reference sent \(haptics) "
            + "haptics and \(deckChanges) deck changes"
        return ([figures] + differences.prefix(12)).joined(separator: "\n  ")
    }

    mutating func merge(_ other: EquivalenceReport) {
        sessions += other.sessions
        failedSessions += other.failedSessions
        framesCompared += other.framesCompared
        stepsCompared += other.stepsCompared
        maxGeometry = max(maxGeometry, other.maxGeometry)
        maxOpacity = max(maxOpacity, other.maxOpacity)
        differenceCount += other.differenceCount
        haptics += other.haptics
        deckChanges += other.deckChanges
        kinds.merge(other.kinds, uniquingKeysWith: +)
        firstOfKind.merge(other.firstOfKind) { first, _ in first }
        differences += other.differences.prefix(max(0, EquivalenceHarness.keptDifferences - differences.count))
    }
}

/// Plays the same script through a reference scene (a seed written in Swift) and a candidate (its description),
/// each in its own engine on the same injected clock, and compares them as a host would see them:
///
/// - every frame at 60 Hz, from the scene's opening until `settle` seconds after the last input: the same nodes
///   (ids, roles, cards) in the same paint order, each node's geometry within `geometryTolerance` points (the
///   rect, and how far rotation and scale move its corners), opacity within `opacityTolerance`, the same text
///   (strings, styles, alignment and line limits; colours and fills within one 8-bit step), whether it is leaving,
///   its look (corners, shadow, stroke, clipping, the overflow hint, the matched-geometry id) and gestures;
///   and the same events (haptics with their targets, deck changes, gesture phases);
/// - after every input: whether the scene used it (keys and actions), the deck's order and the accessibility tree
///   (roles, names, states, positions, actions: the scene's state as assistive technologies read it).
///
/// O(sessions × (frames × nodes + inputs × nodes)).
struct EquivalenceHarness {
    /// The most differences a report keeps.
    static let keptDifferences = 40

    var makeReference: () throws -> any Scene
    var makeCandidate: () throws -> any Scene
    var geometryTolerance = 0.5
    var opacityTolerance = 0.01
    /// One 8-bit colour step (a hex colour in a description against a computed one in Swift).
    var colorTolerance = 1.0 / 255 + 1e-9
    var frameRate = 60.0
    /// How long after the last input frames are still compared (springs settle).
    var settle = 2.0
    /// Whether both engines play with reduced motion (animated moves cross-fade instead).
    var reducesMotion = false
    /// The most differences one session reports before it stops (the rest usually follow from the first).
    var differencesPerSession = 6

    /// Plays every script and merges their reports.
    func run(_ scripts: [EquivalenceScript]) -> EquivalenceReport {
        var report = EquivalenceReport()
        for (index, script) in scripts.enumerated() {
            report.merge(play(script, session: index))
        }
        return report
    }

    /// Plays one script through both scenes.
    func play(_ script: EquivalenceScript, session: Int) -> EquivalenceReport {
        var report = EquivalenceReport()
        report.sessions = 1
        var session = Session(harness: self, index: session, report: report)
        do {
            var reference = Engine(
                scene: try makeReference(), viewport: script.viewport, reducesMotion: reducesMotion)
            var candidate = Engine(
                scene: try makeCandidate(), viewport: script.viewport, reducesMotion: reducesMotion)
            session.run(script, reference: &reference, candidate: &candidate)
        } catch {
            session.differ("open", "does not open: \(error)")
        }
        if session.report.differenceCount > 0 { session.report.failedSessions = 1 }
        return session.report
    }

    /// The inputs of one step, resolved against the reference engine's current frame.
    static func inputs(of step: ScriptStep, in frame: Frame) -> [InputEvent] {
        switch step {
        case .tap(let aim, let time):
            let point = resolve(aim, in: frame)
            return [
                .pointer(PointerEvent(.down, at: point, time: time)),
                .pointer(PointerEvent(.up, at: point, time: time + 0.05)),
            ]
        case .drag(let aim, let vector, let duration, let steps, let time):
            let start = resolve(aim, in: frame)
            var events: [InputEvent] = [.pointer(PointerEvent(.down, at: start, time: time))]
            for step in 1...max(1, steps) {
                let t = Double(step) / Double(max(1, steps))
                events.append(
                    .pointer(
                        PointerEvent(
                            .move, at: Point(x: start.x + vector.dx * t, y: start.y + vector.dy * t),
                            time: time + duration * t)))
            }
            events.append(
                .pointer(
                    PointerEvent(.up, at: Point(x: start.x + vector.dx, y: start.y + vector.dy), time: time + duration))
            )
            return events
        case .longPress(let aim, let hold, let time):
            let point = resolve(aim, in: frame)
            return [
                .pointer(PointerEvent(.down, at: point, time: time)),
                .pointer(PointerEvent(.up, at: point, time: time + hold)),
            ]
        case .wheel(let aim, let dx, let dy, let time):
            return [.pointer(PointerEvent(.wheel(dx: dx, dy: dy), at: resolve(aim, in: frame), time: time))]
        case .key(let key, let time):
            return [.key(key, time: time)]
        case .resize(let size, let time):
            return [.resize(size, time: time)]
        case .action(let action, let time):
            return [.action(action, time: time)]
        }
    }

    static func resolve(_ aim: Aim, in frame: Frame) -> Point {
        switch aim {
        case .point(let point):
            return point
        case .node(let rank, let fx, let fy):
            let targets = frame.nodes.filter { !$0.gestures.isEmpty && !$0.isLeaving && $0.opacity > 0.05 }.reversed()
            guard !targets.isEmpty else {
                return Point(x: frame.viewport.width / 2, y: frame.viewport.height / 2)
            }
            let node = Array(targets)[rank % targets.count]
            return Point(x: node.rect.minX + node.rect.width * fx, y: node.rect.minY + node.rect.height * fy)
        }
    }
}

/// One session in progress: the clock of sampled frames and the report so far.
private struct Session {
    /// The next frame's index (frame k is sampled at k / frameRate), and the reference's latest frame (where a
    /// step's pointer aims).
    var nextFrame = 0
    var latest: Frame?
    let harness: EquivalenceHarness
    let index: Int
    var report: EquivalenceReport

    /// Counts a difference of `kind`; its message is written only when the report keeps it (a scene far from its
    /// seed differs in most nodes of most frames).
    mutating func differ(_ kind: String, _ message: @autoclosure () -> String) {
        report.differenceCount += 1
        report.kinds[kind, default: 0] += 1
        let isFirst = report.firstOfKind[kind] == nil
        let isKept = report.differences.count < EquivalenceHarness.keptDifferences
        guard isFirst || isKept else { return }
        let text = "session \(index): \(message())"
        if isFirst { report.firstOfKind[kind] = text }
        if isKept { report.differences.append(text) }
    }

    var isDone: Bool { report.differenceCount >= harness.differencesPerSession }

    mutating func run(_ script: EquivalenceScript, reference: inout Engine, candidate: inout Engine) {
        compareState(reference, candidate, after: "opening")
        var end = 0.0
        for (number, step) in script.steps.enumerated() where !isDone {
            sample(until: step.time, reference: &reference, candidate: &candidate)
            let frame = latest ?? reference.frame(at: reference.time)
            for input in EquivalenceHarness.inputs(of: step, in: frame) where !isDone {
                sample(until: input.time, reference: &reference, candidate: &candidate)
                let used = (reference.handle(input), candidate.handle(input))
                if used.0 != used.1 {
                    differ(
                        "input used",
                        "step \(number) \(input): the reference \(used.0 ? "used" : "ignored") it, the description \(used.1 ? "used" : "ignored") it"
                    )
                }
                compareState(reference, candidate, after: "step \(number) \(input)")
            }
            end = step.end
        }
        sample(until: end + harness.settle, reference: &reference, candidate: &candidate)
    }

    /// Samples and compares every frame before `time`.
    mutating func sample(until time: Double, reference: inout Engine, candidate: inout Engine) {
        while Double(nextFrame) / harness.frameRate < time, !isDone {
            let at = Double(nextFrame) / harness.frameRate
            nextFrame += 1
            guard at >= reference.time, at >= candidate.time else { continue }
            let expected = reference.frame(at: at)
            let actual = candidate.frame(at: at)
            latest = expected
            compare(expected, actual)
        }
    }

    mutating func compareState(_ reference: Engine, _ candidate: Engine, after what: String) {
        report.stepsCompared += 1
        if reference.deck.ids != candidate.deck.ids {
            differ(
                "deck order",
                "after \(what): deck \(reference.deck.ids) in the reference, \(candidate.deck.ids) in the description")
        }
        let expected = reference.accessibilityTree()
        let actual = candidate.accessibilityTree()
        if expected.focus != actual.focus {
            differ(
                "accessibility",
                "after \(what): accessibility focus \(String(describing: expected.focus)) vs \(String(describing: actual.focus))"
            )
        }
        let ids = Set(expected.nodes.keys).union(actual.nodes.keys)
        for id in ids.sorted(by: { $0.rawValue < $1.rawValue }) {
            guard var one = expected.nodes[id], var other = actual.nodes[id] else {
                differ(
                    "accessibility",
                    "after \(what): accessibility node \(id) only in the \(expected.nodes[id] == nil ? "description" : "reference")"
                )
                return
            }
            // Bounds are geometry: within the tolerance (the two compute the same rect in a different order).
            let distance = Self.distance(one.bounds, other.bounds)
            report.maxGeometry = max(report.maxGeometry, distance)
            if distance > harness.geometryTolerance {
                differ(
                    "accessibility", "after \(what): accessibility bounds of \(id): \(one.bounds) vs \(other.bounds)")
            }
            one.bounds = .zero
            other.bounds = .zero
            if one != other {
                differ("accessibility", "after \(what): accessibility of \(id): \(one) vs \(other)")
                return
            }
        }
    }

    static func distance(_ one: Rect, _ other: Rect) -> Double {
        max(
            abs(one.minX - other.minX), abs(one.minY - other.minY), abs(one.maxX - other.maxX),
            abs(one.maxY - other.maxY))
    }

    mutating func compare(_ expected: Frame, _ actual: Frame) {
        report.framesCompared += 1
        let at = "t=\(expected.time)"
        if expected.nodes.map(\.id) != actual.nodes.map(\.id) {
            differ("nodes", "\(at): nodes \(expected.nodes.map(\.id.rawValue)) vs \(actual.nodes.map(\.id.rawValue))")
        }
        let others = Dictionary(actual.nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for node in expected.nodes {
            guard let other = others[node.id] else { continue }
            compare(node, other, at: at)
        }
        for event in expected.events {
            switch event {
            case .haptic: report.haptics += 1
            case .deckChanged: report.deckChanges += 1
            case .gesture: break
            }
        }
        let events = (expected.events.map(Self.event), actual.events.map(Self.event))
        if events.0 != events.1 { differ("events", "\(at): events \(events.0) vs \(events.1)") }
    }

    mutating func compare(_ node: FrameNode, _ other: FrameNode, at: String) {
        let geometry = Self.geometryDistance(node, other)
        let opacity = abs(node.opacity - other.opacity)
        report.maxGeometry = max(report.maxGeometry, geometry)
        report.maxOpacity = max(report.maxOpacity, opacity)
        let name = "\(at) \(node.id)"
        if geometry > harness.geometryTolerance {
            differ(
                "geometry", "\(name): geometry \(geometry) pt apart: \(Self.geometry(node)) vs \(Self.geometry(other))")
        }
        if opacity > harness.opacityTolerance {
            differ("opacity", "\(name): opacity \(node.opacity) vs \(other.opacity)")
        }
        if node.role != other.role || node.card != other.card || node.parent != other.parent {
            differ(
                "role",
                "\(name): role/card/parent \(node.role)/\(String(describing: node.card))/\(String(describing: node.parent)) vs \(other.role)/\(String(describing: other.card))/\(String(describing: other.parent))"
            )
        }
        if node.isLeaving != other.isLeaving {
            differ("leaving", "\(name): leaving \(node.isLeaving) vs \(other.isLeaving)")
        }
        if !sameText(node.text, other.text) {
            differ("text", "\(name): text \(node.text.map(\.run)) vs \(other.text.map(\.run))")
        }
        if !sameColor(node.fill, other.fill) {
            differ("fill", "\(name): fill \(String(describing: node.fill)) vs \(String(describing: other.fill))")
        }
        if !sameLook(node, other) {
            differ("look", "\(name): look \(Self.look(node)) vs \(Self.look(other))")
        }
        if node.gestures.map(\.name) != other.gestures.map(\.name) {
            differ("gestures", "\(name): gestures \(node.gestures.map(\.name)) vs \(other.gestures.map(\.name))")
        }
    }

    func sameText(_ one: [FrameText], _ other: [FrameText]) -> Bool {
        guard one.count == other.count else { return false }
        for (a, b) in zip(one, other) {
            let (x, y) = (a.run, b.run)
            guard x.text == y.text, x.style == y.style, x.weight == y.weight, x.alignment == y.alignment,
                x.lineLimit == y.lineLimit, sameColor(x.color, y.color), a.lines == b.lines
            else { return false }
        }
        return true
    }

    func sameColor(_ one: RGBA?, _ other: RGBA?) -> Bool {
        switch (one, other) {
        case (nil, nil): return true
        case (let a?, let b?):
            let tolerance = harness.colorTolerance
            return abs(a.red - b.red) <= tolerance && abs(a.green - b.green) <= tolerance
                && abs(a.blue - b.blue) <= tolerance && abs(a.alpha - b.alpha) <= tolerance
        default: return false
        }
    }

    /// Whether a host reads the same of both nodes beyond geometry and text: corners and shadows (lengths within
    /// 0.01 pt, colours within one 8-bit step), stroke, clipping, the overflow hint, the matched-geometry id.
    func sameLook(_ node: FrameNode, _ other: FrameNode) -> Bool {
        guard abs(node.cornerRadius - other.cornerRadius) <= 0.01, node.clipsContent == other.clipsContent,
            node.mayOverflow == other.mayOverflow, node.matchedGeometryID == other.matchedGeometryID,
            sameColor(node.stroke, other.stroke)
        else { return false }
        switch (node.shadow, other.shadow) {
        case (nil, nil): return true
        case (let one?, let two?):
            return abs(one.radius - two.radius) <= 0.01 && abs(one.offset.dx - two.offset.dx) <= 0.01
                && abs(one.offset.dy - two.offset.dy) <= 0.01 && sameColor(one.color, two.color)
        default: return false
        }
    }

    /// A node's look, for a difference's message.
    static func look(_ node: FrameNode) -> String {
        "corner \(node.cornerRadius) shadow \(String(describing: node.shadow)) stroke \(String(describing: node.stroke)) "
            + "clips \(node.clipsContent) overflow \(node.mayOverflow) matched \(node.matchedGeometryID ?? "none")"
    }

    static func geometry(_ node: FrameNode) -> String {
        "\(node.rect) rotation \(node.rotation) scale \(node.scale)"
    }

    /// The farthest any corner of the node is from the same corner of `other` (rect, rotation and scale applied
    /// about the rect's centre), in points.
    static func geometryDistance(_ node: FrameNode, _ other: FrameNode) -> Double {
        let one = corners(node)
        let two = corners(other)
        var distance = 0.0
        for (a, b) in zip(one, two) {
            let dx = a.x - b.x
            let dy = a.y - b.y
            distance = max(distance, (dx * dx + dy * dy).squareRoot())
        }
        return distance.isNaN ? .infinity : distance
    }

    static func corners(_ node: FrameNode) -> [Point] {
        let rect = node.rect
        let angle = node.rotation * .pi / 180
        let (sine, cosine) = (sin(angle), cos(angle))
        let halfWidth = rect.width / 2 * node.scale
        let halfHeight = rect.height / 2 * node.scale
        return [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map { corner in
            let x = corner.0 * halfWidth
            let y = corner.1 * halfHeight
            return Point(x: rect.midX + x * cosine - y * sine, y: rect.midY + x * sine + y * cosine)
        }
    }

    /// An event as both scenes must report it.
    static func event(_ event: EngineEvent) -> String {
        switch event {
        case .haptic(let haptic):
            "haptic \(haptic.style) \(String(describing: haptic.target)) \(String(describing: haptic.card)) at \(haptic.time)"
        case .deckChanged(let change): "deck \(change.ids) at \(change.time)"
        case .gesture(let note):
            "gesture \(note.kind) \(note.phase) \(note.target) \(String(describing: note.card)) at \(note.time)"
        }
    }
}
