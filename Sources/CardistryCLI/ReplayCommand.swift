import CardEngine
import CardFrontend
import CardScenes
import CardStdio
import Foundation

/// `cardistry replay LOG [--scene S] [--at T]... [--json]`: replays an input log and prints the frames at the given
/// times, as readable text or as one JSON object per line — for bug reports and golden tests.
struct ReplayCommand: Frontend {
    /// The scenes a log may name.
    let catalog: SceneCatalog
    let name = "replay"
    let summary = "replay an input log and print the frames at chosen times"
    let usage = """
        Usage: cardistry replay LOG [--scene S] [--at T]... [--json | --lint]

        Replays LOG (JSON lines written by the engine's input log: a header, then one input per line) and prints
        the frames at each time T (seconds, any order). Without --at it prints the frame at the last input and
        the frame once everything has settled. --scene overrides the scene named in the log's header.
        --json prints, for each frame, the lines `cardistry stdio` would send a host: the frame's gesture, haptic
        and deck.changed notifications, then a full frame notification (docs/protocol.md). --lint checks each frame
        against the view tree's rules (paint order, parents; at rest also text fit, overlap, overflow) and prints
        one finding a line. Exit status: 0 success (and, with --lint, no finding), 1 an unreadable log or a
        finding, 2 usage.

        """

    func run(arguments: [String], environment: [String: String], io: FrontendIO) -> Int32 {
        withUsage(io: io) {
            let parsed = try ParsedArguments(arguments, options: ["scene", "at"], flags: ["json", "lint"])
            if parsed.flags.contains("json") && parsed.flags.contains("lint") {
                throw UsageError("choose one of --json and --lint")
            }
            guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
                throw UsageError("give exactly one input log")
            }
            var times: [Double] = []
            for text in parsed.options["at"] ?? [] {
                guard let value = Double(text), value.isFinite else {
                    throw UsageError("--at needs a finite number of seconds, got '\(text)'")
                }
                times.append(value)
            }
            if let scene = parsed.value("scene"), !catalog.names.contains(scene) {
                throw UsageError("unknown scene '\(scene)' (\(catalog.names.joined(separator: ", ")))")
            }
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                io.err("cardistry replay: cannot read \(path): \(error.localizedDescription)\n")
                return 1
            }
            let log: InputLog
            do {
                log = try InputLog(jsonLines: text)
            } catch {
                io.err("cardistry replay: \(path): \(error)\n")
                return 1
            }
            let sceneName = parsed.value("scene") ?? log.scene
            guard catalog.names.contains(sceneName) else {
                throw UsageError("unknown scene '\(sceneName)' (\(catalog.names.joined(separator: ", ")))")
            }
            let frames: [Frame]
            do {
                frames = try replay(log, scene: sceneName, at: times)
            } catch {
                io.err("cardistry replay: \(error)\n")
                return 1
            }
            if parsed.flags.contains("lint") {
                var count = 0
                for frame in frames {
                    for finding in FrameLint().findings(in: frame) {
                        io.out(finding.description + "\n")
                        count += 1
                    }
                }
                io.out(count == 0 ? "no findings in \(frames.count) frames\n" : "\(count) findings\n")
                return count == 0 ? 0 : 1
            }
            var seq = 1
            var revision = 0
            for frame in frames {
                guard parsed.flags.contains("json") else {
                    io.out(frame.textDescription)
                    continue
                }
                for line in ProtocolLines.lines(for: frame, seq: &seq, revision: &revision) {
                    io.out(String(decoding: line, as: UTF8.self) + "\n")
                }
            }
            return 0
        }
    }

    /// Replays `log` on a fresh `scene` and returns the frames at `times` (ascending), or at the last input and at
    /// rest when `times` is empty. Inputs are fed in order up to each time before its frame is taken.
    func replay(_ log: InputLog, scene name: String, at times: [Double]) throws -> [Frame] {
        var engine = Engine(scene: try catalog.make(name), viewport: log.viewport, startTime: log.startTime)
        var pending = log.inputs[...]
        var frames: [Frame] = []
        func feed(until time: Double) {
            while let next = pending.first, next.time <= time {
                pending.removeFirst()
                if case .action(let action, let at) = next {
                    try? engine.perform(action, at: at)
                } else {
                    engine.handle(next)
                }
            }
        }
        if times.isEmpty {
            let last = log.inputs.last?.time ?? log.startTime
            feed(until: last)
            frames.append(engine.frame(at: last))
            var settle = last
            while engine.isAnimating(at: settle) || engine.nextWakeTime() != nil, settle < last + 60 {
                settle += 0.25
                _ = engine.frame(at: settle)
            }
            frames.append(engine.frame(at: settle))
        } else {
            for time in times.sorted() {
                feed(until: time)
                frames.append(engine.frame(at: time))
            }
        }
        return frames
    }
}

/// Replay as a library call, for tests: parses `log` (JSON lines) and returns the frames at `times`.
package enum ReplayCommandProbe {
    package static func replay(_ log: String, scene: String, at times: [Double]) throws -> [Frame] {
        try ReplayCommand(catalog: .standard).replay(InputLog(jsonLines: log), scene: scene, at: times)
    }
}
