import CardModels
import CardPersistence
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Saving and loading decks of 10k, 100k and 1M cards through `JSONFileStore`, with the fast path and with
/// Foundation's Codable side by side (quick mode: 10k only).
///
/// Rows (key `plain`: `DeckGenerator` decks):
/// - `save/fast`, `save/codable`: a full store save (lock, validation of the previous file, temp file, fsync,
///   `.bak` link, rename, directory fsync). Floor: a raw `write` + `fsync` of the same bytes to a new file.
/// - `load/fast`, `load/codable`: a full store load. Divisor (`floor` in the row): reading the same file and parsing
///   it with Foundation's `JSONSerialization` into generic objects (`Floors.foundationParse`), work of the same
///   shape from code outside this repository; a raw `read` plus UTF-8 validation (0.1 ms for 10,000 cards) moved
///   against the load by 1.6× between processes, more than a gate with the power to see 2× can allow. The ratio is
///   about 0.08: the typed load is about twelve times faster than the generic parse (0.080–0.083 in three processes).
/// The fast rows are gated: each round times the operation and its floor (see `measureCell`). Codable rows,
/// Foundation's code, are reported only, so a change in Foundation cannot fail the gate.
/// - `roundtrip/fast`: save + load, each round against Codable's save + load of the same deck; its
///   `ratio_to_floor` is fast ÷ Codable (lower is better; the goal is ≤ 0.1, i.e. at least 10× faster), and
///   `speedup` is Codable ÷ fast.
/// Metrics: `file_mb`, `mb_per_s` (file size ÷ median time), `peak_mb` (peak resident memory above the start of
/// one operation) and `peak_over_file` (goal ≤ 3 for the fast path).
struct PersistenceSuite: BenchSuite {
    let name = "persistence"

    func run(_ context: BenchContext) {
        let sizes = context.quick ? [10_000] : [10_000, 100_000, 1_000_000]
        let root = NSTemporaryDirectory() + "/cardistry-bench-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: root) }
        for count in sizes
        where ["save", "load", "roundtrip"].contains(where: { context.selects("\(name)/\($0)/\(count)/plain") }) {
            context.progress("persistence: \(count) cards")
            do {
                try measureSize(count, root: root + "/\(count)", context: context)
            } catch {
                context.progress("persistence: \(count) cards failed: \(error)")
            }
        }
    }

    private func measureSize(_ count: Int, root: String, context: BenchContext) throws {
        let deck = DeckGenerator.deck(count: count, seed: 42)
        let fast = try JSONFileStore(root: root, codec: .fast)
        let codable = try JSONFileStore(root: root, codec: .foundation)
        try fast.saveDeck(deck, named: "fast", expectedRevision: nil)
        try codable.saveDeck(deck, named: "codable", expectedRevision: nil)
        let file = fast.path(.deck, "fast")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        let megabytes = Double(bytes.count) / 1_048_576
        let big = count >= 1_000_000

        let rounds = big ? 3 : gateRounds(context)
        func id(_ workload: String) -> String { "\(name)/\(workload)/\(count)/plain/fast" }

        // The fast path, each operation round by round against its floor on the same bytes.
        if context.selects(id("save")) || context.selects(id("load")) {
            let save = measureCell(
                id("save"), rounds: rounds, { (try? fast.saveDeck(deck, named: "fast", expectedRevision: nil)) ?? -1 },
                floor: { Floors.rawWrite(bytes, to: root + "/floor.json") })
            let savePeak = PeakMemory.measure { (try? fast.saveDeck(deck, named: "fast", expectedRevision: nil)) ?? -1 }
            context.emit(
                row("save", count, "fast", save, megabytes: megabytes, peak: savePeak.peakBytes, fileBytes: bytes.count)
            )
            let load = measureCell(
                id("load"), rounds: rounds, { (try? fast.loadDeck(named: "fast"))?.deck.count ?? -1 },
                floor: { Floors.foundationParse(file) })
            let loadPeak = PeakMemory.measure { (try? fast.loadDeck(named: "fast"))?.deck.count ?? -1 }
            context.emit(
                row("load", count, "fast", load, megabytes: megabytes, peak: loadPeak.peakBytes, fileBytes: bytes.count)
            )
        }
        // Foundation's Codable, for comparison (not gated: Foundation's speed is not ours to keep).
        if context.selects(cellID: "\(name)/save/\(count)/plain/codable")
            || context.selects(cellID: "\(name)/load/\(count)/plain/codable")
        {
            let codableRuns = big ? 1 : (count >= 100_000 ? min(context.runs, 3) : context.runs)
            let save = measure(runs: codableRuns, warmup: big ? 0 : 1) {
                (try? codable.saveDeck(deck, named: "codable", expectedRevision: nil)) ?? -1
            }
            let load = measure(runs: codableRuns, warmup: big ? 0 : 1) {
                (try? codable.loadDeck(named: "codable"))?.deck.count ?? -1
            }
            for (workload, timing) in [("save", save), ("load", load)] {
                context.emit(
                    BenchRow(
                        suite: name, workload: workload, n: count, key: "plain", impl: "codable", timing: timing,
                        metrics: [("file_mb", megabytes), ("mb_per_s", megabytes / (timing.medianMs / 1000))]))
            }
        }
        // A save and a load, against Codable's save and load of the same deck, round by round.
        if context.selects(id("roundtrip")) {
            let roundTrip = measureCell(
                id("roundtrip"), rounds: big ? 1 : rounds,
                {
                    _ = try? fast.saveDeck(deck, named: "fast", expectedRevision: nil)
                    return (try? fast.loadDeck(named: "fast"))?.deck.count ?? -1
                },
                floor: {
                    _ = try? codable.saveDeck(deck, named: "codable", expectedRevision: nil)
                    return (try? codable.loadDeck(named: "codable"))?.deck.count ?? -1
                })
            let fastTime = roundTrip.cell.medianMs
            let codableTime = roundTrip.floor.medianMs
            context.emit(
                BenchRow(
                    suite: name, workload: "roundtrip", n: count, key: "plain", impl: "fast", samples: roundTrip,
                    metrics: [
                        ("codable_ms", codableTime), ("speedup", codableTime / fastTime),
                        ("mb_per_s", 2 * megabytes / (fastTime / 1000)),
                    ]))
        }
    }

    private func row(
        _ workload: String, _ count: Int, _ impl: String, _ samples: CellSamples, megabytes: Double, peak: Int?,
        fileBytes: Int
    ) -> BenchRow {
        var metrics: [(String, Double)] = [
            ("file_mb", megabytes), ("mb_per_s", megabytes / (samples.cell.medianMs / 1000)),
            ("floor_ms", samples.floor.medianMs),
        ]
        if let peak {
            metrics.append(("peak_mb", Double(peak) / 1_048_576))
            metrics.append(("peak_over_file", Double(peak) / Double(max(1, fileBytes))))
        }
        return BenchRow(
            suite: name, workload: workload, n: count, key: "plain", impl: impl, samples: samples, metrics: metrics)
    }
}
