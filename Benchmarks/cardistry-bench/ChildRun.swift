import Foundation

/// A run of this executable in a fresh process (`--repeat`, and the gate's re-measurement of suspects): its rows
/// read back from its `--json` output. Its progress goes to this process's standard error.
enum ChildRun {
    /// The rows the child printed, or nil if it could not start or failed.
    static func rows(arguments: [String]) -> [(id: String, object: [String: Any])]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        // The child must not inject a slowdown its parent did not: it inherits the environment as is.
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        var rows: [(id: String, object: [String: Any])] = []
        for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                let id = BenchFile.cellID(object)
            else { return nil }
            rows.append((id, object))
        }
        return rows
    }
}

extension BenchFile {
    /// One line per cell from several runs over the same cells (`--repeat`): a gated cell's rounds pooled, its
    /// `ratio_to_floor` their median, its `drift` the largest over the smallest of the runs' medians and `repeats`
    /// their number, with each run's median in `repeat_medians` and those of the runs made with a core busy
    /// (`loaded`) in `loaded_medians`; its other figures are the median run's. A cell that is not gated keeps its
    /// last run's row. Lines are JSON objects with sorted keys.
    static func pooled(_ passes: [[(id: String, object: [String: Any])]], loaded: [Bool] = []) -> [String] {
        var order: [String] = []
        var byCell: [String: [(object: [String: Any], loaded: Bool)]] = [:]
        for (index, pass) in passes.enumerated() {
            let underLoad = index < loaded.count && loaded[index]
            for (id, object) in pass {
                if byCell[id] == nil { order.append(id) }
                byCell[id, default: []].append((object, underLoad))
            }
        }
        return order.compactMap { id in
            guard let runs = byCell[id], var row = runs.last?.object else { return nil }
            let gated = runs.filter { isGated($0.object) }
            if !gated.isEmpty {
                let medians = gated.map { Statistics.median(samples($0.object)) }
                let byMedian = zip(gated, medians).sorted { $0.1 < $1.1 }
                row = byMedian[byMedian.count / 2].0.object
                let pooled = gated.flatMap { samples($0.object) }
                row["ratio_samples"] = BenchRow.storedSamples(pooled)
                row["ratio_to_floor"] = Statistics.median(pooled)
                row["drift"] = (medians.max() ?? 1) / (medians.min() ?? 1)
                row["repeats"] = gated.count
                row["repeat_medians"] = BenchRow.storedSamples(medians)
                let loadedMedians = zip(gated, medians).filter { $0.0.loaded }.map(\.1)
                if !loadedMedians.isEmpty { row["loaded_medians"] = BenchRow.storedSamples(loadedMedians) }
            }
            guard let data = try? JSONSerialization.data(withJSONObject: row, options: [.sortedKeys]) else {
                return nil
            }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
