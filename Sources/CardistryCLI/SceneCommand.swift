import CardEngine
import CardFrontend
import CardJSON
import CardSceneFormat
import Foundation

/// `cardistry scene`: tools for scenes described as data (docs/scenes.md).
///
/// - `check FILE`: loads the description (refusing it with the JSON pointer and column of its first fault), then
///   plays seeded random sessions through it under the frame lint, printing each problem found.
/// - `fuzz FILE…`: the loader fuzz — seeded mutations of the files, each refused with a pointer into the mutated
///   document or played with finite frames.
struct SceneCommand: Command {
    let name = "scene"
    let summary = "check a scene description, or fuzz the loader with mutations of descriptions"
    let usage = """
        Usage: cardistry scene check FILE [--sessions N] [--seed S]
               cardistry scene fuzz FILE… [--count N] [--seed S]

        check   loads the description in FILE (a fault is reported with its JSON pointer, and the column inside
                an expression), then plays N seeded random sessions (default 1000) of taps, drags, flings, keys
                and actions under the frame lint: no non-finite number, every animation settling, the lint clean
                at rest. Prints each problem; exits 1 when there is one.
        fuzz    mutates the descriptions N times (default 100000): dropped keys, wrong types, huge numbers, deep
                nesting, self-references, division by zero, edited expressions. Each mutation must be refused with
                a pointer into the mutated document or play with finite frames. Exits 1 on any failure.

        """

    func run(arguments: [String], environment: [String: String], io: CommandIO) -> Int32 {
        withUsage(io: io) {
            let parsed = try ParsedArguments(arguments, options: ["sessions", "seed", "count"], flags: [])
            guard let verb = parsed.positionals.first else { throw UsageError("say check or fuzz") }
            let files = Array(parsed.positionals.dropFirst())
            guard !files.isEmpty else { throw UsageError("name a scene description file") }
            let seed = UInt64(try parsed.int("seed") ?? 50)
            switch verb {
            case "check":
                guard files.count == 1 else { throw UsageError("check takes one file") }
                let sessions = try parsed.int("sessions") ?? 1000
                guard (1...1_000_000).contains(sessions) else { throw UsageError("--sessions must be 1…1000000") }
                return check(files[0], sessions: sessions, seed: seed, io: io)
            case "fuzz":
                let count = try parsed.int("count") ?? 100_000
                guard (1...10_000_000).contains(count) else { throw UsageError("--count must be 1…10000000") }
                return fuzz(files, count: count, seed: seed, io: io)
            default:
                throw UsageError("unknown verb '\(verb)': say check or fuzz")
            }
        }
    }

    /// A file's problem, as a sentence naming it.
    struct FileProblem: Error {
        var message: String
    }

    static func read(_ path: String) -> Result<JSONValue, FileProblem> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(FileProblem(message: "\(path): cannot read"))
        }
        do {
            return .success(try JSONValue(parsing: Array(data), maxDepth: 64))
        } catch {
            return .failure(FileProblem(message: "\(path): not JSON: \(error)"))
        }
    }

    /// The description in the file at `path`, or a problem naming the file (and the fault's pointer and column).
    static func description(at path: String) -> Result<SceneDescription, FileProblem> {
        Self.read(path).flatMap { json in
            do throws(SceneFormatError) {
                return .success(try SceneDescription.load(json))
            } catch {
                return .failure(FileProblem(message: "\(path): \(error)"))
            }
        }
    }

    func check(_ path: String, sessions: Int, seed: UInt64, io: CommandIO) -> Int32 {
        let description: SceneDescription
        switch Self.description(at: path) {
        case .failure(let problem):
            io.err("cardistry scene: \(problem.message)\n")
            return 1
        case .success(let loaded):
            description = loaded
        }
        let problems = ScenePlayer(description).play(sessions: sessions, seed: seed, limit: 1000)
        for problem in problems { io.out("\(path): \(problem)\n") }
        io.out(
            "\(path): scene '\(description.descriptor.name)' loads; \(sessions) sessions (seed \(seed)): "
                + (problems.isEmpty ? "no problem\n" : "\(problems.count) problems\n"))
        return problems.isEmpty ? 0 : 1
    }

    func fuzz(_ paths: [String], count: Int, seed: UInt64, io: CommandIO) -> Int32 {
        var bases: [JSONValue] = []
        for path in paths {
            switch Self.read(path) {
            case .failure(let problem):
                io.err("cardistry scene: \(problem.message)\n")
                return 1
            case .success(let json): bases.append(json)
            }
        }
        let clock = ContinuousClock()
        let start = clock.now
        let report = LoaderFuzz(bases: bases).run(count: count, seed: seed)
        let elapsed = clock.now - start
        for problem in report.badPointers + report.problems { io.out(problem + "\n") }
        io.out(
            "\(report.mutations) mutations (seed \(seed)): \(report.refused) refused with a pointer, "
                + "\(report.played) played, \(report.badPointers.count) bad pointers, \(report.problems.count) "
                + "problems, 0 crashes, 0 hangs; \(elapsed)\n")
        return report.badPointers.isEmpty && report.problems.isEmpty ? 0 : 1
    }
}
