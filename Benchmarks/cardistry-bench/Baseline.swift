import Foundation

/// The committed baseline (`Benchmarks/baseline.jsonl`, written by `--quick --json --repeat 5`) and the regression
/// gate.
///
/// Each gated row of the baseline carries its pooled per-round ratios (`ratio_samples`, from every repeat) and the
/// cell's `drift`: the largest over the smallest of the repeats' medians, how far the cell moves between runs of
/// one unchanged build. `GateRule` decides from those.
struct Baseline {
    struct Cell {
        var ratio: Double
        var samples: [Double]
        var drift: Double?
    }

    var cells: [String: Cell]

    init(contentsOf path: String) throws {
        var cells: [String: Cell] = [:]
        for (id, object) in try BenchFile.rows(at: path) {
            guard object["gated"] as? Bool != false, let ratio = (object["ratio_to_floor"] as? NSNumber)?.doubleValue
            else { continue }
            let samples = BenchFile.samples(object)
            guard !samples.isEmpty else { continue }
            cells[id] = Cell(ratio: ratio, samples: samples, drift: (object["drift"] as? NSNumber)?.doubleValue)
        }
        self.cells = cells
    }

    /// The rows that are suspects (`GateRule.Stage.suspect`), each with the judgement that says why.
    func suspects(in rows: [BenchRow]) -> [(cell: String, message: String)] {
        rows.compactMap { row in
            guard row.gated, let base = cells[row.cellID] else { return nil }
            let judgement = GateRule.judge(cellID: row.cellID, base: base, current: row.ratioSamples, stage: .suspect)
            return judgement.regressed ? (row.cellID, judgement.message) : nil
        }
    }

    /// The cells a re-measurement of `suspects` runs: with each suspect, every gated cell of its suite that a whole
    /// run measures before it (`gated`: a whole run's gated cells, in the order it printed them).
    ///
    /// A cell measured alone in a fresh process (`--only` it) runs after none of what comes before it in a whole run
    /// (scenes opened and freed, servers started, the heap's history), and some cells read another ratio so: in
    /// two processes each, alone against a whole run's baseline, `deck/sort-title/100000/u64/scene` read 1.37 and
    /// 1.41× and `million/first-sort-sortOrder` 1.51 and 1.37× (over a cap of 1.45: a false alarm waiting for its
    /// first-run suspicion), `million/first-sort-title` 0.84 and 0.78×; with the rest of their suite, 1.09–1.12×,
    /// 1.03× and 0.80–0.84×. Suites set up their own inputs, so a suite's earlier cells are the context that
    /// matters; its later ones are left out (the million suite's memory cells, last, take half its time).
    static func remeasured(suspects: Set<String>, gated: [String]) -> Set<String> {
        var last: [Substring: Int] = [:]
        for (index, cell) in gated.enumerated() where suspects.contains(cell) { last[suite(of: cell)] = index }
        var cells = suspects
        for (index, cell) in gated.enumerated() {
            if let end = last[suite(of: cell)], index <= end { cells.insert(cell) }
        }
        return cells
    }

    /// The suite a cell id names (its first component).
    static func suite(of cellID: String) -> Substring {
        cellID.prefix { $0 != "/" }
    }

    /// Baseline cells that this run did not measure (reported, not fatal: `--filter` narrows runs on purpose).
    func missing(from rows: [BenchRow]) -> [String] {
        let measured = Set(rows.map(\.cellID))
        return cells.keys.filter { !measured.contains($0) }.sorted()
    }

    /// Gated cells this run measured that the baseline has no row for: they are judged by nothing.
    func unjudged(in rows: [BenchRow]) -> [String] {
        rows.filter { $0.gated && cells[$0.cellID] == nil }.map(\.cellID).sorted()
    }

    /// Why a whole-suite run in the baseline's mode cannot be trusted, if it cannot: a baseline cell it did not
    /// measure, or a gated cell the baseline does not have. Either means a cell's id changed (a node count in it,
    /// a renamed workload) and the cell silently left the gate — the baseline must be re-recorded for it. Nil when
    /// the run and the baseline cover the same gated cells.
    static func coverageProblem(missing: [String], unjudged: [String]) -> String? {
        guard !missing.isEmpty || !unjudged.isEmpty else { return nil }
        var lines = ["BASELINE OUT OF DATE: the run and the baseline do not gate the same cells (re-record them:"]
        lines[0] += " --quick --repeat 5 --filter SUITE/, beside the rest of their suite, then replace their rows)"
        lines += missing.map { "  in the baseline, not measured: \($0)" }
        lines += unjudged.map { "  measured and gated, not in the baseline: \($0)" }
        return lines.joined(separator: "\n")
    }
}

/// The decision rule: when a cell's current samples count as a regression against its baseline.
///
/// Two stages, as a screening test and its confirmation:
/// 1. **Suspect** (every cell, every run): the median of the run's per-round ratios is above the baseline's median
///    by more than √e, and the one-sided Mann–Whitney U test says the run's ratios tend to be larger than the
///    baseline's at p < 0.05. Sensitive on purpose: a run that sits low in the cell's drift must not hide a real
///    slowdown.
/// 2. **Regressed**: each suspect is measured twice more, each time in a fresh process after the gated cells that
///    precede it in its suite (`Baseline.remeasured`), and judged on all the runs' rounds pooled: their median
///    above the baseline's by more than `e`, and the U test at p < 0.01. The `diff` and `physics` cells are
///    measured eight times more whether suspects or not, and judged on nine processes pooled (below).
/// `e`, the cell's *minimum effect*, is its cap, the largest effect that still leaves room to catch the slowdown the
/// cell must catch: 1.45 for most cells, so that a 2× slowdown is caught with room for drift; 1.6 for the
/// `million` whole-order fetch, whose few samples spread most (`isWide`); 1.14 for the `diff` and
/// `physics` cells, which must catch 1.3×. Each cap sits near the geometric middle between no change and the
/// slowdown it must catch (√2 ≈ 1.41, √1.3 ≈ 1.14), where a run that sits low and one that sits high in a cell's
/// spread are equally far from a wrong verdict: the baseline's processes read gated cells at 0.82–1.18× their pooled
/// median, and one gate run read `persistence/load` at 0.72× (with a cap of 1.6, a 2× slowdown then read 1.44×).
/// The minimum effect once followed each cell's recorded drift (1.25 × the largest over the smallest of the
/// baseline's process medians, from 1.10 up to the cap): the drift of a few processes in one session under-stated
/// what a cell reads on another machine or another hour, and unchanged builds raised false alarms in CI at 1.35×
/// (`deck/sort-title/100000/u64/scene`, drift 1.08, e 1.35), 1.35× (`deck/state-snapshot`, drift 1.05, e 1.31) and
/// 1.13× (`diff/shuffle/1000/uuid`, e 1.12). The drift is still recorded, for the reader. `million/deck-move` and
/// `drop` had a cap of 1.6 too, after unchanged builds read them at up to 1.54× their baseline: their rows had been
/// recorded alone (`--only`), where they read 0.75× what a whole run reads. Recorded with their suite, as every row
/// now is (`remeasured`), three whole runs of the million suite's request cells read them unchanged at 0.86–1.08×
/// and slowed 2× at 2.05–2.55×, while a CI run's 2× run read `drop` at 1.66× and under 1.6× pooled (its floor, a
/// pipe echo by one thread, slows with the host's wake-ups more than the request does): 1.45 is nearer the middle.
/// `fetch-order` read 1.13–1.29× unchanged and 1.84–2.77× slowed in the same runs, and keeps 1.6.
/// Pooling processes shrinks what moves a cell from one process to the next (where its memory landed) by about the
/// square root of their number, which is what keeps a cell from being failed by one unlucky process. The `diff` and
/// `physics` cells need more than that: one process's median lies anywhere in 0.68–1.35× the cell's pooled median
/// (60 processes of each of the 21 cells, half with a core busy, which moved no cell's median by more than 5 %),
/// and some have two modes 13–30 % apart, more than the room between 1.3× and no change. So their baseline pools
/// twenty processes (a refresh; the committed rows forty, `--repeat 10`) and the gate nine. Resampling those 60
/// processes, nine pooled read an unchanged build above 1.14× in none of 4,000 draws per cell and a 1.3× slowdown
/// below it in none; five pooled (the gate before) read above 1.12× in 0.5 % of gate runs, which is what CI met.
/// Under the null hypothesis (no change, rounds independent) the U test alone would raise a false alarm in one
/// confirmation in a hundred per cell; requiring the effect as well is what makes alarms on an unchanged build
/// rare, and `scripts/bench-gate-power.py` measures that rate (five gate runs, one core busy).
enum GateRule {
    static let suspectAlpha = 0.05
    static let alpha = 0.01
    /// How many processes the `diff` and `physics` cells are judged on: the gate's whole run and eight more.
    static let narrowProcesses = 9

    /// The cell's minimum effect: its cap, the largest effect that keeps the gate's power at 2× (1.3× for diff and
    /// physics).
    static func minimumEffect(cellID: String) -> Double {
        isNarrow(cellID) ? 1.14 : isWide(cellID) ? 1.6 : 1.45
    }

    /// The `million` request cell whose few samples spread most (`fetch-order`: 15 whole-order fetches a process):
    /// unchanged builds read it at 1.13–1.29× its baseline, a 2× slowdown at 1.84–2.77×.
    static func isWide(_ cellID: String) -> Bool {
        cellID.hasPrefix("million/fetch-order/")
    }

    /// The cells that must catch 1.3× (`diff`, `physics`): judged on nine processes pooled, their baseline on twenty.
    static func isNarrow(_ cellID: String) -> Bool {
        cellID.hasPrefix("diff/") || cellID.hasPrefix("physics/")
    }

    enum Stage {
        /// One run's rounds: is the cell worth measuring again?
        case suspect
        /// Three runs' rounds pooled: did it regress?
        case confirm
    }

    struct Judgement {
        var shift: Double
        var minimumEffect: Double
        var p: Double
        var regressed: Bool
        var message: String
    }

    static func judge(cellID: String, base: Baseline.Cell, current: [Double], stage: Stage = .confirm) -> Judgement {
        let effect = minimumEffect(cellID: cellID)
        let threshold = stage == .confirm ? effect : effect.squareRoot()
        let baseMedian = Statistics.median(base.samples)
        let currentMedian = Statistics.median(current)
        let shift = currentMedian / baseMedian
        let p = Statistics.mannWhitneyGreater(current, base.samples)
        let regressed = shift > threshold && p < (stage == .confirm ? alpha : suspectAlpha)
        let message =
            "\(cellID): ratio_to_floor \(format(currentMedian, digits: 3)) is \(format(shift, digits: 2))× the "
            + "baseline's \(format(baseMedian, digits: 3)) (minimum effect \(format(effect, digits: 2))×, "
            + "p = \(formatP(p)) over \(current.count) rounds)"
        return Judgement(shift: shift, minimumEffect: effect, p: p, regressed: regressed, message: message)
    }
}

/// Reading the rows of a `--json` file back.
enum BenchFile {
    /// `suite/workload/n/key/impl` of a row.
    static func cellID(_ object: [String: Any]) -> String? {
        guard let suite = object["suite"] as? String, let workload = object["workload"] as? String,
            let n = object["n"] as? Int, let key = object["key"] as? String, let impl = object["impl"] as? String
        else { return nil }
        return "\(suite)/\(workload)/\(n)/\(key)/\(impl)"
    }

    /// Whether a row is judged by the gate: it has rounds and is not marked `"gated": false`.
    static func isGated(_ object: [String: Any]) -> Bool {
        !samples(object).isEmpty && object["gated"] as? Bool != false
    }

    /// A row's per-round ratios (none for a row that has no floor).
    static func samples(_ object: [String: Any]) -> [Double] {
        (object["ratio_samples"] as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue } ?? []
    }

    /// Every row of a file, in order, with its id.
    static func rows(at path: String) throws -> [(id: String, object: [String: Any])] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var rows: [(id: String, object: [String: Any])] = []
        for (lineNumber, line) in text.split(separator: "\n").enumerated() where !line.isEmpty {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let id = cellID(object)
            else {
                throw BaselineError(message: "\(path):\(lineNumber + 1): not a benchmark row")
            }
            rows.append((id, object))
        }
        return rows
    }
}

struct BaselineError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

func format(_ value: Double, digits: Int = 2) -> String {
    guard value.isFinite else { return "—" }
    return String(format: "%.\(digits)f", value)
}

/// A p-value as benchstat prints it: three decimals, or "<0.001".
func formatP(_ p: Double) -> String {
    p < 0.001 ? "<0.001" : format(p, digits: 3)
}
