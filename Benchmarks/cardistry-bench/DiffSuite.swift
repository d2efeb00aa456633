import CardModels
import CardModelsShims
import Foundation

/// The reorder diff beside its floor and the standard library, on decks of 1k … 1M keys.
///
/// - `floor`: an open-addressing id→index table built from the old order, then one lookup per new id (keys stored
///   inline, same hash mixer). Any diff must at least do this much, so `ratio_to_floor` is the diff's overhead.
/// - `cardistry`: `ReorderDiff(from:to:)`, fully materialised (removals, insertions and moves arrays).
/// - `stdlib`: `new.difference(from: old).inferringMoves()` (Myers' O((N+M)·D) algorithm), skipped with a note
///   where its predicted cost (N+M)·D exceeds `stdlibCostCap`.
///
/// `minimal_moves` is computed independently of the diff by a separate LIS-length routine (below).
struct DiffSuite: BenchSuite {
    let name = "diff"
    /// The largest (N+M)·D the standard library's diff is asked to do (about a second on this machine).
    let stdlibCostCap = 80_000_000.0

    func run(_ context: BenchContext) {
        let sizes = context.quick ? [1_000, 10_000] : [1_000, 10_000, 100_000, 1_000_000]
        for n in sizes {
            for workload in ReorderWorkload.allCases {
                for keyKind in ["u64", "uuid"] {
                    let prefix = "diff/\(workload.rawValue)/\(n)/\(keyKind)"
                    guard context.selects(prefix, impls: ["floor", "cardistry", "stdlib"]) else { continue }
                    if n >= 100_000 { context.progress(prefix) }
                    if keyKind == "u64" {
                        runCell(context, workload: workload, n: n, keyKind: keyKind, keys: makeU64Keys)
                    } else {
                        runCell(context, workload: workload, n: n, keyKind: keyKind, keys: makeUUIDKeys)
                    }
                }
            }
        }
    }

    private func runCell<Key: ReorderKey>(
        _ context: BenchContext, workload: ReorderWorkload, n: Int, keyKind: String,
        keys makeKeys: (Int, inout SplitMix64) -> [Key]
    ) {
        var generator = SplitMix64(seed: 42)
        let old = makeKeys(n, &generator)
        var fresh = makeKeys(n, &generator)  // a pool of keys not in `old` for churn's insertions
        let new = workload.apply(to: old, using: &generator) { _ in fresh.removeLast() }
        let minimal = independentMinimalMoves(old, new)
        func row(_ impl: String, _ timing: Timing, ratio: Double?, metrics: [(String, Double)], note: String? = nil)
            -> BenchRow
        {
            BenchRow(
                suite: name, workload: workload.rawValue, n: n, key: keyKind, impl: impl, timing: timing,
                ratioToFloor: ratio, metrics: metrics, note: note)
        }
        func gatedRow(_ samples: CellSamples, metrics: [(String, Double)]) -> BenchRow {
            BenchRow(
                suite: name, workload: workload.rawValue, n: n, key: keyKind, impl: "cardistry", samples: samples,
                metrics: metrics)
        }

        // Floor and diff alternate round by round, so that both see the same machine (see `measureCell`).
        let id = "\(name)/\(workload.rawValue)/\(n)/\(keyKind)/cardistry"
        // A copy of both orders per round, all alive at once so each lies at its own addresses (see `measureCell`).
        let copies = (0...gateRounds(context)).map { _ in
            (
                old.withUnsafeBufferPointer { Array($0) }, new.withUnsafeBufferPointer { Array($0) },
                FloorTable<Key>(count: old.count)
            )
        }
        var nextCopy = 0
        let samples = measureCell(
            id, rounds: gateRounds(context),
            input: {
                defer { nextCopy = (nextCopy + 1) % copies.count }
                return copies[nextCopy]
            },
            { try? ReorderDiff(from: $0.0, to: $0.1) }, floor: { $0.2.lookUpAll(old: $0.0, new: $0.1) })
        let floorTiming = samples.floor
        let diffTiming = samples.cell
        let floorPeak = PeakMemory.measure { FloorTable<Key>(count: old.count).lookUpAll(old: old, new: new) }.peakBytes
        context.emit(
            row("floor", floorTiming, ratio: 1, metrics: [("minimal_moves", Double(minimal))] + peak(floorPeak)))

        let (diff, diffPeak) = PeakMemory.measure { try? ReorderDiff(from: old, to: new) }
        var metrics: [(String, Double)] = [
            ("moves", Double(diff?.moves.count ?? -1)), ("minimal_moves", Double(minimal)),
        ]

        let predictedCost = Double(old.count + new.count) * Double(editDistance(diff))
        // The gate's re-measurements in a fresh process (`--only` the gated cells) skip the standard library's
        // diff: its timing was most of such a process's time (a quarter of a second per 1,000-key cell), and
        // nothing of it is judged. The row then lacks `ratio_to_stdlib`.
        if !context.selects(cellID: "\(name)/\(workload.rawValue)/\(n)/\(keyKind)/stdlib") {
            context.emit(gatedRow(samples, metrics: metrics + peak(diffPeak)))
        } else if predictedCost <= stdlibCostCap {
            let stdlibTiming = measure(runs: context.runs, warmup: n >= 10_000 ? 0 : 1) {
                new.difference(from: old).inferringMoves()
            }
            let (stdlibDiff, stdlibPeak) = PeakMemory.measure { new.difference(from: old).inferringMoves() }
            let stdlibMoves = stdlibDiff.insertions.filter {
                if case .insert(_, _, let associated) = $0 { associated != nil } else { false }
            }.count
            metrics.append(("ratio_to_stdlib", diffTiming.medianMs / stdlibTiming.medianMs))
            context.emit(gatedRow(samples, metrics: metrics + peak(diffPeak)))
            context.emit(
                row(
                    "stdlib", stdlibTiming, ratio: stdlibTiming.medianMs / floorTiming.medianMs,
                    metrics: [("moves", Double(stdlibMoves)), ("minimal_moves", Double(minimal))] + peak(stdlibPeak)))
        } else {
            context.emit(gatedRow(samples, metrics: metrics + peak(diffPeak)))
            context.emit(
                row(
                    "stdlib", .none, ratio: nil, metrics: [],
                    note: "skipped: predicted (N+M)·D = \(format(predictedCost / 1e6, digits: 0))M > cap"))
        }
    }

    /// Myers' D for this pair when moves are not inferred: every moved key is one deletion and one insertion.
    private func editDistance(_ diff: ReorderDiff?) -> Int {
        guard let diff else { return 0 }
        return diff.removals.count + diff.insertions.count + 2 * diff.moves.count
    }

    private func peak(_ bytes: Int?) -> [(String, Double)] {
        bytes.map { [("peak_mb", Double($0) / 1_048_576)] } ?? []
    }

    private func makeU64Keys(_ count: Int, _ generator: inout SplitMix64) -> [UInt64] {
        var seen = Set<UInt64>(minimumCapacity: count)
        var keys: [UInt64] = []
        keys.reserveCapacity(count)
        while keys.count < count {
            let key = generator.next()
            if seen.insert(key).inserted { keys.append(key) }
        }
        return keys
    }

    private func makeUUIDKeys(_ count: Int, _ generator: inout SplitMix64) -> [UUID] {
        (0..<count).map { _ in
            let high = generator.next()
            let low = generator.next()
            return withUnsafeBytes(of: (high, low)) { bytes in
                UUID(uuid: bytes.load(as: uuid_t.self))
            }
        }
    }
}

/// Common keys minus the length of the longest increasing subsequence of their old positions in new order,
/// computed with a plain `Dictionary` and a values-only patience sort — deliberately not the diff's own code.
func independentMinimalMoves<Key: Hashable>(_ old: [Key], _ new: [Key]) -> Int {
    var position: [Key: Int] = [:]
    position.reserveCapacity(old.count)
    for (index, key) in old.enumerated() { position[key] = index }
    var tails: [Int] = []
    var common = 0
    for key in new {
        guard let value = position[key] else { continue }
        common += 1
        var low = 0
        var high = tails.count
        while low < high {
            let middle = (low + high) / 2
            if tails[middle] < value { low = middle + 1 } else { high = middle }
        }
        if low == tails.count { tails.append(value) } else { tails[low] = value }
    }
    return common - tails.count
}

/// The floor: an open-addressing (linear probing) id→index table with keys stored inline, sized to load ≤ 1/2,
/// filled with every old key and probed with every new one, each key's home slot prefetched eight keys ahead.
///
/// The floor is the least any hash-based diff must do, done the way the diff's own table does it: without the
/// prefetch, the floor waited on every cache miss in turn while the diff overlapped them, so the two answered the
/// machine's state differently — when a neighbour shared the caches, the floor slowed by up to 1.4× and the diff
/// did not, and the ratio between them moved as much from run to run.
final class FloorTable<Key: ReorderKey> {
    private let keys: UnsafeMutablePointer<Key>
    private let indices: UnsafeMutableBufferPointer<Int32>
    private let mask: Int
    private static var ahead: Int { 8 }

    init(count: Int) {
        var capacity = 16
        while capacity < count * 2 { capacity <<= 1 }
        mask = capacity - 1
        keys = .allocate(capacity: capacity)
        indices = .allocate(capacity: capacity)
        indices.initialize(repeating: -1)
    }

    deinit {
        keys.deallocate()
        indices.deallocate()
    }

    @inline(__always)
    private func prefetch(_ key: Key) {
        let slot = Int(truncatingIfNeeded: key.reorderHash) & mask
        cardistry_prefetch_read(indices.baseAddress! + slot)
        cardistry_prefetch_read(keys + slot)
    }

    /// Fills the table with `old` and looks up every key of `new`; returns the sum of the indices found.
    func lookUpAll(old: [Key], new: [Key]) -> Int {
        for slot in indices.indices { indices[slot] = -1 }
        for index in old.indices {
            if index + Self.ahead < old.count { prefetch(old[index + Self.ahead]) }
            let key = old[index]
            var slot = Int(truncatingIfNeeded: key.reorderHash) & mask
            while indices[slot] >= 0 { slot = (slot + 1) & mask }
            (keys + slot).initialize(to: key)
            indices[slot] = Int32(truncatingIfNeeded: index)
        }
        var found = 0
        for index in new.indices {
            if index + Self.ahead < new.count { prefetch(new[index + Self.ahead]) }
            let key = new[index]
            var slot = Int(truncatingIfNeeded: key.reorderHash) & mask
            while indices[slot] >= 0 {
                if keys[slot] == key {
                    found &+= Int(indices[slot])
                    break
                }
                slot = (slot + 1) & mask
            }
        }
        return found
    }
}
