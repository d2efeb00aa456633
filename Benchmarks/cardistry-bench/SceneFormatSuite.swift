import CardEngine
import CardGeometry
import CardGestures
import CardJSON
import CardModels
import CardSceneFormat
import CardScenes
import Foundation

/// Scenes described as data (`CardSceneFormat`, docs/scenes.md): the cost of a frame and of a pointer event in the
/// board of `scenes/board.json` at 1,000 cards and in a 100,000-card column, and a data layout beside the same layout
/// written in Swift.
///
/// - `sceneformat/board-frame/1000/<idle|dragging>/engine`: `Engine.frame(at:)` on the board with 1,000 cards, at
///   rest and while a finger drags a card. Floor: building as many `FrameNode`s from fixed values.
/// - `sceneformat/board-pointer/1000/drag-move/engine`: one pointer move while a card is dragged (the arena, the
///   drag's values, the relayout the bindings ask for), beside the same floor.
/// - `sceneformat/column-frame/100000/<idle|scrolled>/engine` and `sceneformat/column-pointer/100000/wheel/engine`:
///   a scrolling column of 100,000 cards; a frame at rest, a frame after scrolling halfway, and one wheel event.
/// - `sceneformat/stack-layout/10000/data-vs-swift/engine`: the flashcards scene's stack described as data, laid out
///   (`Scene.layout(in:)`) with the Swift scene's layout of the same deck as its floor, round by round in one run:
///   its `ratio_to_floor` *is* the data layout's cost over Swift's (the issue asks for at most 1.5).
struct SceneFormatSuite: BenchSuite {
    let name = "sceneformat"

    func run(_ context: BenchContext) {
        board(context, count: 1_000)
        column(context, count: context.quick ? 20_000 : 100_000)
        stack(context, count: 10_000)
    }

    // MARK: The board

    /// `scenes/board.json` with `count` cards spread over its three columns.
    static func boardDescription(count: Int) -> SceneDescription? {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../scenes/board.json")
        guard let bytes = try? Data(contentsOf: file), var json = try? JSONValue(parsing: Array(bytes)) else {
            return nil
        }
        let colors = ["#5856d6", "#007aff", "#34c759", "#ff9500", "#af52de", "#ff2d55", "#30b0c7", "#a2845e"]
        json.set(
            "cards",
            .array(
                (0..<count).map { index in
                    .object([
                        JSONValue.Member("id", .number(String(index + 1))),
                        JSONValue.Member("title", .string("Card \(index + 1)")),
                        JSONValue.Member("color", .string(colors[index % colors.count])),
                    ])
                }))
        return try? SceneDescription.load(json)
    }

    private func board(_ context: BenchContext, count: Int) {
        guard context.selects("\(name)/board") else { return }
        guard var engine = engine(context, Self.boardDescription(count: count), what: "scenes/board.json") else {
            return
        }
        let idle = engine.frame(at: 10)
        frames(
            context, workload: "board-frame", n: count, state: "idle", engine: engine, at: 10, nodes: idle.nodes.count)
        // A finger on the first card of the first column, dragged past the drag's minimum distance.
        let start = Point(x: 40, y: 60)
        var time = 11.0
        _ = engine.handle(.pointer(PointerEvent(.down, at: start, time: time)))
        for step in 1...4 {
            time += 1.0 / 60
            _ = engine.handle(
                .pointer(PointerEvent(.move, at: start + Vector(dx: Double(step) * 6, dy: 0), time: time)))
        }
        let dragging = engine.frame(at: time)
        frames(
            context, workload: "board-frame", n: count, state: "dragging", engine: engine, at: time,
            nodes: dragging.nodes.count)
        pointerMoves(
            context, workload: "board-pointer", n: count, engine: engine, from: start + Vector(dx: 24, dy: 0),
            time: time, nodes: dragging.nodes.count)
    }

    // MARK: The column

    /// One column of `count` cards that scrolls (wheel or drag on the background), laid out only where visible.
    static func columnDescription(count: Int) -> SceneDescription? {
        let text = """
            {"format": 1, "name": "column", "takesDeck": true, "background": "#1c1f2b",
             "card": {"size": ["vw - 32", "56"], "cornerRadius": 10, "fill": "card.color",
                      "nodes": [{"name": "title", "role": "text", "rect": ["10", "8", "cw - 20", "ch - 16"],
                                 "text": {"text": "{title}", "color": "label", "lineLimit": 1}}]},
             "layouts": [{"name": "column", "kind": "column", "padding": 16, "spacing": 8, "top": 16,
                          "x": "16", "scroll": true}]}
            """
        return try? SceneDescription.load(bytes: Array(text.utf8))
    }

    /// A deck of `count` plain cards.
    static func columnDeck(count: Int) -> Deck? {
        try? Deck(
            (0..<count).map { index in
                Card(id: CardID(UInt64(index + 1)), title: "Card \(index + 1)", color: .blue, sortOrder: index)
            })
    }

    private func column(_ context: BenchContext, count: Int) {
        guard context.selects("\(name)/column") else { return }
        guard
            var engine = engine(
                context, Self.columnDescription(count: count), deck: Self.columnDeck(count: count),
                what: "the column description")
        else { return }
        let idle = engine.frame(at: 10)
        frames(
            context, workload: "column-frame", n: count, state: "idle", engine: engine, at: 10, nodes: idle.nodes.count)
        wheels(context, n: count, engine: engine, time: 11, nodes: idle.nodes.count)
    }

    // MARK: Data against Swift

    /// The flashcards scene's stack as data (each card's frame from expressions of its index and the count, as the
    /// Swift scene computes it, without the text it lays out for the top three cards only), laid out beside the
    /// Swift scene round by round: the cell's `ratio_to_floor` is the data layout's time over the Swift one's.
    private func stack(_ context: BenchContext, count: Int) {
        let cellID = "\(name)/stack-layout/\(count)/data-vs-swift/engine"
        guard context.selects(cellID: cellID) || context.selects("\(name)/stack-layout") else { return }
        let text = """
            {"format": 1, "name": "stack", "takesDeck": true,
             "card": {"size": ["min(450, vw - 32)", "250"], "cornerRadius": 25, "fill": "#ffffff", "shadow": 10},
             "layouts": [{"name": "stack", "kind": "stack", "x": "(vw - cw) / 2",
                          "y": "(vh - ch - n * 10) / 2 + (n - i) * 10", "z": "i"}]}
            """
        let cards = (0..<count).map { index in
            Card(
                id: CardID(UInt64(index + 1)), title: "Q\(index)", color: .white, sortOrder: index,
                payload: .flashcard(Flashcard(prompt: "Question \(index)", answer: "Answer \(index)")))
        }
        guard let deck = try? Deck(cards), let swift = try? FlashcardsScene(options: SceneOptions(deck: deck)),
            let description = try? SceneDescription.load(bytes: Array(text.utf8)),
            let data = try? DescribedScene(description: description, options: SceneOptions(deck: deck))
        else { return }
        let viewport = Size(width: 844, height: 390)
        let samples = measureCell(
            cellID, rounds: gateRounds(context), { data.layout(in: viewport).count },
            floor: { swift.layout(in: viewport).count })
        context.emit(
            BenchRow(
                suite: name, workload: "stack-layout", n: count, key: "data-vs-swift", impl: "engine",
                samples: samples,
                metrics: [
                    ("ratio_to_swift", samples.ratio), ("swift_ms", samples.floor.medianMs),
                    // The fastest rounds' ratio: what a busy machine's spread leaves alone.
                    ("ratio_of_minima", samples.cell.minMs / samples.floor.minMs),
                ]))
    }

    // MARK: Measuring

    /// An engine playing `description` (on `deck`, when given) in a phone's viewport, or nil, said on standard error.
    private func engine(_ context: BenchContext, _ description: SceneDescription?, deck: Deck? = nil, what: String)
        -> Engine?
    {
        guard let description,
            let scene = try? DescribedScene(description: description, options: SceneOptions(deck: deck))
        else {
            context.progress("sceneformat: \(what) did not load; its cells are skipped")
            return nil
        }
        return Engine(scene: scene, viewport: Size(width: 390, height: 844))
    }

    /// A frame of `engine` at `time` against building as many frame nodes from fixed values.
    private func frames(
        _ context: BenchContext, workload: String, n: Int, state: String, engine: Engine, at time: Double, nodes: Int
    ) {
        let floorNodes = SceneSuite.floorNodes(count: nodes)
        var copy = engine
        let samples = measureCell(
            "\(name)/\(workload)/\(n)/\(state)/engine", rounds: gateRounds(context),
            { copy.frame(at: time).nodes.count }, floor: { SceneSuite.buildFloor(floorNodes, 0).count })
        context.emit(
            BenchRow(
                suite: name, workload: workload, n: n, key: state, impl: "engine", samples: samples,
                metrics: [
                    ("frame_share_60hz", samples.cell.medianMs / (1000.0 / 60) * 100), ("nodes", Double(nodes)),
                ]))
    }

    /// One pointer move of a drag in progress (back and forth over 40 points, a 60 Hz pointer), against the floor.
    private func pointerMoves(
        _ context: BenchContext, workload: String, n: Int, engine: Engine, from start: Point, time: Double,
        nodes: Int
    ) {
        events(context, workload: workload, n: n, key: "drag-move", engine: engine, nodes: nodes) { step in
            let offset = Double(step % 40) - 20
            return PointerEvent(
                .move, at: start + Vector(dx: offset, dy: offset / 2), time: time + Double(step) / 60)
        }
    }

    /// One wheel event over the column (down then up again, so it never leaves the content), against the floor.
    private func wheels(_ context: BenchContext, n: Int, engine: Engine, time: Double, nodes: Int) {
        events(context, workload: "column-pointer", n: n, key: "wheel", engine: engine, nodes: nodes) { step in
            let dy = step % 200 < 100 ? 40.0 : -40.0
            return PointerEvent(.wheel(dx: 0, dy: dy), at: Point(x: 195, y: 400), time: time + Double(step) / 60)
        }
    }

    /// The cost of one pointer event, the `step`-th of `event`'s stream, handled by a copy of `engine`, against
    /// building `nodes` frame nodes.
    private func events(
        _ context: BenchContext, workload: String, n: Int, key: String, engine: Engine, nodes: Int,
        _ event: (Int) -> PointerEvent
    ) {
        let floorNodes = SceneSuite.floorNodes(count: nodes)
        var copy = engine
        var step = 0
        let samples = measureCell(
            "\(name)/\(workload)/\(n)/\(key)/engine", rounds: gateRounds(context),
            {
                step += 1
                return copy.handle(.pointer(event(step)))
            }, floor: { SceneSuite.buildFloor(floorNodes, 0).count })
        context.emit(
            BenchRow(
                suite: name, workload: workload, n: n, key: key, impl: "engine", samples: samples,
                metrics: [("event_share_60hz", samples.cell.medianMs / (1000.0 / 60) * 100)]))
    }
}
