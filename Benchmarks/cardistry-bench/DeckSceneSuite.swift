import CardEngine
import CardModels
import CardScenes

/// The `deck` scene with a generated deck of 1,000,000 cards (100,000 in quick mode).
///
/// Re-sorting (`sort-<key>` workloads, from the deck's initial order; key ranks are cached beforehand, as after a
/// first sort by that key):
/// - `diff`: `ReorderDiff(from:to:)` on the same two orders of card ids — the floor, since the scene must report
///   this diff anyway;
/// - `scene`: the scene's whole `sort` action — the stable counting sort, the diff, the animation plan for the
///   visible window and the new id list for the deck-change event; `ratio_to_floor` = scene / diff;
/// - `engine`: the same action through `Engine.perform`, adding the relayout and the animations it starts.
/// The goal is `scene` under 16 ms (one frame at 60 Hz) for a million cards. Each timed run gets its own scene
/// (or engine) prepared beforehand with uniquely owned arrays, as the engine's scene is.
///
/// The first sort by each key (`first-sort-<key>` workloads, `scene` impl): the same action on a scene just opened,
/// whose key ranks are not computed yet — what a person sorting a freshly opened deck waits for. Each run opens
/// its own scene (untimed); `ratio_to_floor` = first sort / the diff of the same two orders. The goal is the same
/// 16 ms.
///
/// Layout (`layout` workload, `scene` impl): one `layout(in:)` scrolled to the middle of the deck; the floor is the
/// same on a 1,000-card deck, so `ratio_to_floor` ≈ 1 shows layout is O(visible), not O(n).
struct DeckSceneSuite: BenchSuite {
    let name = "deck"

    func run(_ context: BenchContext) {
        let n = context.quick ? 100_000 : 1_000_000
        let sorts: [(String, DeckSort)] = [
            ("sort-title", DeckSort(.title)), ("sort-color", DeckSort(.color)),
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

        let diffTiming = measure(runs: context.runs) { try? ReorderDiff(from: oldIDs, to: newIDs) }
        // Each run sorts its own scene whose arrays are uniquely owned (as the engine's scene is), so no run pays
        // for copy-on-write of the million-entry arrays: sort one way and back before timing.
        let sortAction = action(sort)
        let back = SceneAction("sort", ["by": .string("sortOrder")])
        var scenes: [DeckScene] = (0...context.runs).map { _ in
            var copy = scene
            try? copy.perform(sortAction, context: &scratch)
            try? copy.perform(back, context: &scratch)
            return copy
        }
        let sceneTiming = measure(runs: context.runs) {
            var copy = scenes.removeLast()
            var sceneContext = SceneContext(time: 1, viewport: viewport)
            try? copy.perform(sortAction, context: &sceneContext)
            return copy.sort
        }
        var engines: [Engine] = (0...context.runs).map { _ in
            var engine = Engine(scene: scene, viewport: viewport)
            try? engine.perform(sortAction, at: 0)
            try? engine.perform(back, at: 0)
            _ = engine.frame(at: 0)  // drops the preparation's events outside the timing
            return engine
        }
        let engineTiming = measure(runs: context.runs) {
            var copy = engines.removeLast()
            try? copy.perform(sortAction, at: 1)
            return copy.time
        }
        func row(_ impl: String, _ timing: Timing, ratio: Double) -> BenchRow {
            BenchRow(
                suite: name, workload: workload, n: n, key: "u64", impl: impl, timing: timing, ratioToFloor: ratio,
                metrics: [("moves", Double(moves)), ("frame_budget_ratio", timing.medianMs / 16)])
        }
        context.emit(row("diff", diffTiming, ratio: 1))
        context.emit(row("scene", sceneTiming, ratio: sceneTiming.medianMs / diffTiming.medianMs))
        context.emit(row("engine", engineTiming, ratio: engineTiming.medianMs / diffTiming.medianMs))
    }

    private func runFirstSort(_ context: BenchContext, workload: String, sort: DeckSort, n: Int) {
        let viewport = Size(width: 390, height: 844)
        guard let opened = try? DeckScene(options: SceneOptions(cardCount: n)) else { return }
        let oldIDs = opened.deck.ids
        var sorted = opened
        var scratch = SceneContext(time: 0, viewport: viewport)
        try? sorted.perform(action(sort), context: &scratch)
        let newIDs = sorted.deck.ids
        let diffTiming = measure(runs: context.runs) { try? ReorderDiff(from: oldIDs, to: newIDs) }
        // One freshly opened scene per run, opened outside the timing (its arrays uniquely owned).
        var samples: [Double] = []
        for run in 0...context.runs {
            guard var scene = try? DeckScene(options: SceneOptions(cardCount: n)) else { return }
            let sortAction = action(sort)
            let sample = milliseconds { () -> DeckSort? in
                var sceneContext = SceneContext(time: 1, viewport: viewport)
                try? scene.perform(sortAction, context: &sceneContext)
                return scene.sort
            }
            if run > 0 { samples.append(sample) }
        }
        let timing = Timing(samples: samples)
        context.emit(
            BenchRow(
                suite: name, workload: workload, n: n, key: "u64", impl: "scene", timing: timing,
                ratioToFloor: timing.medianMs / diffTiming.medianMs,
                metrics: [("frame_budget_ratio", timing.medianMs / 16)],
                note: "a scene just opened; floor: the diff alone"))
    }

    /// `state-snapshot`: `encodeState()` of a large deck whose history is too long to replay, sorted by title on
    /// top of a user's order (both as packed card indices): what the saver's thread does at a journal compaction.
    /// Floor: packing the same two orders as little-endian UInt32s, without base64 or JSON.
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
        let (floor, timing) = measureSideBySide(runs: context.runs) { () -> Int in
            var bytes = [UInt8](repeating: 0, count: count * 8)
            bytes.withUnsafeMutableBytes { raw in
                for index in 0..<(count * 2) {
                    raw.storeBytes(
                        of: UInt32(truncatingIfNeeded: index).littleEndian, toByteOffset: index * 4, as: UInt32.self)
                }
            }
            return bytes.count
        } _: { () -> Int in
            scene.encodeState()?.count ?? 0
        }
        let bytes = scene.encodeState()?.count ?? 0
        context.emit(
            BenchRow(
                suite: name, workload: "state-snapshot", n: n, key: "u64", impl: "scene", timing: timing,
                ratioToFloor: timing.medianMs / floor.medianMs, metrics: [("bytes", Double(bytes))],
                note: "encodeState of both orders packed; floor: packing them as UInt32s"))
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
        let largeTiming = measure(runs: context.runs) {
            var nodes = 0
            for _ in 0..<repeats { nodes &+= large.layout(in: viewport).count }
            return nodes
        }
        let smallTiming = measure(runs: context.runs) {
            var nodes = 0
            for _ in 0..<repeats { nodes &+= small.layout(in: viewport).count }
            return nodes
        }
        context.emit(
            BenchRow(
                suite: name, workload: "layout", n: n, key: "u64", impl: "scene", timing: largeTiming,
                ratioToFloor: largeTiming.medianMs / smallTiming.medianMs,
                metrics: [
                    ("us_per_layout", largeTiming.medianMs * 1000 / Double(repeats)),
                    ("nodes", Double(large.layout(in: viewport).count)),
                ],
                note: "\(repeats) layouts; floor: the same on 1,000 cards"))
    }
}
