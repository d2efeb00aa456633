import Foundation

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
                throw BenchFileError(message: "\(path):\(lineNumber + 1): not a benchmark row")
            }
            rows.append((id, object))
        }
        return rows
    }
}

struct BenchFileError: Error, CustomStringConvertible {
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
