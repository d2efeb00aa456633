import CardModels
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

        // Floor and diff alternate run by run, so that both see the same machine (see `measureSideBySide`).
        let (floorTiming, diffTiming) = measureSideBySide(
            runs: context.runs, { FloorTable.lookUpAll(old: old, new: new) }, { try? ReorderDiff(from: old, to: new) })
        let floorPeak = PeakMemory.measure { FloorTable.lookUpAll(old: old, new: new) }.peakBytes
        context.emit(
            row("floor", floorTiming, ratio: 1, metrics: [("minimal_moves", Double(minimal))] + peak(floorPeak)))

        let (diff, diffPeak) = PeakMemory.measure { try? ReorderDiff(from: old, to: new) }
        var metrics: [(String, Double)] = [
            ("moves", Double(diff?.moves.count ?? -1)), ("minimal_moves", Double(minimal)),
        ]

        let predictedCost = Double(old.count + new.count) * Double(editDistance(diff))
        if predictedCost <= stdlibCostCap {
            let stdlibTiming = measure(runs: context.runs, warmup: n >= 10_000 ? 0 : 1) {
                new.difference(from: old).inferringMoves()
            }
            let (stdlibDiff, stdlibPeak) = PeakMemory.measure { new.difference(from: old).inferringMoves() }
            let stdlibMoves = stdlibDiff.insertions.filter {
                if case .insert(_, _, let associated) = $0 { associated != nil } else { false }
            }.count
            metrics.append(("ratio_to_stdlib", diffTiming.medianMs / stdlibTiming.medianMs))
            context.emit(
                row(
                    "cardistry", diffTiming, ratio: diffTiming.medianMs / floorTiming.medianMs,
                    metrics: metrics + peak(diffPeak)))
            context.emit(
                row(
                    "stdlib", stdlibTiming, ratio: stdlibTiming.medianMs / floorTiming.medianMs,
                    metrics: [("moves", Double(stdlibMoves)), ("minimal_moves", Double(minimal))] + peak(stdlibPeak)))
        } else {
            context.emit(
                row(
                    "cardistry", diffTiming, ratio: diffTiming.medianMs / floorTiming.medianMs,
                    metrics: metrics + peak(diffPeak)))
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

/// The floor: an open-addressing (linear probing) id→index table with keys stored inline, sized to load ≤ 1/2.
enum FloorTable {
    static func lookUpAll<Key: ReorderKey>(old: [Key], new: [Key]) -> Int {
        var capacity = 16
        while capacity < old.count * 2 { capacity <<= 1 }
        let mask = capacity - 1
        let keys = UnsafeMutableBufferPointer<Key>.allocate(capacity: capacity)
        let indices = UnsafeMutableBufferPointer<Int32>.allocate(capacity: capacity)
        indices.initialize(repeating: -1)
        defer {
            keys.deallocate()
            indices.deallocate()
        }
        for (index, key) in old.enumerated() {
            var slot = Int(truncatingIfNeeded: key.reorderHash) & mask
            while indices[slot] >= 0 { slot = (slot + 1) & mask }
            (keys.baseAddress! + slot).initialize(to: key)
            indices[slot] = Int32(truncatingIfNeeded: index)
        }
        var found = 0
        for key in new {
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
