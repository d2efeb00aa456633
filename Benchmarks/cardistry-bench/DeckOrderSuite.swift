import CardEngine
import CardModels

/// `DeckOrder` measured directly, without a scene, on a generated deck of 1,000,000 cards (100,000 in quick mode):
/// what the deck scene, a described deck and the stdio server's deck requests all stand on.
///
/// - `make` (`order` impl, reported, not gated): a new order of the deck, which for a large deck computes every key's
///   ranks (what a first sort by any key would otherwise pay). Floor: the titles sorted by the standard library, the
///   comparison sort ranking them needs at least.
/// - `move-near` and `move-far`: a card moved 3 slots (a drop beside its place) or n/2 slots and back; each round
///   includes its share of the settling every 256th move. Floor: the same two memmoves of the order's slots and ids.
/// - `sort-<key>` (title, color, sortOrder — the user's order after a move, kept apart by a title sort — id,
///   colorNumber): one sort over cached ranks, put in place, from an order sorted by another key. Floor: a stable
///   counting sort of as many cards by random ranks with as many distinct values (`SortFloor`).
///
/// Each timing of a sort runs on its own copy whose arrays it owns alone (prepared, untimed), as the scene's order.
struct DeckOrderSuite: BenchSuite {
    let name = "order"

    func run(_ context: BenchContext) {
        let n = context.quick ? 100_000 : 1_000_000
        let sorts: [(String, DeckOrder.Key)] = [
            ("sort-title", .title), ("sort-color", .color), ("sort-sortOrder", .sortOrder), ("sort-id", .id),
            ("sort-colorNumber", .colorNumber),
        ]
        let wantsMake = context.selects("order/make/\(n)/u64", impls: ["order"])
        let moves = [("move-near", 3), ("move-far", n / 2)].filter {
            context.selects("order/\($0.0)/\(n)/u64", impls: ["order"])
        }
        let wanted = sorts.filter { context.selects("order/\($0.0)/\(n)/u64", impls: ["order"]) }
        guard wantsMake || !moves.isEmpty || !wanted.isEmpty else { return }
        context.progress("order: generating \(n) cards")
        let deck = DeckGenerator.deck(count: n)
        if wantsMake { runMake(context, deck: deck) }
        var order = DeckOrder(deck, checksum: OrderChecksum.of)
        for (workload, distance) in moves {
            context.progress("order/\(workload)/\(n)")
            runMove(context, workload: workload, distance: distance, order: &order)
        }
        guard !wanted.isEmpty else { return }
        // The user's order apart from the display order (a move, then a scene sort), as a sort back to it meets it.
        order.move(from: 0, to: 1)
        order.apply(DeckOrder.Sort(.title))
        for (workload, key) in wanted {
            context.progress("order/\(workload)/\(n)")
            runSort(context, workload: workload, key: key, order: order)
        }
    }

    private func runMake(_ context: BenchContext, deck: Deck) {
        let n = deck.count
        let titles = deck.cards.map(\.title)
        let samples = measureCell(
            "\(name)/make/\(n)/u64/order", rounds: gateRounds(context),
            { DeckOrder(deck, checksum: OrderChecksum.of).count }, floor: { titles.sorted().count })
        var row = BenchRow(
            suite: name, workload: "make", n: n, key: "u64", impl: "order", samples: samples,
            note: "every key's ranks; floor: the titles sorted")
        // It allocates some 30 bytes a card of ranks, and its time follows the heap: one run's median was 2.6× its
        // minimum. The scene's `deck/first-sort-*` rows gate the ranking.
        row.reportOnly = "allocates every key's ranks; its median swung 2.6x its minimum in one run"
        context.emit(row)
    }

    private func runMove(_ context: BenchContext, workload: String, distance: Int, order: inout DeckOrder) {
        let n = order.count
        let from = (n - distance) / 2
        var slots = [Int32](repeating: 0, count: n)
        var ids = [CardID](repeating: CardID(0), count: n)
        let samples = measureCell(
            "\(name)/\(workload)/\(n)/u64/order", rounds: gateRounds(context),
            { () -> Int in
                order.move(from: from, to: from + distance)
                order.move(from: from + distance, to: from)
                return order.card(at: from)
            },
            floor: { () -> Int in
                // The memory a move shifts, twice: the slots and the ids between its ends, by one.
                for (source, target) in [(from + 1, from), (from, from + 1)] {
                    slots.withUnsafeMutableBufferPointer { slots in
                        let base = slots.baseAddress!
                        UnsafeMutableRawPointer(base + target).copyMemory(
                            from: base + source, byteCount: distance * MemoryLayout<Int32>.stride)
                    }
                    ids.withUnsafeMutableBufferPointer { ids in
                        let base = ids.baseAddress!
                        UnsafeMutableRawPointer(base + target).copyMemory(
                            from: base + source, byteCount: distance * MemoryLayout<CardID>.stride)
                    }
                }
                return Int(slots[from])
            })
        context.emit(
            BenchRow(
                suite: name, workload: workload, n: n, key: "u64", impl: "order", samples: samples,
                metrics: [("distance", Double(distance))], note: "a move and back; floor: their memmoves"))
    }

    private func runSort(_ context: BenchContext, workload: String, key: DeckOrder.Key, order: DeckOrder) {
        let n = order.count
        let distinct: Int
        switch key {
        case .color, .colorNumber:
            distinct = Set(order.base.cards.lazy.map { $0.color }).count
        case .title:
            distinct = Set(order.base.cards.lazy.map(\.title)).count
        case .sortOrder, .id:
            distinct = n
        }
        let floor = SortFloor(count: n, distinct: distinct, seed: 47)
        // From an order by another key; the scene sort keeps the user's order apart, a host sort makes its result
        // the user's.
        let start = key == .title ? DeckOrder.Sort(.color) : DeckOrder.Sort(.title)
        let sortsAsHost = key == .id || key == .colorNumber
        let samples = measureCell(
            "\(name)/\(workload)/\(n)/u64/order", rounds: gateRounds(context),
            prepare: { () -> DeckOrder in
                var copy = order
                copy.apply(start)
                return copy
            },
            { copy in
                if sortsAsHost { return copy.hostSort(by: key, descending: false).sources.count }
                return copy.apply(DeckOrder.Sort(key)).sources.count
            }, floor: { floor.milliseconds() })
        context.emit(
            BenchRow(
                suite: name, workload: workload, n: n, key: "u64", impl: "order", samples: samples,
                metrics: [("distinct", Double(distinct)), ("frame_budget_ratio", samples.cell.medianMs / 16)],
                note: "over cached ranks; floor: a counting sort of as many ranks"))
    }
}
