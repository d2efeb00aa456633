import CardModels
import Foundation
import Testing

@testable import cardistry_bench

/// The statistics `compare` and the gate's report use, and `compare` itself (the gate's rule: `GateTests.swift`).
@Suite struct StatisticsTests {
    /// Every way of splitting `pooled` into an x side of `n` values, by brute force: the exact null distribution of U.
    private func bruteForceGreater(_ x: [Double], _ y: [Double]) -> Double {
        let pooled = x + y
        let n = x.count
        func u(_ xs: [Double], _ ys: [Double]) -> Int {
            xs.reduce(0) { sum, a in sum + ys.filter { a > $0 }.count }
        }
        let observed = u(x, y)
        var atLeast = 0
        var total = 0
        func choose(_ start: Int, _ chosen: [Int]) {
            if chosen.count == n {
                let set = Set(chosen)
                let xs = chosen.map { pooled[$0] }
                let ys = pooled.indices.filter { !set.contains($0) }.map { pooled[$0] }
                total += 1
                if u(xs, ys) >= observed { atLeast += 1 }
                return
            }
            guard start < pooled.count else { return }
            for index in start..<pooled.count { choose(index + 1, chosen + [index]) }
        }
        choose(0, [])
        return Double(atLeast) / Double(total)
    }

    @Test func mannWhitneyMatchesTheTextbookCases() {
        // n = m = 3: the null counts of U = 0…9 are 1 1 2 3 3 3 3 2 1 1 (20 arrangements).
        #expect(abs(Statistics.mannWhitneyGreater([4, 5, 6], [1, 2, 3]) - 0.05) < 1e-12)
        #expect(abs(Statistics.mannWhitneyGreater([2, 5, 6], [1, 3, 4]) - 0.2) < 1e-12)
        #expect(Statistics.mannWhitneyGreater([1, 2, 3], [4, 5, 6]) == 1)
    }

    @Test func exactPValuesEqualBruteForceEnumeration() {
        var random = SplitMix64(seed: 30)
        for _ in 0..<300 {
            let n = Int(random.next() % 5) + 1
            let m = Int(random.next() % 5) + 1
            let shift = Double(random.next() % 3)
            let x = (0..<n).map { _ in Double(random.next() % 1_000_000) / 1e6 + shift }
            let y = (0..<m).map { _ in Double(random.next() % 1_000_000) / 1e6 }
            let exact = Statistics.mannWhitneyGreater(x, y)
            #expect(abs(exact - bruteForceGreater(x, y)) < 1e-9, "x \(x) y \(y)")
        }
    }

    /// The million cells' sizes (60 rounds against a baseline of 200) without ties: the exact distribution's counts
    /// overflowed double precision, so a 3× slowdown with every new round above every old one scored p = 0.95
    /// and the gate missed it (`million/deck-move`, `drop`, `action-sort`).
    @Test func separatedSamplesOfTheGatesSizesAreSignificant() {
        for (n, m) in [(60, 200), (15, 75), (45, 200), (8, 8), (20, 40)] {
            let y = (0..<m).map { Double($0) / Double(m) }
            let x = (0..<n).map { 2 + Double($0) / Double(n) }
            let p = Statistics.mannWhitneyGreater(x, y)
            #expect(p < 1e-4, "n \(n) m \(m): p = \(p)")
            #expect(Statistics.mannWhitneyGreater(y, x) > 0.999, "n \(n) m \(m): the other way")
        }
        // Exact where the counts fit: 1 / C(16, 8) for eight against eight.
        let eight = Statistics.mannWhitneyGreater((0..<8).map { 10 + Double($0) }, (0..<8).map { Double($0) })
        #expect(abs(eight - 1.0 / 12_870) < 1e-12)
        #expect(Statistics.exactCountsFit(20, 40) && !Statistics.exactCountsFit(60, 200))
    }

    @Test func theNormalApproximationAgreesWithTheExactTestOnLargeSamples() {
        var random = SplitMix64(seed: 31)
        for _ in 0..<50 {
            let x = (0..<25).map { _ in Double(random.next() % 1_000_000) / 1e6 + 0.1 }
            let y = (0..<25).map { _ in Double(random.next() % 1_000_000) / 1e6 }
            let exact = Statistics.mannWhitneyGreater(x, y)
            // Ties force the approximation: duplicate one value on each side.
            let approximate = Statistics.mannWhitneyGreater(x + [0.5], y + [0.5])
            #expect(abs(exact - approximate) < 0.03, "exact \(exact) approximate \(approximate)")
        }
    }

    @Test func bootstrapIntervalsAreSeededAndCoverTheChange() {
        var random = SplitMix64(seed: 32)
        let old = (0..<15).map { _ in 1 + Double(random.next() % 1000) / 20_000 }
        let new = old.map { $0 * 1.5 }
        let first = Statistics.bootstrapMedianRatio(old: old, new: new)
        let second = Statistics.bootstrapMedianRatio(old: old, new: new)
        #expect(first.low == second.low && first.high == second.high)
        #expect(first.low < 1.5 && 1.5 < first.high)
        #expect(first.low > 1.4)
    }
}

@Suite struct RowTests {
    @Test func aReportOnlyRowIsNotGatedAndSaysWhy() throws {
        let samples = CellSamples(
            cell: Timing(medianMs: 1, minMs: 1, runs: 3), floor: Timing(medianMs: 2, minMs: 2, runs: 3),
            ratios: [0.5, 0.5, 0.5])
        var row = BenchRow(suite: "deck", workload: "sort", n: 10, key: "u64", impl: "scene", samples: samples)
        #expect(row.gated)
        row.reportOnly = "moves with the machine"
        #expect(!row.gated)
        let object = try #require(JSONSerialization.jsonObject(with: Data(row.json.utf8)) as? [String: Any])
        #expect(object["gated"] as? Bool == false)
        #expect((object["note"] as? String)?.contains("not gated: moves with the machine") == true)
    }

    @Test func slowdownRulesMatchByText() {
        let rules = Slowdown.parse("1.3:diff/,2")
        #expect(rules.count == 2)
        #expect(rules[0].factor == 1.3 && rules[0].filter == "diff/")
        #expect(rules[1].factor == 2 && rules[1].filter.isEmpty)
        #expect(Slowdown.parse("").isEmpty)
    }
}

@Suite struct CompareTests {
    private func fixture(_ name: String) throws -> String {
        try #require(Bundle.module.url(forResource: "Fixtures/" + name, withExtension: nil)).path
    }

    /// Two recorded runs of the diff and physics cells, the second with `CARDISTRY_BENCH_SLOWDOWN=1.5:move1`: the
    /// four `move1` cells are slower, about 1.5×; every other cell is within 10 % (two processes of one build differ
    /// that much in a few cells), and those under 5 % are no change.
    @Test func comparesTwoRecordedRuns() throws {
        let old = try BenchFile.rows(at: try fixture("before.jsonl"))
        let new = try BenchFile.rows(at: try fixture("after.jsonl"))
        let compared = Compare.lines(old: old, new: new)
        #expect(compared.lines.count == 21)
        for line in compared.lines {
            let change = line.new / line.old
            if line.cell.contains("/move1/") {
                #expect(line.verdict == "slower", "\(line.cell)")
                #expect(line.low > 1.3 && line.high < 1.8 && change > 1.4 && change < 1.6, "\(line.cell)")
            } else {
                #expect(abs(change - 1) < 0.1, "\(line.cell)")
                if abs(change - 1) < 0.05 { #expect(line.verdict == "~", "\(line.cell)") }
            }
        }
    }

    /// The README's example is this output, exactly.
    @Test func theReadmeShowsWhatCompareprints() throws {
        let old = try BenchFile.rows(at: try fixture("before.jsonl"))
        let new = try BenchFile.rows(at: try fixture("after.jsonl"))
        let text = Compare.render(
            Compare.lines(old: old, new: new), markdown: false, paths: ["before.jsonl", "after.jsonl"])
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let contents = try String(contentsOf: readme, encoding: .utf8)
        #expect(contents.contains("```text\n" + text + "```"))
    }

    @Test func markdownIsATable() throws {
        let old = try BenchFile.rows(at: try fixture("before.jsonl"))
        let text = Compare.render(Compare.lines(old: old, new: old), markdown: true, paths: ["a", "b"])
        let lines = text.split(separator: "\n")
        #expect(lines[0].hasPrefix("| cell |"))
        #expect(lines[1].hasPrefix("|---|"))
        #expect(text.contains("0 slower, 0 faster"))
    }

    @Test func badArgumentsAreAUsageError() {
        #expect(Compare.main(["only-one.jsonl"]) == 2)
        #expect(Compare.main(["--frobnicate", "a", "b"]) == 2)
        #expect(Compare.main(["/nonexistent/a.jsonl", "/nonexistent/b.jsonl"]) == 2)
    }
}
