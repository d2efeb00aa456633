/// One measured cell of a benchmark: what was measured, how long it took, and the ratios that the gate
/// compares. Rows print as a table line or as one JSON object per line (`--json`).
struct BenchRow {
    var suite: String
    var workload: String
    var n: Int
    var key: String
    var impl: String
    var medianMs: Double
    var minMs: Double
    /// Lower is better; the gate guards it (see `Gate`). For a gated cell, the median of
    /// `ratioSamples`.
    var ratioToFloor: Double?
    /// The cell's time over its floor's, one per round (see `CellSamples`): what the gate and `compare` test.
    var ratioSamples: [Double] = []
    /// Further named figures (moves, minimal_moves, ratio_to_stdlib, peak_mb, ns_per_eval, …), in print order.
    var metrics: [(String, Double)] = []
    /// A free-text remark (why a cell was skipped, for instance).
    var note: String?
    /// Why a cell measured round by round is reported but not gated, when it is not (written into the note): a
    /// cell the gate cannot judge with its power, whose code another gated row guards.
    var reportOnly: String?
    /// Whether the gate guards this row. Reference implementations (the floor, the standard library,
    /// Foundation's Codable) are measured for comparison only: their speed is not ours to keep. Round trips
    /// through real pipes (`pipe`) measure the scheduler as much as our code and swing several-fold between
    /// runs on a busy machine, so they are reported, not gated. A row is gated only when it carries the per-round
    /// samples the gate's test needs.
    var gated: Bool {
        !["floor", "stdlib", "codable", "jsonencoder", "layout-only", "pipe"].contains(impl)
            && !impl.hasPrefix("floor") && !ratioSamples.isEmpty && reportOnly == nil
    }

    init(
        suite: String, workload: String, n: Int, key: String, impl: String, timing: Timing,
        ratioToFloor: Double? = nil, metrics: [(String, Double)] = [], note: String? = nil
    ) {
        self.suite = suite
        self.workload = workload
        self.n = n
        self.key = key
        self.impl = impl
        self.medianMs = timing.medianMs
        self.minMs = timing.minMs
        self.ratioToFloor = ratioToFloor
        self.metrics = metrics
        self.note = note
    }

    /// A gated row from a cell measured round by round against its floor: the timing is the cell's, the ratio the
    /// median of the rounds' ratios.
    init(
        suite: String, workload: String, n: Int, key: String, impl: String, samples: CellSamples,
        metrics: [(String, Double)] = [], note: String? = nil
    ) {
        self.init(
            suite: suite, workload: workload, n: n, key: key, impl: impl, timing: samples.cell,
            ratioToFloor: samples.ratio, metrics: metrics, note: note)
        ratioSamples = samples.ratios
    }

    /// At most 200 samples are written: beyond that, the 200 quantiles at (k + ½) / 200, which keep the
    /// distribution the gate and `compare` test while a 1,000-move cell stays a line of a few kilobytes.
    static func storedSamples(_ samples: [Double]) -> [Double] {
        guard samples.count > 200 else { return samples }
        let sorted = samples.sorted()
        return (0..<200).map { sorted[Int((Double($0) + 0.5) / 200 * Double(sorted.count))] }
    }

    /// The identity of the cell, used to match the same cell of another run or build.
    var cellID: String { "\(suite)/\(workload)/\(n)/\(key)/\(impl)" }

    func metric(_ name: String) -> Double? { metrics.first { $0.0 == name }?.1 }

    /// One compact JSON object (the `--json` format). Non-finite numbers are written as null.
    var json: String {
        var fields: [(String, String)] = [
            ("suite", JSONText.string(suite)), ("workload", JSONText.string(workload)), ("n", String(n)),
            ("key", JSONText.string(key)), ("impl", JSONText.string(impl)),
            ("median_ms", JSONText.number(medianMs)), ("min_ms", JSONText.number(minMs)),
        ]
        if let ratioToFloor { fields.append(("ratio_to_floor", JSONText.number(ratioToFloor))) }
        if !ratioSamples.isEmpty {
            let samples = Self.storedSamples(ratioSamples).map {
                JSONText.number(Double(String(format: "%.5g", $0)) ?? $0)
            }
            fields.append(("ratio_samples", "[" + samples.joined(separator: ",") + "]"))
        }
        for (name, value) in metrics { fields.append((name, JSONText.number(value))) }
        let remark = [note, reportOnly.map { "not gated: " + $0 }].compactMap(\.self).joined(separator: "; ")
        if !remark.isEmpty { fields.append(("note", JSONText.string(remark))) }
        if !gated { fields.append(("gated", "false")) }
        return "{" + fields.map { "\(JSONText.string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
}

/// Minimal JSON text helpers for the benchmark's output.
enum JSONText {
    static func string(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
