import CardEngine
import CardGeometry
import CardModels
import CardScenes

/// The `deck` scene with a generated deck of 1,000,000 cards (100,000 in quick mode).
///
/// Re-sorting (`sort-<key>` workloads, from the deck's initial order; key ranks are cached beforehand, as after a
/// first sort by that key). The generated deck starts in title order (Card 1 … Card n, as people count them:
/// `TitleOrder`) and in sortOrder order, so those two sort descending (`sort-title-desc`, `sort-sortOrder-desc`): an
/// ascending sort would leave the order as it is.
/// - `diff`: `ReorderDiff(from:to:)` on the same two orders of card ids, moves and all — the floor (reported, with
///   no ratio: it is what the others are divided by, round by round). The scene's own diff now defers its longest
///   increasing subsequence search until a move count is read, so the scene does less than this floor (a ratio
///   under 1); a counting sort of as many ranks (`SortFloor`) was tried as the floor and left: the scene's title
///   sort read 2.6 of it in a whole run and 4.7 measured alone, a difference in the cell's own time (the engine row
///   moved the other way, 0.62 against 0.42 ms), which the diff follows in part;
/// - `scene`: the scene's whole `sort` action — the stable counting sort, the diff (its search deferred), the
///   animation plan for the visible window and the new id list for the deck-change event; `ratio_to_floor` =
///   scene / diff;
/// - `engine`: the same action through `Engine.perform`, adding the relayout and the animations it starts.
/// The goal is `scene` under 16 ms (one frame at 60 Hz) for a million cards. Each timed run gets its own scene
/// (or engine) prepared beforehand with uniquely owned arrays, as the engine's scene is.
///
/// The first sort by each key (`first-sort-<key>` workloads, `scene` impl): the same action on a scene just opened,
/// whose key ranks are not computed yet — what a person sorting a freshly opened deck waits for. Each run opens
/// its own scene (untimed); `ratio_to_floor` = first sort / the same sort on a scene just opened whose ranks of the
/// key are cached (sorted by it and back, untimed): what ranking the key adds, ≈ 1 when the first sort costs what a
/// later one does. The goal is the same 16 ms.
///
/// Layout (`layout` workload, `scene` impl): one `layout(in:)` scrolled to the middle of the deck; the floor is the
/// same on a 1,000-card deck, so `ratio_to_floor` ≈ 1 shows layout is O(visible), not O(n).
struct DeckSceneSuite: BenchSuite {
    let name = "deck"

    func run(_ context: BenchContext) {
        let n = context.quick ? 100_000 : 1_000_000
        let sorts: [(String, DeckSort)] = [
            ("sort-title-desc", DeckSort(.title, descending: true)), ("sort-color", DeckSort(.color)),
            ("sort-sortOrder-desc", DeckSort(.sortOrder, descending: true)),
        ]
        let wanted = sorts.filter { context.selects("deck/\($0.0)/\(n)/u64", impls: ["diff", "scene", "engine"]) }
        let wantsLayout = context.selects("deck/layout/\(n)/u64", impls: ["scene"])
        if context.selects("deck/state-snapshot/\(n)/u64", impls: ["scene"]) { runSnapshot(context, n: n) }
        let wantedFirst = sorts.filter { context.selects("deck/first-\($0.0)/\(n)/u64", impls: ["scene"]) }
        guard !wanted.isEmpty || wantsLayout || !wantedFirst.isEmpty else { return }
        for (workload, sort) in wantedFirst {
            context.progress("deck/first-\(workload)/\(n)")
            runFirstSort(context, workload: "first-" + workload, sort: sort, n: n)
        }
        guard !wanted.isEmpty || wantsLayout else { return }
        context.progress("deck: generating \(n) cards")
        guard var scene = try? DeckScene(options: SceneOptions(cardCount: n)) else { return }
        let viewport = Size(width: 390, height: 844)
        var context0 = SceneContext(time: 0, viewport: viewport)
        // Prime the key-rank caches, then return to the initial order (ascending sortOrder = generation order).
        for key in DeckSort.Key.allCases {
            try? scene.perform(SceneAction("sort", ["by": .string(key.rawValue)]), context: &context0)
        }
        let oldIDs = scene.deck.ids
        for (workload, sort) in wanted {
            context.progress("deck/\(workload)/\(n)")
            runSort(context, workload: workload, sort: sort, scene: scene, oldIDs: oldIDs, viewport: viewport)
        }
        if wantsLayout { runLayout(context, n: n, viewport: viewport) }
    }

    private func action(_ sort: DeckSort) -> SceneAction {
        SceneAction(
            "sort", ["by": .string(sort.key.rawValue), "order": .string(sort.descending ? "descending" : "ascending")])
    }

    private func runSort(
        _ context: BenchContext, workload: String, sort: DeckSort, scene: DeckScene, oldIDs: [CardID], viewport: Size
    ) {
        let n = oldIDs.count
        var sorted = scene
        var scratch = SceneContext(time: 0, viewport: viewport)
        try? sorted.perform(action(sort), context: &scratch)
        let newIDs = sorted.deck.ids
        let moves = (try? ReorderDiff(from: oldIDs, to: newIDs))?.moves.count ?? -1

        // Each round sorts its own scene whose arrays are uniquely owned (as the engine's scene is), so no round pays
        // for copy-on-write of the million-entry arrays: sort one way and back before timing. The floor, the diff
        // of the same two orders, is timed in the same round.
        let sortAction = action(sort)
        let back = SceneAction("sort", ["by": .string("sortOrder")])
        let diff = { try? ReorderDiff(from: oldIDs, to: newIDs) }
        let sceneSamples = measureCell(
            "\(name)/\(workload)/\(n)/u64/scene", rounds: gateRounds(context),
            prepare: { () -> DeckScene in
                var copy = scene
                try? copy.perform(sortAction, context: &scratch)
                try? copy.perform(back, context: &scratch)
                return copy
            },
            { copy in
                var sceneContext = SceneContext(time: 1, viewport: viewport)
                try? copy.perform(sortAction, context: &sceneContext)
                return copy.sort
            }, floor: diff)
        let engineSamples = measureCell(
            "\(name)/\(workload)/\(n)/u64/engine", rounds: gateRounds(context),
            prepare: { () -> Engine in
                var engine = Engine(scene: scene, viewport: viewport)
                try? engine.perform(sortAction, at: 0)
                try? engine.perform(back, at: 0)
                _ = engine.frame(at: 0)  // drops the preparation's events outside the timing
                return engine
            },
            { copy in
                try? copy.perform(sortAction, at: 1)
                return copy.time
            }, floor: diff)
        func row(_ impl: String, _ samples: CellSamples) -> BenchRow {
            BenchRow(
                suite: name, workload: workload, n: n, key: "u64", impl: impl, samples: samples,
                metrics: [("moves", Double(moves)), ("frame_budget_ratio", samples.cell.medianMs / 16)])
        }
        context.emit(
            BenchRow(
                suite: name, workload: workload, n: n, key: "u64", impl: "diff", timing: sceneSamples.floor,
                metrics: [("moves", Double(moves)), ("frame_budget_ratio", sceneSamples.floor.medianMs / 16)],
                note: "the floor of the scene and engine rows"))
        var scene = row("scene", sceneSamples)
        if sort == DeckSort(.sortOrder, descending: true) {
            // One binary on an idle machine measured this cell at 0.31–0.34 × the diff in some runs and 0.50–0.60 in
            // others minutes apart (the scene's sort itself 0.55 vs 1.5 ms), while the engine row beside it, whose
            // time includes this very sort, held 0.64–0.69. A 1.6–1.8× swing between runs is past any minimum
            // effect that keeps 2× power, so gated it would either raise false alarms or miss 2×. The engine row
            // guards the code: a 2× slower scene sort (half of its time) moves it 1.5×, past its minimum effect.
            scene.reportOnly = "swings 1.6-1.8x between runs of one binary; the engine row, which includes it, is gated"
        }
        context.emit(scene)
        context.emit(row("engine", engineSamples))
    }

    private func runFirstSort(_ context: BenchContext, workload: String, sort: DeckSort, n: Int) {
        let viewport = Size(width: 390, height: 844)
        // One freshly opened scene per timing, opened outside it (its arrays uniquely owned). The floor's scene has
        // sorted by the key and back to the initial order before its timing, so its ranks are cached and its sort
        // ends in the same order through the same counting sort and diff: the ratio is what ranking adds.
        let sortAction = action(sort)
        let back = SceneAction("sort", ["by": .string("sortOrder")])
        // The cell and the floor time the same call; only their scenes differ.
        let sortScene = { (scene: inout DeckScene?) -> DeckSort? in
            var sceneContext = SceneContext(time: 1, viewport: viewport)
            try? scene?.perform(sortAction, context: &sceneContext)
            return scene?.sort
        }
        let samples = measureCell(
            "\(name)/\(workload)/\(n)/u64/scene", rounds: gateRounds(context),
            prepare: { try? DeckScene(options: SceneOptions(cardCount: n)) }, sortScene,
            prepareFloor: { () -> DeckScene? in
                guard var scene = try? DeckScene(options: SceneOptions(cardCount: n)) else { return nil }
                var sceneContext = SceneContext(time: 0, viewport: viewport)
                try? scene.perform(sortAction, context: &sceneContext)
                try? scene.perform(back, context: &sceneContext)
                return scene
            }, floor: sortScene)
        context.emit(
            BenchRow(
                suite: name, workload: workload, n: n, key: "u64", impl: "scene", samples: samples,
                metrics: [("frame_budget_ratio", samples.cell.medianMs / 16)],
                note: "a scene just opened; floor: the same sort with the key's ranks cached"))
    }

    /// `state-snapshot`: `encodeState()` of a large deck whose history is too long to replay, sorted by title on
    /// top of a user's order (both as packed card indices): what the saver's thread does at a journal compaction.
    /// Floor: packing the same two orders as little-endian UInt32s and writing them in base64 (`Floors.base64`),
    /// without JSON. The base64 keeps the ratio with the machine: over the packing alone (stores, which a busy
    /// sibling hyperthread hardly slows), an unchanged build read 39–41 in some processes and 46–59 in others on a
    /// machine with another process spinning on one core, and 1.23× its baseline in a CI run with no load of ours.
    private func runSnapshot(_ context: BenchContext, n: Int) {
        let viewport = Size(width: 390, height: 844)
        guard var scene = try? DeckScene(options: SceneOptions(cardCount: n)) else { return }
        var sceneContext = SceneContext(time: 0, viewport: viewport)
        // More sorts than the replay budget (200 card steps per card, a sort 2) holds: the state is the packed order.
        for index in 0...100 {
            try? scene.sortDeck(by: index % 2 == 0 ? .id : .title, descending: index % 3 == 0, context: &sceneContext)
        }
        try? scene.perform(action(DeckSort(.title)), context: &sceneContext)
        let count = n
        var packed = [UInt8](repeating: 0, count: count * 4)
        var text = [UInt8](repeating: 0, count: Floors.base64Count(count * 4))
        let samples = measureCell(
            "\(name)/state-snapshot/\(n)/u64/scene", rounds: gateRounds(context),
            { () -> Int in scene.encodeState()?.count ?? 0 },
            floor: { () -> Int in
                // Into buffers made once (as `encodeState`'s output is one string per order, the floor's is one
                // buffer): a floor that allocated its megabyte each round changed where the cell's own landed.
                var written = 0
                for order in 0..<2 {
                    packed.withUnsafeMutableBytes { raw in
                        for index in 0..<count {
                            raw.storeBytes(
                                of: UInt32(truncatingIfNeeded: index &+ order).littleEndian, toByteOffset: index * 4,
                                as: UInt32.self)
                        }
                    }
                    written += packed.withUnsafeBytes { bytes in
                        text.withUnsafeMutableBufferPointer { Floors.base64(bytes, into: $0) }
                    }
                }
                return written
            })
        let bytes = scene.encodeState()?.count ?? 0
        context.emit(
            BenchRow(
                suite: name, workload: "state-snapshot", n: n, key: "u64", impl: "scene", samples: samples,
                metrics: [("bytes", Double(bytes))],
                note: "encodeState of both orders packed; floor: packing them as UInt32s in base64"))
    }

    private func runLayout(_ context: BenchContext, n: Int, viewport: Size) {
        func scrolledScene(count: Int) -> DeckScene? {
            guard var scene = try? DeckScene(options: SceneOptions(cardCount: count)) else { return nil }
            var sceneContext = SceneContext(time: 0, viewport: viewport)
            let middle = DeckMetrics(viewport: viewport).maxOffset(count: count) / 2
            try? scene.perform(SceneAction("scroll", ["to": .number(middle)]), context: &sceneContext)
            return scene
        }
        guard let large = scrolledScene(count: n), let small = scrolledScene(count: 1_000) else { return }
        let repeats = 1_000
        let samples = measureCell(
            "\(name)/layout/\(n)/u64/scene", rounds: gateRounds(context),
            {
                var nodes = 0
                for _ in 0..<repeats { nodes &+= large.layout(in: viewport).count }
                return nodes
            },
            floor: {
                var nodes = 0
                for _ in 0..<repeats { nodes &+= small.layout(in: viewport).count }
                return nodes
            })
        context.emit(
            BenchRow(
                suite: name, workload: "layout", n: n, key: "u64", impl: "scene", samples: samples,
                metrics: [
                    ("us_per_layout", samples.cell.medianMs * 1000 / Double(repeats)),
                    ("nodes", Double(large.layout(in: viewport).count)),
                ],
                note: "\(repeats) layouts; floor: the same on 1,000 cards"))
    }
}
