#if canImport(Glibc)
    import Glibc
#endif

/// A group of benchmark cells. Each suite lives in its own file and is listed once in `allSuites` (main.swift).
protocol BenchSuite {
    /// The suite's name, the first part of every cell id (`diff`, `physics`, …).
    var name: String { get }
    /// Measures every cell the context's filter selects, reporting each row through `context.emit`.
    func run(_ context: BenchContext)
}

/// What a suite needs while it runs: the options, progress output, and the sink for finished rows.
final class BenchContext {
    /// Small sizes and fewer runs, for CI.
    let quick: Bool
    /// Substrings of a cell id (`suite/workload/n/key/impl`); a cell runs when its id contains every one.
    let filters: [String]
    /// Measured runs per cell (at least 7 unless `--runs` says otherwise).
    let runs: Int
    private(set) var rows: [BenchRow] = []
    private let sink: (BenchRow) -> Void

    /// The names of all suites, to tell a filter that names a suite from one that names a size or a key.
    let suiteNames: Set<String>
    /// When set, exactly these cells are selected (the gate's re-measurement of suspects), whatever `filters` say.
    let only: Set<String>?

    init(
        quick: Bool, filters: [String], runs: Int, suiteNames: Set<String>, only: Set<String>? = nil,
        sink: @escaping (BenchRow) -> Void
    ) {
        self.quick = quick
        self.only = only
        self.suiteNames = suiteNames
        self.filters = filters
        self.runs = runs
        self.sink = sink
    }

    /// Whether any of the cells `prefix/impl` (for the given implementations) is selected, so a suite can skip
    /// the work of a whole group. Rows are filtered again in `emit`, so a floor measured only for its ratio
    /// is not printed unless it is selected too.
    func selects(_ prefix: String, impls: [String]) -> Bool {
        impls.contains { selects(cellID: prefix + "/" + $0) }
    }

    /// Whether cells whose ids start with `prefix` may be selected, so a suite can skip a whole group cheaply.
    /// A filter that names a suite rules out groups of other suites and groups it does not lie within; any other
    /// filter (a size, a key, an implementation) may still match a cell inside the group.
    func selects(_ prefix: String) -> Bool {
        if let only { return only.contains { $0.hasPrefix(prefix) } }
        return filters.allSatisfy { filter in
            if prefix.contains(filter) { return true }
            let filterSuite = filter.split(separator: "/").first.map(String.init) ?? ""
            guard suiteNames.contains(filterSuite) else { return true }
            let prefixSuite = prefix.split(separator: "/").first.map(String.init) ?? ""
            return filterSuite == prefixSuite && filter.hasPrefix(prefix)
        }
    }

    /// Whether the cell with this full id is selected.
    func selects(cellID: String) -> Bool {
        if let only { return only.contains(cellID) }
        return filters.allSatisfy { cellID.contains($0) }
    }

    /// Records a finished row and prints it, if the filters select it.
    func emit(_ row: BenchRow) {
        guard selects(cellID: row.cellID) else { return }
        rows.append(row)
        sink(row)
    }

    /// A progress line on standard error (never on standard output, which carries the results).
    func progress(_ message: String) {
        writeStandardError("… " + message + "\n")
    }
}
