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
/// - `load/fast`, `load/codable`: a full store load. Floor: a raw `read` of the same file into one buffer plus the
///   standard library's UTF-8 validation of it (`String(validating:)`), the least any JSON reader must do; a bare
///   `read` from the page cache takes microseconds and jitters too much to divide by.
/// Load ratios divide minimum times (CPU-bound: the least disturbed runs), save ratios median times (fsync-bound).
/// Only the fast rows carry `ratio_to_floor` (the gated figure); Codable rows, Foundation's code, carry the same
/// quotient as the metric `over_floor`, so a change in Foundation cannot fail the baseline check.
/// - `roundtrip/fast`: save + load; its `ratio_to_floor` is fast ÷ Codable (lower is better; the goal is ≤ 0.1,
///   i.e. at least 10× faster), and `speedup` is Codable ÷ fast.
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
        let fastRuns = big ? min(context.runs, 3) : context.runs
        let codableRuns = big ? 1 : (count >= 100_000 ? min(context.runs, 3) : context.runs)

        // Floors, measured in the same run on the same bytes.
        let writeFloor = measure(runs: fastRuns) { rawWrite(bytes, to: root + "/floor.json") }
        let readFloor = measure(runs: fastRuns) { rawRead(file, size: bytes.count) }

        var roundTrip: [String: Double] = [:]
        for (impl, store, name, runs) in [
            ("fast", fast, "fast", fastRuns), ("codable", codable, "codable", codableRuns),
        ] {
            let roundTripID = "\(self.name)/roundtrip/\(count)/plain/fast"
            let prefix = "\(self.name)/%@/\(count)/plain/\(impl)"
            guard
                context.selects(roundTripID) || context.selects(prefix.replacingOccurrences(of: "%@", with: "save"))
                    || context.selects(prefix.replacingOccurrences(of: "%@", with: "load"))
            else { continue }
            let save = measure(runs: runs, warmup: big ? 0 : 1) {
                (try? store.saveDeck(deck, named: name, expectedRevision: nil)) ?? -1
            }
            let savePeak = PeakMemory.measure { (try? store.saveDeck(deck, named: name, expectedRevision: nil)) ?? -1 }
            context.emit(
                row(
                    "save", count, impl, save, floor: writeFloor, megabytes: megabytes, peak: savePeak.peakBytes,
                    fileBytes: bytes.count))
            let load = measure(runs: runs, warmup: big ? 0 : 1) { (try? store.loadDeck(named: name))?.deck.count ?? -1 }
            let loadPeak = PeakMemory.measure { (try? store.loadDeck(named: name))?.deck.count ?? -1 }
            context.emit(
                row(
                    "load", count, impl, load, floor: readFloor, megabytes: megabytes, peak: loadPeak.peakBytes,
                    fileBytes: bytes.count))
            roundTrip[impl] = save.medianMs + load.medianMs
        }
        if let fastTime = roundTrip["fast"], let codableTime = roundTrip["codable"], fastTime > 0 {
            let timing = Timing(medianMs: fastTime, minMs: fastTime, runs: fastRuns)
            context.emit(
                BenchRow(
                    suite: name, workload: "roundtrip", n: count, key: "plain", impl: "fast", timing: timing,
                    ratioToFloor: fastTime / codableTime,
                    metrics: [
                        ("codable_ms", codableTime), ("speedup", codableTime / fastTime),
                        ("mb_per_s", 2 * megabytes / (fastTime / 1000)),
                    ]))
        }
    }

    private func row(
        _ workload: String, _ count: Int, _ impl: String, _ timing: Timing, floor: Timing, megabytes: Double,
        peak: Int?, fileBytes: Int
    ) -> BenchRow {
        // Loads are CPU-bound: minimum over minimum (the least disturbed runs) is steadiest on a shared machine.
        // Saves are dominated by fsync, whose minimum is a lucky outlier: median over median.
        let overFloor =
            workload == "load"
            ? timing.minMs / max(floor.minMs, 1e-6) : timing.medianMs / max(floor.medianMs, 1e-6)
        var metrics: [(String, Double)] = [
            ("file_mb", megabytes), ("mb_per_s", megabytes / (timing.medianMs / 1000)), ("floor_ms", floor.medianMs),
        ]
        if impl != "fast" { metrics.append(("over_floor", overFloor)) }
        if let peak {
            metrics.append(("peak_mb", Double(peak) / 1_048_576))
            metrics.append(("peak_over_file", Double(peak) / Double(max(1, fileBytes))))
        }
        return BenchRow(
            suite: name, workload: workload, n: count, key: "plain", impl: impl, timing: timing,
            ratioToFloor: impl == "fast" ? overFloor : nil, metrics: metrics)
    }

    /// The save floor: `write` every byte to a new file and `fsync` it.
    private func rawWrite(_ bytes: [UInt8], to path: String) -> Int {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return -1 }
        defer { close(descriptor) }
        var offset = 0
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
        fsync(descriptor)
        return offset
    }

    /// The load floor: `read` the whole file into one buffer and validate it as UTF-8.
    private func rawRead(_ path: String, size: Int) -> Int {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return -1 }
        defer { close(descriptor) }
        let buffer = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, initialized in
            var total = 0
            while total < buffer.count {
                let count = read(descriptor, buffer.baseAddress! + total, buffer.count - total)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                total += count
            }
            initialized = total
        }
        return String(validating: buffer, as: UTF8.self)?.utf8.count ?? -1
    }
}
