import Foundation

// cardistry-bench: Cardistry's performance suite. Every goal is a ratio measured side by side in one run.
//
//   cardistry-bench [--quick] [--json] [--filter TEXT]... [--runs N] [--baseline FILE] [--tolerance T]

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
    Usage: cardistry-bench [--quick] [--json] [--filter TEXT]... [--runs N] [--baseline FILE] [--tolerance T]

      --quick          small sizes and fewer runs (what CI runs)
      --json           one JSON object per cell on standard output
      --filter TEXT    only cells whose id (suite/workload/n/key/impl) contains TEXT; repeatable, all must match
      --runs N         measured runs per cell after one warm-up (default 7, quick 5)
      --baseline FILE  compare each cell's ratio_to_floor with FILE; exit 1 on a regression
      --tolerance T    allowed relative rise of ratio_to_floor over the baseline (default 0.5 = +50 %)

    Suites: \(allSuites.map(\.name).joined(separator: ", "))

    """

var quick = false
var json = false
var filters: [String] = []
var runs: Int?
var baselinePath: String?
var tolerance = Baseline.defaultTolerance
var arguments = CommandLine.arguments.dropFirst().makeIterator()

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("cardistry-bench: \(message)\n\n\(usage)".utf8))
    exit(2)
}

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
    case "--baseline": baselinePath = nextValue(for: "--baseline")
    case "--tolerance":
        guard let value = arguments.next().flatMap({ Double($0) }), value >= 0 else {
            fail("--tolerance needs a non-negative number")
        }
        tolerance = value
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

let table = TablePrinter()
let context = BenchContext(
    quick: quick, filters: filters, runs: runs ?? (quick ? 5 : 7), suiteNames: Set(allSuites.map(\.name))
) { row in
    writeStandardOutput(json ? row.json + "\n" : table.line(row) + "\n")
}
if !json { writeStandardOutput(table.header) }
for suite in allSuites {
    suite.run(context)
}

if let baseline {
    var regressions = baseline.regressions(in: context.rows, tolerance: tolerance)
    let missing = baseline.missing(from: context.rows)
    let checked = context.rows.filter { $0.gated && $0.ratioToFloor != nil && baseline.ratios[$0.cellID] != nil }.count
    var report = "baseline: \(checked) cells compared, tolerance +\(format(tolerance * 100, digits: 0)) %"
    if !missing.isEmpty { report += ", \(missing.count) baseline cells not measured in this run" }
    writeStandardError(report + "\n")
    // Confirm each regression by measuring the cell again on its own; only a regression every time counts.
    for attempt in 1...2 where !regressions.isEmpty {
        var confirmed: [(cell: String, message: String)] = []
        for (cell, message) in regressions {
            writeStandardError("re-measuring \(cell) (attempt \(attempt) of 2)\n")
            let retry = BenchContext(
                quick: quick, filters: [cell], runs: runs ?? (quick ? 5 : 7), suiteNames: Set(allSuites.map(\.name))
            ) { _ in }
            for suite in allSuites { suite.run(retry) }
            let again = baseline.regressions(in: retry.rows.filter { $0.cellID == cell }, tolerance: tolerance)
            if let repeated = again.first { confirmed.append(repeated) } else { _ = message }
        }
        regressions = confirmed
    }
    if !regressions.isEmpty {
        writeStandardError("REGRESSIONS:\n" + regressions.map(\.message).joined(separator: "\n") + "\n")
        exit(1)
    }
}
