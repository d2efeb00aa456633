import Foundation

/// A benchmark process the gate runs (`GateRun`): its rows read back from its `--json` output.
enum ChildRun {
    /// The rows `executable` printed with `arguments`, or nil (its standard error's end written to ours) when it
    /// could not start or failed. `slowdown` becomes its CARDISTRY_BENCH_SLOWDOWN; without one it has none, whatever
    /// this process's environment holds. Its progress lines are kept out of this process's standard error.
    /// With `keep`, its output is also written to that file.
    static func rows(
        _ executable: String, _ arguments: [String], slowdown: String?, keep: String? = nil
    ) -> [(id: String, object: [String: Any])]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["CARDISTRY_BENCH_SLOWDOWN"] = slowdown
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        // Standard error to a file, not a pipe: a pipe read only after standard output closes could fill and stall
        // the child.
        let errorPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("cardistry-gate-\(ProcessInfo.processInfo.processIdentifier).stderr").path
        guard FileManager.default.createFile(atPath: errorPath, contents: nil),
            let errorFile = FileHandle(forWritingAtPath: errorPath)
        else { return nil }
        defer {
            try? errorFile.close()
            try? FileManager.default.removeItem(atPath: errorPath)
        }
        process.standardError = errorFile
        do { try process.run() } catch {
            writeStandardError("cannot run \(executable): \(error)\n")
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if let keep { _ = FileManager.default.createFile(atPath: keep, contents: data) }
        var rows: [(id: String, object: [String: Any])] = []
        var malformed = false
        for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                let id = BenchFile.cellID(object)
            else {
                malformed = true
                break
            }
            rows.append((id, object))
        }
        if process.terminationStatus == 0, !malformed { return rows }
        let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        writeStandardError(
            "\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)"
                + (malformed ? " (its output is not one benchmark row a line)" : "") + "; its standard error ends:\n"
                + errors.split(separator: "\n").suffix(30).joined(separator: "\n") + "\n")
        return nil
    }
}
