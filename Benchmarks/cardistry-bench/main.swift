import CardFrontend
import Foundation

// cardistry-bench: Cardistry's performance suite. Every gated figure is a ratio to a floor measured round by round
// in the same run (see Sampling.swift); the gate's rule is in Baseline.swift, `compare` in Compare.swift.

// The heap as the `cardistry` executable sets it up (fixed thresholds, one arena), before any thread starts: cells
// then measure the allocator the product runs with, and glibc's dynamic mmap threshold, which moves with what was
// freed before, cannot shift a cell between runs (it moved the 10,000-key diff cells by 1.4×).
ProcessMemory.configureForLargeDecks()

let allSuites: [any BenchSuite] = [
    DiffSuite(),
    PhysicsSuite(),
    GesturesSuite(),
    PersistenceSuite(),
    SceneSuite(),
    DeckSceneSuite(),
    TUISuite(),
    StdioSuite(),
    MillionSuite(),
]

let usage = """
    Usage: cardistry-bench [--quick] [--json] [--filter TEXT]... [--runs N] [--repeat R] [--baseline FILE]
           cardistry-bench compare [--markdown] OLD.jsonl NEW.jsonl

      --quick          small sizes (what CI runs); gated cells still get 15 rounds each
      --json           one JSON object per cell on standard output
      --filter TEXT    only cells whose id (suite/workload/n/key/impl) contains TEXT; repeatable, all must match
      --runs N         measured runs per cell after one warm-up (default 7, quick 5; gated cells at least 15/21)
      --repeat R       run every suite R times, each in a fresh process and every second one with one core
                       busy, and print each cell once, its rounds pooled, with its drift (the largest over the
                       smallest of the R medians): how a baseline is made (scripts/refresh-baseline.sh)
      --baseline FILE  judge each gated cell against FILE (the rule: Baseline.swift, README); exit 1 on a regression
      --only ID,…      exactly these cells (what the gate's re-measurement in a fresh process runs, with the
                       gated cells before them in their suites: alone, a cell can read 0.8–1.5× a whole run's figure)

      compare          a table of every cell both files measured: the change in ratio_to_floor, its 95 %
                       bootstrap interval, the Mann–Whitney p-value and a verdict (--markdown for a pull request)

    CARDISTRY_BENCH_SLOWDOWN=FACTOR[:TEXT],… makes the gated cells whose id contains TEXT FACTOR times slower
    (for testing the gate's power; floors are never slowed).

    Suites: \(allSuites.map(\.name).joined(separator: ", "))

    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("cardistry-bench: \(message)\n\n\(usage)".utf8))
    exit(2)
}

var commandLine = Array(CommandLine.arguments.dropFirst())
if commandLine.first == "compare" {
    exit(Compare.main(Array(commandLine.dropFirst())))
}

var quick = false
var json = false
var filters: [String] = []
var runs: Int?
var repeats = 1
var baselinePath: String?
var only: Set<String>?
var arguments = commandLine.makeIterator()

@MainActor func nextValue(for option: String) -> String {
    guard let value = arguments.next() else { fail("\(option) needs a value") }
    return value
}

while let argument = arguments.next() {
    switch argument {
    case "--quick": quick = true
    case "--json": json = true
    case "--filter": filters.append(nextValue(for: "--filter"))
    case "--runs":
        guard let value = arguments.next().flatMap({ Int($0) }), value > 0 else {
            fail("--runs needs a positive number")
        }
        runs = value
    case "--repeat":
        guard let value = arguments.next().flatMap({ Int($0) }), (1...50).contains(value) else {
            fail("--repeat needs a number from 1 to 50")
        }
        repeats = value
    case "--baseline": baselinePath = nextValue(for: "--baseline")
    case "--only": only = Set(nextValue(for: "--only").split(separator: ",").map(String.init))
    case "--help", "-h":
        print(usage, terminator: "")
        exit(0)
    default: fail("unknown argument '\(argument)'")
    }
}

var baseline: Baseline?
if let baselinePath {
    do { baseline = try Baseline(contentsOf: baselinePath) } catch { fail("cannot read the baseline: \(error)") }
}

if repeats > 1 { json = true }
let table = TablePrinter()
let suiteNames = Set(allSuites.map(\.name))
let defaultRuns = runs ?? (quick ? 5 : 7)
@MainActor func printRow(_ row: BenchRow) {
    writeStandardOutput(json ? row.json + "\n" : table.line(row) + "\n")
}
if !json { writeStandardOutput(table.header) }

/// The arguments a child run gets: this run's size and filters, JSON out.
@MainActor func childArguments(only cells: Set<String>? = nil) -> [String] {
    var result = ["--json"] + (quick ? ["--quick"] : []) + (runs.map { ["--runs", String($0)] } ?? [])
    if let cells { result += ["--only", cells.sorted().joined(separator: ",")] }
    for filter in filters { result += ["--filter", filter] }
    return result
}

var measuredRows: [BenchRow] = []
if repeats == 1 {
    let context = BenchContext(
        quick: quick, filters: filters, runs: defaultRuns, suiteNames: suiteNames, only: only, sink: printRow)
    for suite in allSuites { suite.run(context) }
    measuredRows = context.rows
} else {
    // Each repeat in a fresh process: what moves a cell from one run to the next (where its memory landed, the
    // allocator's history) is then in its drift, as it will be between two CI runs.
    // Every second repeat runs with one core busy (`BusyCore`), so that a cell's drift also spans the load the
    // gate is held to tolerate: a `diff` or `physics` cell whose ratio moves with load gets the minimum effect that
    // movement needs (the other cells' minimum effect is their cap, `GateRule`).
    var passes: [[(id: String, object: [String: Any])]] = []
    var loaded: [Bool] = []
    /// Runs repeat `pass` of the cells `cells` (all of this run's when nil) in a fresh process, under load when it
    /// is an even one, and keeps its rows.
    func repeatRun(_ pass: Int, of cells: Set<String>?, named name: String) {
        let underLoad = pass % 2 == 0 && BusyCore.isUseful
        writeStandardError(
            "… repeat \(pass) of \(repeats)\(name), in a fresh process\(underLoad ? ", one core busy" : "")\n")
        let busy = underLoad ? BusyCore() : nil
        let rows = ChildRun.rows(arguments: childArguments(only: cells))
        busy?.stop()
        guard let rows else { fail("repeat \(pass)\(name) failed") }
        passes.append(rows.filter { cells?.contains($0.id) ?? true })
        loaded.append(underLoad)
    }
    for pass in 1...repeats { repeatRun(pass, of: only, named: "") }
    // The cells with the narrowest cap (diff, physics) are judged on nine processes pooled; their baseline pools
    // four times R (3R more runs of them alone, about a second each), so that its median sits inside their spread
    // from process to process, not on one side of it (`diff/move1/1000/uuid` has two modes 13 % apart).
    let narrow = Set(
        (passes.first ?? []).filter { BenchFile.isGated($0.object) && GateRule.isNarrow($0.id) }.map(\.id))
    if !narrow.isEmpty {
        for pass in 1...(3 * repeats) {
            repeatRun(pass, of: narrow, named: " of the \(narrow.count) diff and physics cells")
        }
    }
    for line in BenchFile.pooled(passes, loaded: loaded) { writeStandardOutput(line + "\n") }
    exit(0)
}

if let baseline {
    let gated = measuredRows.filter { $0.gated && baseline.cells[$0.cellID] != nil }
    let suspects = baseline.suspects(in: measuredRows)
    let missing = baseline.missing(from: measuredRows)
    var report = "baseline: \(gated.count) gated cells judged (rule: Baseline.swift), \(suspects.count) suspects"
    if !missing.isEmpty { report += ", \(missing.count) baseline cells not measured in this run" }
    let slowed = measuredRows.filter { $0.gated && Slowdown.factor(for: $0.cellID) > 1 }.count
    if slowed > 0 { report += "; \(slowed) cells slowed by CARDISTRY_BENCH_SLOWDOWN" }
    writeStandardError(report + "\n")
    for (_, message) in suspects { writeStandardError("suspect: " + message + "\n") }
    var regressions: [(cell: String, message: String)] = []
    // Each suspect is measured twice more, each time in a fresh process, and judged on the three runs pooled. The
    // cells whose cap leaves the least room (1.14 against the 1.3× they must catch: diff and physics) are measured
    // eight times more, suspect or not, and judged on nine processes pooled: one process can sit 8–30 % away from
    // the baseline in their spread from process to process (five pooled processes once read an unchanged
    // `diff/shuffle/1000/uuid` at 1.13× in CI, and a 1.3× slowdown as low as 1.17×). A re-measurement of them
    // takes about a second (`DiffSuite` skips the standard library's diff in such a run).
    let narrow = Set(gated.map(\.cellID).filter { GateRule.isNarrow($0) })
    let cells = Set(suspects.map(\.cell)).union(narrow)
    if !cells.isEmpty {
        var pooled: [String: [Double]] = [:]
        for row in measuredRows where cells.contains(row.cellID) { pooled[row.cellID] = row.ratioSamples }
        let attempts = narrow.isEmpty ? 2 : GateRule.narrowProcesses - 1
        // A suspect is measured again after the gated cells of its suite that precede it: measured alone, a cell
        // runs in another process than the whole run's (`Baseline.remeasured`).
        let context = Baseline.remeasured(suspects: Set(suspects.map(\.cell)), gated: gated.map(\.cellID))
        for attempt in 1...attempts {
            let group = attempt <= 2 ? cells : narrow
            guard !group.isEmpty else { break }
            let run = attempt <= 2 ? context.union(narrow) : narrow
            writeStandardError(
                "re-measuring \(group.count) cells in a fresh process (\(attempt) of \(attempts)"
                    + (run.count > group.count ? ", with \(run.count - group.count) more of their suites" : "")
                    + "): " + group.sorted().joined(separator: ", ") + "\n")
            guard let retry = ChildRun.rows(arguments: childArguments(only: run)) else {
                fail("re-measuring in a child process failed")
            }
            for row in retry where group.contains(row.id) {
                pooled[row.id, default: []] += BenchFile.samples(row.object)
            }
        }
        for cell in cells.sorted() {
            guard let base = baseline.cells[cell], let samples = pooled[cell] else { continue }
            let judgement = GateRule.judge(cellID: cell, base: base, current: samples, stage: .confirm)
            writeStandardError("judged: \(judgement.message)\(judgement.regressed ? ": REGRESSED" : "")\n")
            if judgement.regressed { regressions.append((cell, judgement.message)) }
        }
    }
    if !regressions.isEmpty {
        writeStandardError("REGRESSIONS:\n" + regressions.map(\.message).joined(separator: "\n") + "\n")
        exit(1)
    }
    // A whole quick run (the baseline's mode, no --filter, no --only) must gate exactly the baseline's cells: a cell
    // whose id changed would otherwise leave the gate without a word.
    if quick, filters.isEmpty, only == nil,
        let problem = Baseline.coverageProblem(missing: missing, unjudged: baseline.unjudged(in: measuredRows))
    {
        writeStandardError(problem + "\n")
        exit(1)
    }
    writeStandardError("no regression\n")
}
