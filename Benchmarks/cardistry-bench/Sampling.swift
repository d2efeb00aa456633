import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A gated cell measured against its floor, round by round.
///
/// Each round times the cell and then its floor (the order swapped every other round), so both see the same
/// machine: a neighbour's load, a frequency change or a page-cache flush shifts both. The cell's figure is the
/// ratio of the two *within each round*; `ratios` holds one per round, and their median is the process's figure
/// that the gate compares with the base build's (see `Gate`). A body that takes under `targetMilliseconds` is called several times per
/// round (the count fixed by a calibration call, the same in every round), so that one sample is never a
/// handful of microseconds of timer noise.
struct CellSamples {
    /// The cell's time per call (median and minimum over the rounds).
    var cell: Timing
    /// The floor's time per call.
    var floor: Timing
    /// Cell time over floor time, one per round.
    var ratios: [Double]

    /// The median of `ratios`: the cell's `ratio_to_floor`.
    var ratio: Double { Statistics.median(ratios) }
}

/// The test-only slowdown the gate's power is proved with (`scripts/bench-gate.sh --power`).
///
/// `CARDISTRY_BENCH_SLOWDOWN` holds comma-separated rules `FACTOR` or `FACTOR:TEXT`; a gated cell whose id contains
/// `TEXT` (every gated cell, without one) is made `FACTOR` times slower: after each timed call of the cell's own
/// code, the timer keeps running while the CPU spins for `(FACTOR − 1)` times the call's duration (a request to the
/// stdio server waits instead: see `wait(nanoseconds:)`). Floors are never
/// slowed. Only this executable reads the variable; the libraries and the `cardistry` executable know nothing of it.
enum Slowdown {
    struct Rule {
        var factor: Double
        var filter: String
    }

    static let rules: [Rule] = parse(ProcessInfo.processInfo.environment["CARDISTRY_BENCH_SLOWDOWN"] ?? "")

    /// The rules in `text`; a malformed rule stops the run (a power test that silently injected nothing would
    /// prove nothing).
    static func parse(_ text: String) -> [Rule] {
        text.split(separator: ",").map { part in
            let pieces = part.split(separator: ":", maxSplits: 1)
            guard let factor = Double(pieces[0]), factor >= 1, factor <= 100 else {
                writeStandardError("cardistry-bench: CARDISTRY_BENCH_SLOWDOWN: '\(part)' is not FACTOR[:TEXT]\n")
                exit(2)
            }
            return Rule(factor: factor, filter: pieces.count > 1 ? String(pieces[1]) : "")
        }
    }

    /// The factor for this cell: the first rule that matches, or 1.
    static func factor(for cellID: String) -> Double {
        rules.first { $0.filter.isEmpty || cellID.contains($0.filter) }?.factor ?? 1
    }

    /// Waits `nanoseconds` without using the CPU: how a client of a slower server spends the extra time (blocked in
    /// `read`), so the stdio cells are slowed this way; spinning there kept a core busy that the server's own
    /// threads and the echo floor then lacked, which moved the floor by a third.
    static func wait(nanoseconds: UInt64) {
        guard nanoseconds > 0 else { return }
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// Spins until `nanoseconds` have passed: how code that runs on the CPU is slower (in-process cells).
    static func spin(nanoseconds: UInt64) {
        guard nanoseconds > 0 else { return }
        let end = monotonicNanoseconds() &+ nanoseconds
        while monotonicNanoseconds() < end {}
    }
}

/// A timer for one call of a gated cell's code, slowed as `Slowdown` says for that cell.
struct CellTimer {
    let factor: Double

    init(cellID: String) {
        factor = Slowdown.factor(for: cellID)
    }

    /// A timer that is never slowed (for floors).
    static let plain = CellTimer(factor: 1)

    private init(factor: Double) {
        self.factor = factor
    }

    /// Milliseconds taken by `iterations` calls of `body` (its last result kept alive), slowed by the factor.
    func milliseconds<T>(iterations: Int = 1, _ body: () -> T) -> Double {
        let start = monotonicNanoseconds()
        var result: T?
        for _ in 0..<max(1, iterations) { result = body() }
        var end = monotonicNanoseconds()
        if factor > 1 {
            Slowdown.spin(nanoseconds: UInt64(Double(end - start) * (factor - 1)))
            end = monotonicNanoseconds()
        }
        blackHole(result)
        return Double(end - start) / 1e6
    }
}

/// The rounds a gated cell is measured in: 15 in quick mode, 21 otherwise, or `--runs` if larger. The
/// Mann–Whitney test needs no fewer than 8 per side to reach p < 0.001 when the samples separate (1/C(16,8)).
func gateRounds(_ context: BenchContext) -> Int {
    max(context.runs, context.quick ? 15 : 21)
}

/// Measures `cell` and `floor` round by round (see `CellSamples`): one warm-up call of each, then `rounds` rounds.
///
/// - Complexity: about `rounds × 2 × max(targetMilliseconds, one call)` of wall time.
func measureCell<A, B>(
    _ cellID: String, rounds: Int, targetMilliseconds: Double = 2, _ cell: () -> A, floor: () -> B
) -> CellSamples {
    measureCell(
        cellID, rounds: rounds, targetMilliseconds: targetMilliseconds, input: { () }, { _ in cell() },
        floor: { _ in floor() })
}

/// Like `measureCell(_:rounds:targetMilliseconds:_:floor:)`, with the input both bodies read made afresh for each
/// round by `input` (untimed): copies of the cell's arrays at new addresses. How fast code that fills a cache runs
/// depends on where its memory landed, which is fixed for a whole run when the input is made once; made per
/// round, a run's median averages over many placements and the run-to-run drift shrinks (the diff cells' from
/// 1.4× to a few per cent).
func measureCell<Input, A, B>(
    _ cellID: String, rounds: Int, targetMilliseconds: Double = 2, input: () -> Input, _ cell: (Input) -> A,
    floor: (Input) -> B
) -> CellSamples {
    let timer = CellTimer(cellID: cellID)
    let plain = CellTimer.plain
    // Warm-up and calibration: the first call of each is measured only to size the rounds.
    let first = input()
    let cellOnce = max(1e-6, plain.milliseconds { cell(first) })
    let floorOnce = max(1e-6, plain.milliseconds { floor(first) })
    let cellIterations = min(10_000, max(1, Int(targetMilliseconds / cellOnce)))
    let floorIterations = min(10_000, max(1, Int(targetMilliseconds / floorOnce)))
    return CellSamples(
        rounds: (0..<max(1, rounds)).map { round in
            let value = input()
            return timeRound(
                round,
                cell: { timer.milliseconds(iterations: cellIterations) { cell(value) } / Double(cellIterations) },
                floor: { plain.milliseconds(iterations: floorIterations) { floor(value) } / Double(floorIterations) })
        })
}

/// Like `measureCell`, for a cell whose every call needs fresh state made outside the timed region (an engine
/// built before the clock starts). One call per round.
///
/// Each of the two timings comes right after a `prepare()` of its own (the floor's is thrown away), so both see
/// the heap and the caches as a preparation leaves them, whichever goes first. With the preparation before the
/// round only, the timing that followed it ran in other conditions than the one after: the deck's sort cells
/// measured 0.6 × the floor in the rounds that timed the cell first and 0.2 in the others, and the median of
/// such a mixture flips between the two with the machine.
func measureCell<State, A, B>(
    _ cellID: String, rounds: Int, prepare: () -> State, _ cell: (inout State) -> A, floor: () -> B
) -> CellSamples {
    // The floor's preparation is only a disturbance, kept alive while the floor runs.
    measureCell(cellID, rounds: rounds, prepare: prepare, cell, prepareFloor: prepare, floor: { _ in floor() })
}

/// Like `measureCell(_:rounds:prepare:_:floor:)`, for a floor that needs fresh state of its own as well: each timing
/// runs on what its own preparation made just before it, so the cell and the floor meet the heap and the caches in the
/// same condition and work on memory of the same age. A floor that reads arrays made once, after a preparation that
/// opened a scene, ran from a cache the preparation had half flushed, and how much of it depended on where memory
/// landed and how busy the host's memory was: `deck/first-sort-color` read its floor (the diff of two id arrays made
/// once) 1.4× slower in some processes while the cell, on a scene just opened, ran 2× slower in them, and its ratio
/// moved from 0.41 to 0.6 between processes of the same build.
func measureCell<State, FloorState, A, B>(
    _ cellID: String, rounds: Int, prepare: () -> State, _ cell: (inout State) -> A,
    prepareFloor: () -> FloorState, floor: (inout FloorState) -> B
) -> CellSamples {
    let timer = CellTimer(cellID: cellID)
    let plain = CellTimer.plain
    var warm = prepare()
    blackHole(cell(&warm))
    var warmFloor = prepareFloor()
    blackHole(floor(&warmFloor))
    return CellSamples(
        rounds: (0..<max(1, rounds)).map { round in
            timeRound(
                round,
                cell: {
                    var state = prepare()
                    defer { blackHole(state) }
                    return timer.milliseconds { cell(&state) }
                },
                floor: {
                    var state = prepareFloor()
                    defer { blackHole(state) }
                    return plain.milliseconds { floor(&state) }
                })
        })
}

/// One round's two timings: the cell first in even rounds, the floor first in odd ones, so that neither always
/// goes first.
private func timeRound(_ round: Int, cell: () -> Double, floor: () -> Double) -> (cell: Double, floor: Double) {
    if round % 2 == 0 {
        let c = cell()
        return (c, floor())
    }
    let f = floor()
    return (cell(), f)
}

extension CellSamples {
    /// The samples of these rounds' timings (milliseconds per call): each round's ratio, and the timings' medians.
    init(rounds: [(cell: Double, floor: Double)]) {
        self.init(
            cell: Timing(samples: rounds.map(\.cell)), floor: Timing(samples: rounds.map(\.floor)),
            ratios: rounds.map { $0.cell / max($0.floor, 1e-9) })
    }
}
