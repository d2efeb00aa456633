import Foundation

/// `cardistry-bench compare OLD.jsonl NEW.jsonl`: what changed between two runs (before and after a change), cell
/// by cell, as benchstat prints it.
///
/// For every cell both files measured round by round: the old and new `ratio_to_floor` (the median of the rounds),
/// the change in per cent with its 95 % bootstrap interval (`Statistics.bootstrapMedianRatio`), the two-sided
/// Mann–Whitney p-value, and a verdict: `slower` or `faster` when p < 0.05, the interval excludes no change and the
/// change is at least 5 %, `~` (no change) otherwise. The 5 % is there because the rounds of one run share its
/// process: two runs of one unchanged build differ by a few per cent in some cells (where their memory landed), and
/// the test, which sees only the rounds, would call that a change. Cells only one file measured are listed at the end. The ratio to a floor measured
/// side by side is what is compared, not milliseconds, so two runs on a noisy machine, or on two machines, compare.
enum Compare {
    static let alpha = 0.05
    static let threshold = 0.05

    struct Line {
        var cell: String
        var old: Double
        var new: Double
        var low: Double
        var high: Double
        var p: Double
        var rounds: (Int, Int)

        var verdict: String {
            guard p < Compare.alpha, abs(new / old - 1) >= Compare.threshold else { return "~" }
            if low > 1 { return "slower" }
            if high < 1 { return "faster" }
            return "~"
        }
    }

    /// Runs the subcommand; returns the exit status (0, or 2 for bad arguments or unreadable files).
    static func main(_ arguments: [String]) -> Int32 {
        var markdown = false
        var paths: [String] = []
        for argument in arguments {
            switch argument {
            case "--markdown": markdown = true
            case "--help", "-h":
                writeStandardOutput("Usage: cardistry-bench compare [--markdown] OLD.jsonl NEW.jsonl\n")
                return 0
            default:
                if argument.hasPrefix("--") {
                    writeStandardError("cardistry-bench compare: unknown option '\(argument)'\n")
                    return 2
                }
                paths.append(argument)
            }
        }
        guard paths.count == 2 else {
            writeStandardError("Usage: cardistry-bench compare [--markdown] OLD.jsonl NEW.jsonl\n")
            return 2
        }
        do {
            let old = try BenchFile.rows(at: paths[0])
            let new = try BenchFile.rows(at: paths[1])
            writeStandardOutput(render(lines(old: old, new: new), markdown: markdown, paths: paths))
            return 0
        } catch {
            writeStandardError("cardistry-bench compare: \(error)\n")
            return 2
        }
    }

    /// The compared cells, in the new file's order, and the ids only one side has.
    static func lines(
        old: [(id: String, object: [String: Any])], new: [(id: String, object: [String: Any])]
    ) -> (lines: [Line], onlyOld: [String], onlyNew: [String]) {
        var oldSamples: [String: [Double]] = [:]
        for (id, object) in old {
            let samples = BenchFile.samples(object)
            if !samples.isEmpty { oldSamples[id] = samples }
        }
        var result: [Line] = []
        var seen = Set<String>()
        var onlyNew: [String] = []
        for (id, object) in new {
            let samples = BenchFile.samples(object)
            guard !samples.isEmpty else { continue }
            guard let before = oldSamples[id] else {
                onlyNew.append(id)
                continue
            }
            seen.insert(id)
            let interval = Statistics.bootstrapMedianRatio(old: before, new: samples)
            let p = min(
                1,
                2
                    * min(
                        Statistics.mannWhitneyGreater(samples, before), Statistics.mannWhitneyGreater(before, samples)))
            result.append(
                Line(
                    cell: id, old: Statistics.median(before), new: Statistics.median(samples), low: interval.low,
                    high: interval.high, p: p, rounds: (before.count, samples.count)))
        }
        let onlyOld = oldSamples.keys.filter { !seen.contains($0) }.sorted()
        return (result, onlyOld, onlyNew)
    }

    static func render(
        _ compared: (lines: [Line], onlyOld: [String], onlyNew: [String]), markdown: Bool, paths: [String]
    ) -> String {
        let header = ["cell", "old ratio", "new ratio", "change", "95 % interval", "p", "n", "verdict"]
        let rows = compared.lines.map { line -> [String] in
            [
                line.cell, format(line.old, digits: 3), format(line.new, digits: 3),
                percent(line.new / line.old), "[\(percent(line.low)), \(percent(line.high))]", formatP(line.p),
                "\(line.rounds.0)+\(line.rounds.1)", line.verdict,
            ]
        }
        var text = ""
        if markdown {
            text += "| " + header.joined(separator: " | ") + " |\n"
            text += "|" + header.map { _ in "---|" }.joined() + "\n"
            for row in rows {
                text +=
                    "| " + row.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
            }
        } else {
            var widths = header.map(\.count)
            for row in rows { for (k, cell) in row.enumerated() { widths[k] = max(widths[k], cell.count) } }
            func pad(_ row: [String]) -> String {
                row.enumerated().map { k, cell in
                    k == 0
                        ? cell.padding(toLength: widths[k], withPad: " ", startingAt: 0)
                        : String(repeating: " ", count: widths[k] - cell.count) + cell
                }.joined(separator: "  ")
            }
            text += pad(header) + "\n"
            for row in rows { text += pad(row) + "\n" }
        }
        let slower = compared.lines.filter { $0.verdict == "slower" }.count
        let faster = compared.lines.filter { $0.verdict == "faster" }.count
        text +=
            "\n\(compared.lines.count) cells compared (\(paths[0]) → \(paths[1])): \(slower) slower, \(faster) faster, "
            + "\(compared.lines.count - slower - faster) no change (~: p ≥ \(alpha), a change under "
            + "\(format(threshold * 100, digits: 0)) %, or an interval that includes no change)\n"
        if !compared.onlyOld.isEmpty {
            text += "only in \(paths[0]): " + compared.onlyOld.joined(separator: ", ") + "\n"
        }
        if !compared.onlyNew.isEmpty {
            text += "only in \(paths[1]): " + compared.onlyNew.joined(separator: ", ") + "\n"
        }
        return text
    }

    /// A change factor as a signed percentage: 1.07 → "+7.0 %".
    static func percent(_ factor: Double) -> String {
        guard factor.isFinite else { return "—" }
        let value = (factor - 1) * 100
        return (value >= 0 ? "+" : "") + format(value, digits: 1) + " %"
    }
}
