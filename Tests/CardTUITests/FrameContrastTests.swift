import CardEngine
import CardGeometry
import CardModels
import CardScenes
import Testing

@testable import CardCells
@testable import CardTUI

/// Text at rest is legible against what is behind it (issue 46, item 4): every scene's frame, at the seed data, after
/// each of its actions and with a generated deck where it takes a card count, at the point viewports of the four
/// tour sizes — the terminal's own frames (measured in cells) and a graphical host's (`StandardTextMeasurer`) — by
/// `FrameContrastLint`, and the terminal's cells of the same moments by `ContrastLint`, with no exemption for the
/// seeds' colour pairs (only what a scrim covers, which WCAG exempts as inactive).
@Suite struct FrameContrastTests {
    static let sizes = [(60, 20), (80, 24), (120, 40), (200, 60)]

    /// One state of a scene: how it was opened and the action performed (nil: the scene as opened).
    struct Case: CustomStringConvertible {
        var scene: String
        var options: SceneOptions
        var action: SceneAction?

        var description: String {
            let deck = options.cardCount.map { " (\($0) cards)" } ?? ""
            guard let action else { return scene + deck }
            let arguments = action.arguments.keys.sorted().map { "\($0)=\(action.arguments[$0]!)" }
            return "\(scene)\(deck) \(action.name) \(arguments.joined(separator: " "))"
        }
    }

    /// Values that exercise an argument of `kind` in a deck of `ids`: every card (at most twelve), the first and
    /// last position, every whole number of a short range (else its ends), a number inside its range, each choice.
    static func values(_ kind: ActionArgument.Kind, ids: [CardID]) -> [ActionValue] {
        switch kind {
        case .card: return ids.prefix(12).map { .string($0.description) }
        case .position: return ids.isEmpty ? [] : [.number(0), .number(Double(ids.count - 1))]
        case .integer(let minimum, let maximum):
            let low = minimum ?? 0
            let high = maximum ?? low + 1
            return high - low <= 10
                ? (low...high).map { .number(Double($0)) } : [.number(Double(low)), .number(Double(high))]
        case .number(let minimum, let maximum):
            let low = minimum ?? 0
            return [.number(low), .number(min(maximum ?? 300, low + 300))]
        case .string(let choices): return choices.map(ActionValue.string)
        case .boolean: return [.bool(true), .bool(false)]
        }
    }

    /// Every action instance of `descriptor` over a deck of `ids`: each combination of the required arguments'
    /// values, each `exactlyOneOf` member alone, and each optional argument's values added to the first combination.
    static func actions(of descriptor: SceneDescriptor, ids: [CardID]) -> [SceneAction] {
        var result: [SceneAction] = []
        for info in descriptor.actions where info.availability.holds(cardCount: ids.count) {
            var combinations: [[String: ActionValue]] = [[:]]
            for argument in info.arguments where argument.isRequired {
                combinations = combinations.flatMap { partial in
                    values(argument.kind, ids: ids).map { value in partial.merging([argument.name: value]) { $1 } }
                }
            }
            if info.exactlyOneOf.isEmpty {
                result += combinations.map { SceneAction(info.name, $0) }
            }
            for argument in info.arguments where !argument.isRequired {
                for value in values(argument.kind, ids: ids) {
                    result.append(SceneAction(info.name, combinations[0].merging([argument.name: value]) { $1 }))
                }
            }
        }
        return result
    }

    /// Every case of the standard catalogue: each scene as opened and after each action, and again with a generated
    /// deck of 60 cards where the scene takes a card count.
    static var cases: [Case] {
        var result: [Case] = []
        for descriptor in SceneCatalog.standard.descriptors {
            var decks = [SceneOptions()]
            if descriptor.takesCardCount { decks.append(SceneOptions(cardCount: 60)) }
            for options in decks {
                guard let scene = try? SceneCatalog.standard.make(descriptor.name, options: options) else { continue }
                result.append(Case(scene: descriptor.name, options: options, action: nil))
                for action in actions(of: descriptor, ids: scene.deckIDs) {
                    result.append(Case(scene: descriptor.name, options: options, action: action))
                }
            }
        }
        return result
    }

    /// The app at `columns × rows` showing `item`'s scene at rest after its action; nil if the scene refused it.
    static func settled(_ item: Case, columns: Int, rows: Int) -> (AppDriver, CellBuffer)? {
        var driver = AppDriver(columns: columns, rows: rows)
        driver.app = TUIApp(
            columns: columns, rows: rows,
            configuration: TUIApp.Configuration(catalog: .standard, sceneOptions: item.options))
        guard driver.app.open(item.scene, at: 0) else { return nil }
        driver.draw(at: 5)
        if let action = item.action {
            do { try driver.app.engine?.perform(action, at: 6) } catch { return nil }
        }
        var buffer = driver.draw(at: 30)
        if driver.app.lastFrame?.isAnimating == true { buffer = driver.draw(at: 120) }
        return (driver, buffer)
    }

    /// The graphical host's frame of `item` at `viewport`, at rest; nil if the scene refused the action.
    static func hostFrame(_ item: Case, viewport: Size) -> Frame? {
        guard let scene = try? SceneCatalog.standard.make(item.scene, options: item.options) else { return nil }
        var engine = Engine(scene: scene, viewport: viewport)
        if let action = item.action {
            do { try engine.perform(action, at: 1) } catch { return nil }
        }
        let frame = engine.frame(at: 30)
        return frame.isAnimating ? engine.frame(at: 120) : frame
    }

    /// Every run of every frame at rest has its contrast: the terminal's frames and a graphical host's.
    @Test(arguments: sizes)
    func everyRunIsLegibleAgainstWhatIsBehindIt(columns: Int, rows: Int) throws {
        // The first finding of each colour pair, per scene and front end.
        var found: [String: String] = [:]
        func note(_ host: String, _ item: Case, _ finding: FrameContrastLint.Finding) {
            let key = "\(host) \(item.scene) \(finding.contrast.pair)"
            if found[key] == nil { found[key] = "\(host), \(item): \(finding)" }
        }
        var refused: [Case] = []
        let cases = Self.cases
        for item in cases {
            guard let (driver, _) = Self.settled(item, columns: columns, rows: rows),
                let frame = driver.app.lastFrame, let engine = driver.app.engine
            else {
                refused.append(item)
                continue
            }
            #expect(!frame.isAnimating, "\(item) is still moving")
            let lint = FrameContrastLint(measurer: engine.textMeasurer)
            for finding in lint.findings(in: frame) {
                note("terminal", item, finding)
            }
            if let host = Self.hostFrame(item, viewport: frame.viewport) {
                for finding in FrameContrastLint().findings(in: host) {
                    note("host", item, finding)
                }
            }
        }
        // Every state is reached: a scene refuses only an argument-less action that undoes what is not there (the
        // deck's `collapse` with no card expanded), whose state is the scene as opened, checked anyway.
        let unexplained = refused.filter { $0.action.map { !$0.arguments.isEmpty } ?? true }
        #expect(unexplained.isEmpty && cases.count > 100, "\(cases.count) cases, refused: \(unexplained.prefix(10))")
        #expect(
            found.isEmpty,
            "\(columns)x\(rows), \(found.count) runs:\n\(found.values.sorted().prefix(40).joined(separator: "\n"))")
    }

    /// Every glyph of the terminal's cells at rest, in the same states, is legible: no exemption for the seeds'
    /// own colour pairs.
    @Test(arguments: sizes)
    func everyCellIsLegibleWithoutSeedExemptions(columns: Int, rows: Int) throws {
        var found: [String: String] = [:]
        for item in Self.cases {
            guard let (driver, buffer) = Self.settled(item, columns: columns, rows: rows) else { continue }
            for violation in ContrastLintTests.violations(driver, buffer) {
                let key = violation.contrast.pair
                if found[key] == nil { found[key] = "\(item): \(violation)" }
            }
        }
        #expect(found.isEmpty, "\(columns)x\(rows):\n\(found.values.sorted().joined(separator: "\n"))")
    }

    /// The lint finds text over what is behind it: white on yellow fails, black on yellow passes, a title (large
    /// text) needs only 3:1, a translucent fill mixes with what is under it, a later fill hides the text, and a
    /// clipping ancestor hides what lies outside it.
    @Test func theFrameLintMeasuresWhatIsBehindTheText() {
        let yellow = RGBA(red: 1, green: 0.8, blue: 0)
        func node(
            _ id: String, _ rect: Rect, parent: String? = nil, fill: RGBA? = nil, opacity: Double = 1,
            text: [TextRun] = [], clips: Bool = false
        ) -> FrameNode {
            FrameNode(
                id: NodeID(id), role: text.isEmpty ? .background : .text, card: nil, parent: parent.map { NodeID($0) },
                rect: rect, z: 0, opacity: opacity, rotation: 0, scale: 1, cornerRadius: 0, fill: fill, stroke: nil,
                shadow: nil, text: text.map { FrameText(run: $0, lines: [$0.text]) }, matchedGeometryID: nil,
                isLeaving: false, clipsContent: clips)
        }
        let card = Rect(x: 0, y: 0, width: 200, height: 100)
        func findings(_ nodes: [FrameNode]) -> [String] {
            let frame = Frame(
                time: 0, viewport: Size(width: 400, height: 400), nodes: nodes, events: [], isAnimating: false)
            return FrameContrastLint().findings(in: frame).map(\.text)
        }
        let white = TextRun("white", color: .white)
        let black = TextRun("black", color: .black)
        let title = TextRun("title", style: .title, color: RGBA(red: 0.58, green: 0.58, blue: 0.58))
        // White (1.51:1) and grey body text (2.97:1 on white) fail; black passes; the same grey as a title passes.
        #expect(findings([node("card", card, fill: yellow, text: [white, black])]) == ["white"])
        #expect(findings([node("t", card, text: [title])]).isEmpty)
        #expect(findings([node("t", card, text: [TextRun("grey", color: title.color)])]) == ["grey"])
        // The yellow behind a child text node counts; at 30 % over black the white passes.
        #expect(
            findings([node("card", card, fill: yellow), node("t", card, parent: "card", text: [white])]) == ["white"])
        #expect(
            findings([
                node("page", card, fill: .black), node("card", card, fill: yellow.opacity(0.3)),
                node("t", card, text: [white]),
            ]).isEmpty)
        // A later opaque fill over the text hides it; a clipping parent that does not reach the text hides it.
        #expect(findings([node("card", card, fill: yellow, text: [white]), node("cover", card, fill: .white)]).isEmpty)
        #expect(
            findings([
                node("clip", Rect(x: 0, y: 0, width: 200, height: 10), clips: true),
                node("card", card, parent: "clip", fill: yellow, text: [white]),
            ]).isEmpty)
    }
}
