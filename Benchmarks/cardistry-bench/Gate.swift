import Foundation

/// The regression gate's rule: the base commit's build against the change's, measured side by side.
///
/// Both builds run benchmark processes, interleaved on one machine in the same minutes (`GateRun`). Each process
/// reduces to its median `ratio_to_floor` per gated cell; each build's process medians reduce to their `centre`; a
/// cell *regresses* when the change's centre is above the base's by more than its suite's threshold (`thresholds`).
/// The process is the unit: rounds inside one process share where its memory landed, what ran before and whether it
/// shared a core, so they are not independent samples of the build. The one-sided Mann–Whitney U test over the
/// process medians is reported beside each cell, not used to decide: with a handful of processes a side it adds
/// little to the ratio. A cell only one build measures (a new scene, a renamed cell) is listed and not judged, so no
/// cell needs re-recording.
enum Gate {
    /// A suite's threshold: the largest ratio of centres an unchanged build may show, and why it is that.
    struct Threshold {
        var suite: String
        var factor: Double
        /// How many processes of each build the suite's cells are judged on (the runs past the whole ones run the
        /// suite alone, `--filter SUITE/`).
        var processes: Int
        var why: String
    }

    /// The thresholds, one per suite (a suite not listed gets `standard`). Each sits near the geometric middle of no
    /// change and the slowdown its cells must catch (√2 ≈ 1.41, √1.3 ≈ 1.14), where a build that reads low and one
    /// that reads high in a cell's spread from process to process are equally far from a wrong verdict. A suite that
    /// runs in a few seconds and whose cells move from process to process gets seven processes a side.
    static let thresholds: [Threshold] = table.map { Threshold(suite: $0, factor: $1, processes: $2, why: $3) }

    /// Suite, threshold, processes a side, why.
    private static let table: [(String, Double, Int, String)] = [
        ("diff", 1.15, 7, "the engine's hot path, must catch 1.3×; a process's median can sit 0.7–1.35× another's"),
        ("physics", 1.15, 7, "springs are evaluated per node per frame: must catch 1.3× like the diff"),
        ("gestures", 1.45, 7, "must catch 2×; its process medians spread 1.3× with a core busy, in 0.2 s a run"),
        ("scene", 1.45, 7, "must catch 2×; with a core busy a frame cell's process lands in one of two modes"),
        ("tui", 1.45, 7, "must catch 2×; with a core busy a frame's process lands in two modes 1.5× apart"),
        (
            "million", 1.5, 5,
            "must catch 2×; requests through pipes, few a process (15 fetches), spread most: one process in four or"
                + " so reads 0.7× or 1.4× of the rest, which three processes a side could not set aside"
        ),
    ]

    /// Every other suite: must catch 2×; three processes a side.
    static let standard = Threshold(
        suite: "*", factor: 1.45, processes: 3, why: "must catch 2×; √2, with room for a process that reads high")

    /// How many more rounds the gate may give the cells it is not yet sure of (`undecided`), each round one process
    /// of each build running only those cells (`--only`).
    static let closerLookRounds = 6

    /// The closeness (`Verdict.closeness`, 0 no change, 1 on the threshold) between which a verdict is not yet sure:
    /// a ratio nearer its threshold than √threshold on either side, in log terms. An unchanged build's cells read
    /// near 0 and a slowed build's near 1.7–1.9 (2× against 1.45× or 1.5×, 1.3× against 1.15×), so only a process
    /// that read far off sends a cell here. One such process among three moved million/drop's 2× to 1.47× of a 1.5×
    /// threshold (CI of stop 49: its base read 38, 42 and 27 × its floor): more processes of both builds, judged on
    /// the centre of all of them, settle which side of the threshold the cell is on, where one more verdict over the
    /// same three would only repeat the accident.
    static let undecidedCloseness: ClosedRange<Double> = 0.5...1.5

    /// The cells of these decisions (the change's, and the slowed change's in a power check) whose verdict is not yet
    /// sure (`undecidedCloseness`), each once, in the order first judged.
    static func undecided(_ decisions: [Decision]) -> [String] {
        var seen = Set<String>()
        var cells: [String] = []
        for decision in decisions {
            for verdict in decision.verdicts
            where undecidedCloseness.contains(verdict.closeness) && seen.insert(verdict.cell).inserted {
                cells.append(verdict.cell)
            }
        }
        return cells
    }

    /// The closer look as a procedure over any source of processes: while some cell is undecided (`undecided`, over
    /// the decisions of each side against the one before it: the change against the base, and in a power check the
    /// slowed change against the change) and fewer than `closerLookRounds` rounds were given, `measure` adds one
    /// process of every side running only those cells. Returns false when `measure` fails.
    static func lookCloser(
        _ sides: inout [ProcessMedians], measure: (_ cells: [String], _ sides: inout [ProcessMedians]) -> Bool
    ) -> Bool {
        for _ in 0..<closerLookRounds {
            let decisions = sides.indices.dropFirst().map { decide(base: sides[$0 - 1], change: sides[$0]) }
            let cells = undecided(decisions)
            if cells.isEmpty { break }
            guard measure(cells, &sides) else { return false }
        }
        return true
    }

    /// A build's figure for a cell from its process medians: the geometric mean of those left once the highest and
    /// the lowest are set aside (from five processes up; with three or four, the median). Not their median: a cell
    /// whose processes fall into two modes (a core shared or not) has a median that jumps from one mode to the other
    /// with one process, so two builds' medians can sit a whole mode apart; a mean moves by a process's share.
    static func centre(_ values: [Double]) -> Double {
        guard values.count >= 5 else { return Statistics.median(values) }
        let kept = values.sorted().dropFirst().dropLast()
        return exp(kept.map { log($0) }.reduce(0, +) / Double(kept.count))
    }

    static func threshold(for cellID: String) -> Threshold {
        let suite = cellID.prefix { $0 != "/" }
        return thresholds.first { $0.suite == suite } ?? standard
    }

    /// Whether CARDISTRY_BENCH_SLOWDOWN can slow the cell: the memory cells (`rss…`) read another process's resident
    /// memory, which no slowdown changes, so the power check does not expect them caught.
    static func isTiming(_ cellID: String) -> Bool {
        !(cellID.split(separator: "/").last ?? "").hasPrefix("rss")
    }

    /// One judged cell: each build's process medians and what they decide.
    struct Verdict {
        var cell: String
        var base: [Double]
        var change: [Double]
        var threshold: Double

        var baseCentre: Double { Gate.centre(base) }
        var changeCentre: Double { Gate.centre(change) }
        /// The change's centre over the base's.
        var ratio: Double { changeCentre / baseCentre }
        /// How far the ratio went towards its threshold, in log terms: 1 is on it, 0 no change.
        var closeness: Double { log(ratio) / log(threshold) }
        var regressed: Bool { ratio > threshold }
        /// One-sided Mann–Whitney p over the process medians ("the change's tend to be larger"), for the report.
        var p: Double { Statistics.mannWhitneyGreater(change, base) }

        /// Each process's median, base and change, for the cells the report looks at closer.
        var processes: String {
            "  base " + base.map { format($0, digits: 3) }.joined(separator: " ") + "; change "
                + change.map { format($0, digits: 3) }.joined(separator: " ")
        }

        var line: String {
            "\(cell): \(format(ratio))× (\(format(baseCentre, digits: 3)) → "
                + "\(format(changeCentre, digits: 3)) over \(base.count)+\(change.count) processes, threshold "
                + "\(format(threshold))×, U test p = \(formatP(p)))"
        }
    }

    struct Decision {
        /// The cells both builds gate, in the change's order.
        var verdicts: [Verdict]
        /// Gated cells only the base measured, or only the change: reported, not judged.
        var onlyBase: [String]
        var onlyChange: [String]

        var regressions: [Verdict] { verdicts.filter(\.regressed) }
        /// The judged cell that came nearest its threshold (the highest `closeness`).
        var nearest: Verdict? { verdicts.max { $0.closeness < $1.closeness } }
        /// The timing cells a slowed change should have failed and did not (the power check).
        var missed: [Verdict] { verdicts.filter { isTiming($0.cell) && !$0.regressed } }
        /// The judged cell a slowed change read lowest against its threshold.
        var weakest: Verdict? { verdicts.filter { isTiming($0.cell) }.min { $0.closeness < $1.closeness } }
    }

    /// Judges each cell both builds gate from the process medians of each (`ProcessMedians`).
    static func decide(base: ProcessMedians, change: ProcessMedians) -> Decision {
        var verdicts: [Verdict] = []
        var onlyChange: [String] = []
        for cell in change.order {
            guard let old = base.medians[cell] else {
                onlyChange.append(cell)
                continue
            }
            let new = change.medians[cell] ?? []
            verdicts.append(Verdict(cell: cell, base: old, change: new, threshold: threshold(for: cell).factor))
        }
        let onlyBase = base.order.filter { change.medians[$0] == nil }
        return Decision(verdicts: verdicts, onlyBase: onlyBase, onlyChange: onlyChange)
    }

    /// The gate's report: every judged cell (most suspect first), the cells not judged, the nearest to its
    /// threshold, and the regressions.
    static func report(_ decision: Decision, title: String) -> String {
        var text = "\(title): \(decision.verdicts.count) cells judged, most suspect first\n"
        for verdict in decision.verdicts.sorted(by: { $0.closeness > $1.closeness }) {
            text += (verdict.regressed ? "  REGRESSED " : "  ") + verdict.line + "\n"
        }
        if !decision.onlyBase.isEmpty {
            text += "removed, only the base gates (not judged): " + decision.onlyBase.joined(separator: ", ") + "\n"
        }
        if !decision.onlyChange.isEmpty {
            text += "new, only the change gates (not judged): " + decision.onlyChange.joined(separator: ", ") + "\n"
        }
        if let nearest = decision.nearest {
            text += "nearest its threshold: " + nearest.line + "\n" + nearest.processes + "\n"
        }
        let regressions = decision.regressions
        text +=
            regressions.isEmpty
            ? "no regression\n" : "REGRESSIONS:\n" + regressions.map { $0.line + "\n" + $0.processes + "\n" }.joined()
        return text
    }
}

/// Each gated cell's median `ratio_to_floor`, one per process, over the processes of one build.
struct ProcessMedians {
    /// Cells in the order first seen.
    private(set) var order: [String] = []
    private(set) var medians: [String: [Double]] = [:]

    /// Adds one process's rows: each gated row's median ratio (rows not gated are left out).
    mutating func add(_ rows: [(id: String, object: [String: Any])]) {
        for (id, object) in rows where BenchFile.isGated(object) {
            add(cell: id, median: Statistics.median(BenchFile.samples(object)))
        }
    }

    mutating func add(cell: String, median: Double) {
        if medians[cell] == nil { order.append(cell) }
        medians[cell, default: []].append(median)
    }
}
