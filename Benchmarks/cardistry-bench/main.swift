import CardFrontend
import Foundation

// cardistry-bench: Cardistry's performance suite. Every gated figure is a ratio to a floor measured round by round
// in the same run (see Sampling.swift); the gate (base build against change) is in Gate.swift and GateRun.swift,
// `compare` in Compare.swift.

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
    SceneFormatSuite(),
    DeckSceneSuite(),
    DeckOrderSuite(),
    TUISuite(),
    StdioSuite(),
    MillionSuite(),
    AccessibilitySuite(),
]

let usage = """
    Usage: cardistry-bench [--quick] [--json] [--filter TEXT]... [--only ID,…] [--runs N]
           cardistry-bench compare [--markdown] OLD.jsonl NEW.jsonl
           cardistry-bench gate --base BENCH [--change BENCH] [--processes N] [--power]

      --quick          small sizes (what CI runs); gated cells still get 15 rounds each
      --json           one JSON object per cell on standard output
      --filter TEXT    only cells whose id (suite/workload/n/key/impl) contains TEXT; repeatable, all must match
      --only ID,…      exactly these cells, by id (suite/workload/n/key/impl), whatever --filter says
      --runs N         measured runs per cell after one warm-up (default 7, quick 5; gated cells at least 15/21)

      compare          a table of every cell both files measured: the change in ratio_to_floor, its 95 %
                       bootstrap interval, the Mann–Whitney p-value and a verdict (--markdown for a pull request)
      gate             the base build's benchmark against the change's, in interleaved processes; exit 1 on a
                       regression (the rule: Gate.swift, README; scripts/bench-gate.sh builds both and runs it)

    CARDISTRY_BENCH_SLOWDOWN=FACTOR[:TEXT],… makes the gated cells whose id contains TEXT FACTOR times slower
    (for testing the gate's power; floors are never slowed).

    Suites: \(allSuites.map(\.name).joined(separator: ", "))

    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("cardistry-bench: \(message)\n\n\(usage)".utf8))
    exit(2)
}

let commandLine = Array(CommandLine.arguments.dropFirst())
if commandLine.first == "compare" {
    exit(Compare.main(Array(commandLine.dropFirst())))
}
if commandLine.first == "gate" {
    exit(GateRun.main(Array(commandLine.dropFirst())))
}

var quick = false
var json = false
var filters: [String] = []
var runs: Int?
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
    case "--only": only = Set(nextValue(for: "--only").split(separator: ",").map(String.init))
    case "--help", "-h":
        print(usage, terminator: "")
        exit(0)
    default: fail("unknown argument '\(argument)'")
    }
}

let table = TablePrinter()
let suiteNames = Set(allSuites.map(\.name))
let defaultRuns = runs ?? (quick ? 5 : 7)
@MainActor func printRow(_ row: BenchRow) {
    writeStandardOutput(json ? row.json + "\n" : table.line(row) + "\n")
}
if !json { writeStandardOutput(table.header) }

let context = BenchContext(
    quick: quick, filters: filters, runs: defaultRuns, suiteNames: suiteNames, only: only, sink: printRow)
for suite in allSuites { suite.run(context) }
