import Foundation

/// The committed baseline (`Benchmarks/baseline.jsonl`, written by `--quick --json`) and the regression check.
///
/// Only `ratio_to_floor` is compared: it is measured side by side with its floor in the same run, so it drifts far
/// less than absolute times on a noisy machine. A cell regresses when its ratio exceeds the baseline's by more than
/// the tolerance (`--tolerance`, default 0.5, i.e. 50 % higher) *and* by more than an absolute slack of 0.25, which
/// keeps sub-millisecond cells whose ratios jitter from failing the build. A cell that regresses is measured again
/// (twice at most, on its own) and fails only if it regresses every time, so one noisy moment cannot fail CI.
struct Baseline {
    var ratios: [String: Double]

    static let defaultTolerance = 0.5
    static let absoluteSlack = 0.25

    init(contentsOf path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var ratios: [String: Double] = [:]
        for (lineNumber, line) in text.split(separator: "\n").enumerated() where !line.isEmpty {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let suite = object["suite"] as? String, let workload = object["workload"] as? String,
                let n = object["n"] as? Int, let key = object["key"] as? String, let impl = object["impl"] as? String
            else {
                throw BaselineError(message: "\(path):\(lineNumber + 1): not a benchmark row")
            }
            if let ratio = object["ratio_to_floor"] as? Double, object["gated"] as? Bool != false {
                ratios["\(suite)/\(workload)/\(n)/\(key)/\(impl)"] = ratio
            }
        }
        self.ratios = ratios
    }

    /// The rows that regressed (cell id and a readable explanation).
    func regressions(in rows: [BenchRow], tolerance: Double) -> [(cell: String, message: String)] {
        rows.compactMap { row in
            guard row.gated, let current = row.ratioToFloor, let base = ratios[row.cellID] else { return nil }
            let limit = max(base * (1 + tolerance), base + Self.absoluteSlack)
            guard current > limit else { return nil }
            let message =
                "\(row.cellID): ratio_to_floor \(format(current)) > limit \(format(limit)) (baseline \(format(base)))"
            return (row.cellID, message)
        }
    }

    /// Baseline cells that this run did not measure (reported, not fatal: `--filter` narrows runs on purpose).
    func missing(from rows: [BenchRow]) -> [String] {
        let measured = Set(rows.map(\.cellID))
        return ratios.keys.filter { !measured.contains($0) }.sorted()
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
