import CardModels

/// The reorder diff beside its floor and the standard library (filled in with the diff benchmark).
struct DiffSuite: BenchSuite {
    let name = "diff"
    func run(_ context: BenchContext) {}
}
