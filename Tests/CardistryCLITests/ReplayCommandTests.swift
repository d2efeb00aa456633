import CardEngine
import CardFrontend
import CardGeometry
import CardGestures
import CardModels
import CardScenes
import CardistryCLI
import Foundation
import Testing

@Suite struct ReplayCommandTests {
    /// A scores session: a slider change, keys and a click, logged by the engine, with frames taken as it goes.
    func recordedSession() throws -> (log: String, live: [Double: Frame]) {
        var engine = Engine(scene: try SceneCatalog.standard.make("scores"), viewport: Size(width: 390, height: 844))
        var live: [Double: Frame] = [:]
        try engine.perform(SceneAction("select", ["test": .number(3)]), at: 0.5)
        live[0.6] = engine.frame(at: 0.6)
        engine.handle(.key(KeyInput("down"), time: 0.7))
        engine.handle(.key(KeyInput("enter"), time: 0.8))
        engine.handle(.pointer(PointerEvent(.down, at: Point(x: 60, y: 800), time: 1.0)))
        engine.handle(.pointer(PointerEvent(.up, at: Point(x: 60, y: 800), time: 1.05)))
        live[1.2] = engine.frame(at: 1.2)
        live[4.0] = engine.frame(at: 4.0)
        return (engine.log.jsonLines, live)
    }

    func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).jsonl")
            .path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func replayedFramesEqualTheLiveOnes() throws {
        let (log, live) = try recordedSession()
        let frames = try ReplayCommandProbe.replay(log, scene: "scores", at: [1.2, 0.6, 4.0])
        #expect(frames.map(\.time) == [0.6, 1.2, 4.0])
        for frame in frames { #expect(frame.nodes == live[frame.time]?.nodes) }
    }

    /// `--lint` checks the replayed frames against the view tree's rules: the scores session passes, and the
    /// flags are exclusive.
    @Test func lintsTheFrames() throws {
        let path = try write(try recordedSession().log)
        let (io, output) = CommandIO.capture()
        #expect(CLI.run(["replay", path, "--lint"], io: io) == 0, "\(output.stdout)")
        #expect(output.stdout == "no findings in 2 frames\n")
        let (both, bothOutput) = CommandIO.capture()
        #expect(CLI.run(["replay", path, "--lint", "--json"], io: both) == 2)
        #expect(bothOutput.stderr.contains("choose one of --json and --lint"))
    }

    @Test func printsTextAndJSON() throws {
        let path = try write(try recordedSession().log)
        let (io, output) = CommandIO.capture()
        #expect(CLI.run(["replay", path, "--at", "1.2"], io: io) == 0)
        #expect(output.stdout.hasPrefix("frame t=1.2 viewport=390×844"))
        #expect(output.stdout.contains("\"Test \" \"3\""))
        let (jsonIO, jsonOutput) = CommandIO.capture()
        #expect(CLI.run(["replay", path, "--json"], io: jsonIO) == 0)
        // The lines a stdio host would receive: event notifications, then one full frame per sampled time.
        let lines = jsonOutput.stdout.split(separator: "\n")
        var frames = 0
        var lastSeq = 0
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["jsonrpc"] as? String == "2.0")
            let params = try #require(object["params"] as? [String: Any])
            let seq = try #require(params["seq"] as? Int)
            #expect(seq == lastSeq + 1)
            lastSeq = seq
            if object["method"] as? String == "frame" {
                frames += 1
                #expect(params["full"] as? Bool == true)
                let nodes = try #require(params["nodes"] as? [[String: Any]])
                #expect(nodes.contains { ($0["fill"] as? String)?.hasPrefix("#") == true })
            } else {
                #expect(["gesture", "haptic", "deck.changed"].contains(object["method"] as? String ?? ""))
            }
        }
        #expect(frames == 2)
    }

    /// A recording's digests are checked only in this build's format: a wrong digest fails a version 2 recording,
    /// naming its line; the same lines as version 1 replay with a notice on stderr that nothing was checked.
    @Test func digestsAreCheckedOnlyInTheCurrentFormat() throws {
        var engine = Engine(scene: try SceneCatalog.standard.make("scores"), viewport: Size(width: 390, height: 844))
        engine.startRecording(options: SceneOptions())
        _ = engine.frame(at: 0)
        try engine.perform(SceneAction("select", ["test": .number(5)]), at: 0.5)
        _ = engine.frame(at: 0.6)
        let text = String(decoding: engine.takeRecording(), as: UTF8.self)
        var lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0].contains(#""version":2,"#))
        let (goodIO, goodOutput) = CommandIO.capture()
        #expect(CLI.run(["replay", try write(text)], io: goodIO) == 0, "\(goodOutput.stderr)")
        #expect(goodOutput.stderr.isEmpty)

        let frameLine = try #require(lines.lastIndex { $0.contains(#""type":"frame""#) })
        let digestText = try #require(lines[frameLine].split(separator: ":").last?.dropLast())
        let digest = try #require(UInt32(digestText))
        lines[frameLine] = lines[frameLine].replacingOccurrences(of: "\(digest)", with: "\(digest ^ 1)")
        let wrong = try write(lines.joined(separator: "\n") + "\n")
        let (wrongIO, wrongOutput) = CommandIO.capture()
        #expect(CLI.run(["replay", wrong], io: wrongIO) == 1)
        #expect(
            wrongOutput.stderr.contains("line \(frameLine + 1): the frame at t=0.6 differs"), "\(wrongOutput.stderr)")

        lines[0] = lines[0].replacingOccurrences(of: #""version":2,"#, with: #""version":1,"#)
        let old = try write(lines.joined(separator: "\n") + "\n")
        let (oldIO, oldOutput) = CommandIO.capture()
        #expect(CLI.run(["replay", old], io: oldIO) == 0, "\(oldOutput.stderr)")
        #expect(oldOutput.stderr.contains("format version 1"))
        #expect(oldOutput.stdout.contains("frame t=0.6"))
    }

    @Test func badInputIsReported() throws {
        let (io, output) = CommandIO.capture()
        #expect(CLI.run(["replay"], io: io) == 2)
        #expect(output.stderr.contains("give exactly one input log"))
        let path = try write("{\"cardistry\":\"input-log\",\"version\":1,\"scene\":\"scores\"}\n{\"t\":\"x\"}\n")
        let (badIO, badOutput) = CommandIO.capture()
        #expect(CLI.run(["replay", path], io: badIO) == 1)
        #expect(badOutput.stderr.contains("line 2: 't' must be a finite number"))
        let (sceneIO, _) = CommandIO.capture()
        #expect(CLI.run(["replay", path, "--scene", "nope"], io: sceneIO) == 2)
        let (atIO, _) = CommandIO.capture()
        #expect(CLI.run(["replay", path, "--at", "soon"], io: atIO) == 2)
        let (missingIO, missingOutput) = CommandIO.capture()
        #expect(CLI.run(["replay", "/nonexistent/log.jsonl"], io: missingIO) == 1)
        #expect(missingOutput.stderr.contains("cannot read"))
    }

    /// A recording of a scene opened with the user's own deck: the header carries the deck, and the replay takes
    /// the same frames (checked against their digests) in the same order.
    @Test func aRecordingWithItsOwnDeckReplaysItsFrames() throws {
        let cards = (0..<4).map { index in
            Card(
                id: CardID(UInt64(900 + index)), title: "Q\(index)", color: .red, sortOrder: index,
                payload: .flashcard(Flashcard(prompt: "Q\(index)", answer: "A\(index)")))
        }
        let options = SceneOptions(deck: try Deck(cards))
        var engine = Engine(
            scene: try SceneCatalog.standard.make("flashcards", options: options),
            viewport: Size(width: 390, height: 844))
        engine.startRecording(options: options)
        var live: [Frame] = [engine.frame(at: 0)]
        engine.handle(.pointer(PointerEvent(.down, at: Point(x: 195, y: 400), time: 0.5)))
        engine.handle(.pointer(PointerEvent(.move, at: Point(x: 60, y: 400), time: 0.6)))
        live.append(engine.frame(at: 0.62))
        engine.handle(.pointer(PointerEvent(.up, at: Point(x: 20, y: 400), time: 0.7)))
        live.append(engine.frame(at: 0.9))
        live.append(engine.frame(at: 3))
        let text = String(decoding: engine.takeRecording(), as: UTF8.self)
        #expect(text.contains("deckDocument"))
        let frames = try ReplayCommandProbe.replay(text, scene: "flashcards", at: [])
        #expect(frames.map(\.nodes) == live.map(\.nodes))
        // The second session of a recording (a front end that opened another scene) is parsed apart.
        #expect(try InputLog.sessions(jsonLines: text + text).count == 2)
    }
}
