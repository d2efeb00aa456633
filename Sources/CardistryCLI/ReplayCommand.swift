import CardEngine
import CardFrontend
import CardPersistence
import CardSceneFormat
import CardScenes
import CardStdio
import CardTUI
import Foundation

/// `cardistry replay LOG [--scene S] [--at T]... [--json]`: replays an input log and prints the frames at the given
/// times, as readable text or as one JSON object per line — for bug reports and golden tests.
struct ReplayCommand: Command {
    /// The scenes a log may name.
    let catalog: SceneCatalog
    /// The scenes `--scene-file` described: their recordings replay with the file's description, not their own.
    var overridden: Set<String> = []
    let name = "replay"
    let summary = "replay an input log and print the frames at chosen times"
    let usage = """
        Usage: cardistry replay LOG [--scene S] [--scene-file F] [--at T]... [--json | --lint]

        Replays LOG (JSON lines written by the engine's input log: a header, then one input per line) and prints
        the frames at each time T (seconds, any order). Without --at it prints the frame at the last input and
        the frame once everything has settled — or, for a recording (`cardistry tui --record FILE`, `cardistry
        stdio --record FILE`), every frame the front end took, each checked against the recorded digest (a frame
        that differs is an error naming its line). A recording of an older format (version 1: digests of Swift's
        reflection, which no build reproduces) replays with its digests unchecked, and says so on stderr; one of a
        newer format is refused. A recording of several scenes replays them one after another. --scene overrides
        the scene named in the log's header. A recording of a scene described as data (docs/scenes.md) carries
        its description in its header and replays with it; --scene-file F adds the scene described in F instead
        (for a recording of that scene, F's description replaces the recorded one; a recording made before
        recordings carried descriptions needs it).
        --json prints, for each frame, the lines `cardistry stdio` would send a host: the frame's gesture, haptic
        and deck.changed notifications, then a full frame notification (docs/protocol.md). --lint checks each frame
        against the view tree's rules (paint order, parents; at rest also text fit, overlap, overflow) and prints
        one finding a line. Exit status: 0 success (and, with --lint, no finding), 1 an unreadable log or a
        finding, 2 usage.

        """

    func run(arguments: [String], environment: [String: String], io: CommandIO) -> Int32 {
        if let index = arguments.firstIndex(of: "--scene-file") {
            return runWithSceneFile(at: index, arguments: arguments, environment: environment, io: io)
        }
        return withUsage(io: io) {
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
            let sessions: [InputLog]
            do {
                sessions = try InputLog.sessions(jsonLines: text)
            } catch {
                io.err("cardistry replay: \(path): \(error)\n")
                return 1
            }
            if times.isEmpty, let old = sessions.first(where: { !$0.checksDigests && $0.hasFrames }) {
                io.err(
                    "cardistry replay: \(path): a recording of format version \(old.version) (this build writes "
                        + "\(InputLog.formatVersion)): its frame digests were taken over another encoding of the "
                        + "frames, so its frames are replayed without being checked; record the session again to "
                        + "have them checked\n")
            }
            var frames: [Frame] = []
            for log in sessions {
                let session: ReplayCommand
                switch replaying(log) {
                case .success(let command):
                    session = command
                case .failure(let problem):
                    io.err("cardistry replay: \(path): \(problem.message)\n")
                    return 1
                }
                let sceneName = parsed.value("scene") ?? log.scene
                guard session.catalog.names.contains(sceneName) else {
                    throw UsageError(
                        "unknown scene '\(sceneName)' (\(session.catalog.names.joined(separator: ", ")))")
                }
                let checks = log.checksDigests && session.checksLook(of: log, scene: sceneName, path: path, io: io)
                do {
                    frames += try session.replay(log, scene: sceneName, at: times, checkingDigests: checks)
                } catch {
                    io.err("cardistry replay: \(path): \(error)\n")
                    return 1
                }
            }
            return Self.write(frames, lint: parsed.flags.contains("lint"), json: parsed.flags.contains("json"), io: io)
        }
    }

    /// `--scene-file F` at `index` of `arguments`: a recording of a scene described as data replays with that
    /// description's scene added to the catalogue (and overriding a description the recording carries).
    func runWithSceneFile(at index: Int, arguments: [String], environment: [String: String], io: CommandIO) -> Int32 {
        guard index + 1 < arguments.count else {
            io.err("cardistry replay: option '--scene-file' needs a value\n\n" + usage)
            return 2
        }
        let file = arguments[index + 1]
        let loaded = SceneCommand.description(at: file)
        guard case .success(let description) = loaded else {
            if case .failure(let problem) = loaded { io.err("cardistry replay: \(problem.message)\n") }
            return 1
        }
        var rest = arguments
        rest.removeSubrange(index...(index + 1))
        var command = ReplayCommand(catalog: catalog.replacing(description.catalogEntry))
        command.overridden = overridden.union([description.descriptor.name])
        return command.run(arguments: rest, environment: environment, io: io)
    }

    /// Writes the replayed `frames`: with `lint`, each `FrameLint` finding a line and a count (status 1 on any);
    /// with `json`, as the protocol's frame lines; else as text.
    static func write(_ frames: [Frame], lint: Bool, json: Bool, io: CommandIO) -> Int32 {
        if lint {
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
            guard json else {
                io.out(frame.textDescription)
                continue
            }
            for line in ProtocolLines.lines(for: frame, seq: &seq, revision: &revision) {
                io.out(String(decoding: line, as: UTF8.self) + "\n")
            }
        }
        return 0
    }

    /// The command that replays `log`: this one, or for a recording of a scene described as data (its header's
    /// `definition`) one whose catalogue has that scene — unless `--scene-file` described a scene of that name.
    func replaying(_ log: InputLog) -> Result<ReplayCommand, SceneCommand.FileProblem> {
        guard let definition = log.setup.sceneDefinition, !overridden.contains(log.scene) else { return .success(self) }
        do throws(SceneFormatError) {
            let entry = try SceneDescription.load(definition).catalogEntry
            return .success(ReplayCommand(catalog: catalog.replacing(entry), overridden: overridden))
        } catch {
            return .failure(
                SceneCommand.FileProblem(
                    message: "the description of the scene '\(log.scene)' in its header does not load: \(error)"))
        }
    }

    /// Whether `log`'s frames were taken with the look `scene` has in this build (`SceneDescriptor.lookChanges`).
    /// When not, and the log has frames, says so on stderr (which changes came since, or that a newer build made
    /// it): its inputs replay, its frames cannot be checked.
    func checksLook(of log: InputLog, scene: String, path: String, io: CommandIO) -> Bool {
        guard let descriptor = catalog.descriptor(named: scene), log.look != descriptor.lookRevision else {
            return true
        }
        guard log.hasFrames else { return false }
        let reason: String
        if log.look < descriptor.lookRevision {
            let since = descriptor.lookChanges[(log.look - 1)...].joined(separator: "; ")
            reason =
                "the scene '\(scene)' draws differently since it was made (look \(log.look), now "
                + "\(descriptor.lookRevision): \(since))"
        } else {
            reason =
                "it was made with look \(log.look) of the scene '\(scene)', newer than this build's "
                + "\(descriptor.lookRevision)"
        }
        io.err(
            "cardistry replay: \(path): \(reason), so its inputs are replayed and its frames not checked; record the "
                + "session again to have them checked\n")
        return false
    }

    /// Replays `log` on a fresh `scene` (with the options, state and text measurer a recording's header names)
    /// and returns the frames at `times` (ascending); when `times` is empty, the recorded frames (each checked
    /// against its digest when `checkingDigests`: the log is of this build's format version and the scene's look),
    /// or for a log without any, the frame at the last input and the frame at rest. Inputs are fed in order up to
    /// each time before its frame is taken.
    func replay(_ log: InputLog, scene name: String, at times: [Double], checkingDigests: Bool) throws
        -> [Frame]
    {
        var engine = try Self.engine(for: log, scene: name, catalog: catalog)
        var frames: [Frame] = []
        if times.isEmpty && log.hasFrames {
            for entry in log.entries {
                switch entry {
                case .input(let input):
                    Self.feed(input, to: &engine)
                case .measurer(let time, let measurerName):
                    engine.setTextMeasurer(try Self.measurer(named: measurerName), at: time)
                case .frame(let time, let digest, let line):
                    let frame = engine.frame(at: time)
                    guard !checkingDigests || InputLog.digest(of: frame) == digest else {
                        throw InputLogError(
                            line: line,
                            reason: "the frame at t=\(time) differs from the recording (digest "
                                + "\(InputLog.digest(of: frame)), recorded \(digest))")
                    }
                    frames.append(frame)
                }
            }
            return frames
        }
        var pending = log.entries[...]
        func feed(until time: Double) throws {
            while let next = pending.first {
                switch next {
                case .input(let input):
                    guard input.time <= time else { return }
                    Self.feed(input, to: &engine)
                case .measurer(let at, let measurerName):
                    guard at <= time else { return }
                    engine.setTextMeasurer(try Self.measurer(named: measurerName), at: at)
                case .frame:
                    break
                }
                pending.removeFirst()
            }
        }
        if times.isEmpty {
            let last = log.inputs.last?.time ?? log.startTime
            try feed(until: last)
            frames.append(engine.frame(at: last))
            var settle = last
            while engine.isAnimating(at: settle) || engine.nextWakeTime() != nil, settle < last + 60 {
                settle += 0.25
                _ = engine.frame(at: settle)
            }
            frames.append(engine.frame(at: settle))
        } else {
            for time in times.sorted() {
                try feed(until: time)
                frames.append(engine.frame(at: time))
            }
        }
        return frames
    }

    static func feed(_ input: InputEvent, to engine: inout Engine) {
        if case .action(let action, let at) = input {
            try? engine.perform(action, at: at)
        } else {
            engine.handle(input)
        }
    }

    /// A fresh engine as the log's header describes it: the scene with its options (a generated deck's size or
    /// the deck itself), the state it had restored, the text measurer, the viewport and start time.
    static func engine(for log: InputLog, scene name: String, catalog: SceneCatalog) throws -> Engine {
        var options = SceneOptions(cardCount: log.setup.cardCount)
        if let json = log.setup.deckJSON {
            do {
                options.deck = try DeckFastDecoder.decodeDocumentOrDeck(Array(json.utf8))
            } catch {
                throw InputLogError(line: 1, reason: "the header's deck cannot be read: \(error)")
            }
        }
        var scene = try catalog.make(name, options: options)
        if let state = log.setup.stateJSON {
            do {
                try scene.restoreState(Array(state.utf8))
            } catch {
                throw InputLogError(line: 1, reason: "the header's state cannot be restored: \(error)")
            }
        }
        let measurer = try Self.measurer(named: log.setup.measurer ?? "standard")
        return Engine(
            scene: scene, viewport: log.viewport, startTime: log.startTime, textMeasurer: measurer,
            reducesMotion: log.setup.reducesMotion)
    }

    /// The text measurer a recording names: `standard`, or a terminal's `cells …`.
    static func measurer(named name: String) throws -> any TextMeasurer {
        if name == "standard" { return StandardTextMeasurer() }
        if let cells = TUIRecording.measurer(recordedAs: name) { return cells }
        throw InputLogError(line: 1, reason: "unknown text measurer '\(name)'")
    }
}

/// Replay as a library call, for tests: parses `log` (JSON lines) and returns the frames at `times`.
package enum ReplayCommandProbe {
    package static func replay(_ log: String, scene: String, at times: [Double]) throws -> [Frame] {
        let log = try InputLog(jsonLines: log)
        return try ReplayCommand(catalog: .standard).replay(
            log, scene: scene, at: times, checkingDigests: log.checksDigests)
    }
}

extension InputLog {
    /// Whether the log is a recording with frames (and their digests) in it.
    var hasFrames: Bool { entries.contains { if case .frame = $0 { true } else { false } } }
}
