import Foundation

/// `cardistry-bench gate`: runs the base build's benchmark and the change's in interleaved processes and judges
/// them (`Gate`). `scripts/bench-gate.sh` builds both and calls it.
///
/// Each round runs one quick process of each build, the order turned round from one round to the next (base then
/// change, then change then base), so a trend over the minutes (a neighbour's build starting) weighs on both alike.
/// The suites that are judged on more processes (`Gate.Threshold.processes`) get extra rounds of each alone
/// (`--filter SUITE/`), again of both builds. Then the cells whose verdict is not yet sure get a closer look
/// (`Gate.undecided`): more rounds running only them. Only the `--quick --json --filter --only` options of the
/// base's executable are used, so any commit since they exist can be the base.
enum GateRun {
    static let usage = """
        Usage: cardistry-bench gate --base BENCH [--change BENCH] [--processes N] [--filter TEXT]... [--power]
                                    [--keep DIR]

          --base BENCH     the base commit's cardistry-bench (release; its cardistry beside it)
          --change BENCH   the change's (default: this executable)
          --processes N    whole quick runs of each build (default \(Gate.standard.processes)); suites judged on
                           more processes run alone for the rest
          --filter TEXT    only cells whose id contains TEXT (repeatable), for trying the gate on a few cells
          --power          also run the change slowed by CARDISTRY_BENCH_SLOWDOWN (2 when unset) in every round:
                           exit 0 only when the unslowed change passes against the base and the slowed one fails
                           against the unslowed change in every gated timing cell (the gate's power check, as CI
                           runs it)
          --keep DIR       write each process's rows to DIR/ROUND-SUITE-SIDE.jsonl (for `compare`, or a closer look)

        CARDISTRY_BENCH_SLOWDOWN slows the change's processes only, never the base's.

        """

    /// One build as the gate runs it.
    struct Side {
        var name: String
        var executable: String
        var slowdown: String?
        var medians = ProcessMedians()
    }

    static func main(_ arguments: [String]) -> Int32 {
        var base: String?
        var change = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        var processes = Gate.standard.processes
        var filters: [String] = []
        var power = false
        var keep: String?
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--base": base = iterator.next()
            case "--change": change = iterator.next() ?? change
            case "--processes":
                guard let value = iterator.next().flatMap({ Int($0) }), (1...50).contains(value) else {
                    return usageError("--processes needs a number from 1 to 50")
                }
                processes = value
            case "--filter":
                guard let value = iterator.next() else { return usageError("--filter needs a value") }
                filters.append(value)
            case "--power": power = true
            case "--keep":
                guard let value = iterator.next() else { return usageError("--keep needs a directory") }
                keep = value
            case "--help", "-h":
                writeStandardOutput(usage)
                return 0
            default: return usageError("unknown argument '\(argument)'")
            }
        }
        guard let base else { return usageError("--base is required") }
        if let keep {
            do { try FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true) } catch {
                return usageError("cannot create \(keep): \(error)")
            }
        }
        for path in [base, change] where !FileManager.default.isExecutableFile(atPath: path) {
            return usageError("'\(path)' is not an executable")
        }
        let injected = ProcessInfo.processInfo.environment["CARDISTRY_BENCH_SLOWDOWN"]
        var sides = [Side(name: "base", executable: base)]
        if power {
            sides.append(Side(name: "change", executable: change))
            sides.append(Side(name: "change slowed", executable: change, slowdown: injected ?? "2"))
        } else {
            sides.append(Side(name: "change", executable: change, slowdown: injected))
        }
        let started = monotonicNanoseconds()
        let quickArguments = ["--quick", "--json"] + filters.flatMap { ["--filter", $0] }
        for round in 0..<processes {
            guard run(&sides, round: round, of: processes, arguments: quickArguments, label: "all", keep: keep) else {
                return 2
            }
        }
        // The suites judged on more processes than the whole runs gave: each alone (`--filter SUITE/`, which keeps
        // the suite's own order of cells), in more rounds.
        let suites = sides[0].medians.order.filter { sides[1].medians.medians[$0] != nil }
            .map { String($0.prefix { $0 != "/" }) }
        let most = (suites.map { Gate.threshold(for: $0 + "/").processes } + [processes]).max() ?? processes
        for round in processes..<most {
            for suite in Set(suites).sorted() where Gate.threshold(for: suite + "/").processes > round {
                let arguments = quickArguments + ["--filter", suite + "/"]
                guard run(&sides, round: round, of: most, arguments: arguments, label: suite, keep: keep) else {
                    return 2
                }
            }
        }
        guard closerLook(&sides, after: most, keep: keep) else { return 2 }
        let seconds = Double(monotonicNanoseconds() - started) / 1e9
        let decision = Gate.decide(base: sides[0].medians, change: sides[1].medians)
        let title = sides[1].slowdown.map { "change (CARDISTRY_BENCH_SLOWDOWN=\($0)) against base" }
        writeStandardOutput(Gate.report(decision, title: title ?? "change against base"))
        writeStandardOutput("gate: \(format(seconds, digits: 0)) s\n")
        guard power else { return decision.regressions.isEmpty ? 0 : 1 }
        // The slowed change against the change itself, not the base: whether the gate sees a 2× slowdown of the code
        // as it is. Against the base, a stop that made a cell twice as fast hid the slowdown (stop 49: 1.14× where
        // the change against itself read 2.00×) until the base was moved forward.
        let slowed = Gate.decide(base: sides[1].medians, change: sides[2].medians)
        writeStandardOutput("\n" + Gate.report(slowed, title: "power: change slowed (\(sides[2].slowdown ?? ""))"))
        let timing = slowed.verdicts.filter { Gate.isTiming($0.cell) }
        var summary =
            "power: slowed \(sides[2].slowdown ?? "") caught in \(timing.count - slowed.missed.count) of "
            + "\(timing.count) gated timing cells"
        if let weakest = slowed.weakest { summary += "; weakest " + weakest.line }
        writeStandardOutput(summary + "\n")
        let passed = decision.regressions.isEmpty && slowed.missed.isEmpty && !timing.isEmpty
        writeStandardOutput(passed ? "gate power check passed\n" : "GATE POWER CHECK FAILED\n")
        if !slowed.missed.isEmpty {
            writeStandardOutput("missed:\n" + slowed.missed.map { $0.line + "\n" + $0.processes + "\n" }.joined())
        }
        return passed ? 0 : 1
    }

    /// Up to `Gate.closerLookRounds` more rounds for the cells not yet sure of (`Gate.undecided`), each a process of
    /// every side running only those cells (`--only`), until every verdict is sure; false when a run fails.
    private static func closerLook(_ sides: inout [Side], after rounds: Int, keep: String?) -> Bool {
        var medians = sides.map(\.medians)
        var round = rounds
        return Gate.lookCloser(&medians) { cells, medians in
            writeStandardError("gate: a closer look at \(cells.count) cells: \(cells.joined(separator: ", "))\n")
            let arguments = ["--quick", "--json", "--only", cells.joined(separator: ",")]
            let total = rounds + Gate.closerLookRounds
            guard run(&sides, round: round, of: total, arguments: arguments, label: "closer-look", keep: keep) else {
                return false
            }
            round += 1
            medians = sides.map(\.medians)
            return true
        }
    }

    /// Runs one process of each side, in this round's order; false (having said why) when one fails.
    private static func run(
        _ sides: inout [Side], round: Int, of rounds: Int, arguments: [String], label: String, keep: String?
    ) -> Bool {
        var progress = "gate: round \(round + 1) of \(rounds) (\(label == "all" ? "every suite" : label)):"
        for step in 0..<sides.count {
            let index = (step + round) % sides.count
            let start = monotonicNanoseconds()
            let file = keep.map {
                "\($0)/\(round + 1)-\(label)-\(sides[index].name.replacingOccurrences(of: " ", with: "-")).jsonl"
            }
            guard
                let rows = ChildRun.rows(
                    sides[index].executable, arguments, slowdown: sides[index].slowdown, keep: file)
            else {
                writeStandardError(progress + " the \(sides[index].name) build's run failed\n")
                return false
            }
            sides[index].medians.add(rows)
            progress += " \(sides[index].name) \(format(Double(monotonicNanoseconds() - start) / 1e9, digits: 0)) s,"
        }
        writeStandardError(String(progress.dropLast()) + "\n")
        return true
    }

    private static func usageError(_ message: String) -> Int32 {
        writeStandardError("cardistry-bench gate: \(message)\n\n\(usage)")
        return 2
    }
}
