import Foundation
import Testing

/// `--record FILE` through the built executable: the file is written as the session happens, and `cardistry replay
/// FILE` takes the same frames (each checked against its recorded digest, so a replay that differs fails).
@Suite(.serialized) struct RecordingEndToEndTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID()).jsonl").path
    }

    static func request(_ id: Int, _ method: String, _ params: String) -> String {
        "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"\(method)\",\"params\":\(params)}\n"
    }

    /// A session's script: `initialize` at 390×844, then `requests` (method, params) numbered from 1.
    static func session(_ requests: [(String, String)]) -> String {
        var script = request(
            0, "initialize", "{\"protocolVersion\":\"1.0\",\"viewport\":{\"width\":390,\"height\":844}}")
        for (index, (method, params)) in requests.enumerated() { script += request(index + 1, method, params) }
        return script
    }

    /// The frames a stdio session's output holds (results of scene.open, scene.frame and clock.advance), without
    /// their sequence numbers.
    static func frames(inServerOutput text: String) throws -> [JSON] {
        try text.split(separator: "\n").compactMap { line -> JSON? in
            // Only results with a frame (a million cards' diff is a long line not worth parsing here).
            guard line.prefix(64).contains("\"result\":{\"frame\":") || line.contains("\"result\":{\"scene\":"),
                case .object(var frame)? = try JSON.parse(String(line))["result"]?["frame"]
            else { return nil }
            frame["seq"] = nil
            return .object(frame)
        }
    }

    /// The frames `cardistry replay --json` printed, without their sequence numbers.
    static func frames(inReplayOutput text: String) throws -> [JSON] {
        try text.split(separator: "\n").compactMap { line -> JSON? in
            guard line.prefix(48).contains("\"method\":\"frame\"") else { return nil }
            let message = try JSON.parse(String(line))
            guard message["method"] == .string("frame"), case .object(var frame)? = message["params"] else {
                return nil
            }
            frame["seq"] = nil
            return .object(frame)
        }
    }

    @Test func aRecordedStdioSessionReplaysToTheSameFrames() throws {
        let path = Self.temporaryPath("stdio-record")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var script = Self.request(
            0, "initialize", "{\"protocolVersion\":\"1.0\",\"viewport\":{\"width\":390,\"height\":844}}")
        script += Self.request(1, "scene.open", "{\"scene\":\"deck\",\"options\":{\"cardCount\":3000}}")
        script += Self.request(2, "deck.sort", "{\"by\":\"title\",\"order\":\"descending\"}")
        script += Self.request(3, "clock.advance", "{\"to\":0.2}")
        // A long press and a drag: the reorder gesture, its timer firing between inputs.
        script += Self.request(4, "input.pointer", "{\"phase\":\"down\",\"x\":200,\"y\":150,\"t\":0.3}")
        script += Self.request(5, "clock.advance", "{\"to\":0.9}")
        script += Self.request(6, "input.pointer", "{\"phase\":\"move\",\"x\":200,\"y\":260,\"t\":1}")
        script += Self.request(7, "input.pointer", "{\"phase\":\"move\",\"x\":200,\"y\":330,\"t\":1.1}")
        script += Self.request(8, "input.pointer", "{\"phase\":\"up\",\"x\":200,\"y\":330,\"t\":1.2}")
        script += Self.request(9, "scene.frame", "{}")
        script += Self.request(10, "input.key", "{\"key\":\"down\",\"modifiers\":[\"shift\"],\"t\":1.3}")
        script += Self.request(11, "clock.advance", "{\"to\":1.5}")
        script += Self.request(12, "scene.open", "{\"scene\":\"scores\"}")
        script += Self.request(13, "scene.action", "{\"name\":\"select\",\"test\":4}")
        script += Self.request(14, "input.wheel", "{\"dx\":0,\"dy\":-80,\"x\":100,\"y\":400,\"t\":1.8}")
        script += Self.request(15, "clock.advance", "{\"to\":4}")
        script += Self.request(16, "shutdown", "{}")
        script += "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}\n"
        let (status, out, err) = try runCardistry(["stdio", "--record", path], stdin: script)
        #expect(status == 0, "\(err)")
        let served = try Self.frames(inServerOutput: out)
        #expect(served.count == 7)
        // Written in this build's format: its digests are of the protocol's frame bytes.
        let recording = try String(contentsOfFile: path, encoding: .utf8)
        #expect(recording.hasPrefix(#"{"cardistry":"input-log","version":2,"#))
        let (replayStatus, replayed, replayErr) = try runCardistry(["replay", path, "--json"])
        #expect(replayStatus == 0, "\(replayErr)")
        #expect(try Self.frames(inReplayOutput: replayed) == served)
    }

    /// `Tests/EndToEndTests/Fixtures/recording-v1.jsonl`, recorded by the build before digests were of the
    /// protocol's frame bytes, from the session below (a scores session, then a 40-card deck sorted): it replays to
    /// the frames this build serves for the same session, with its digests unchecked and a notice saying why. A
    /// newer format is refused.
    @Test func aVersion1RecordingReplaysUncheckedWithANotice() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/recording-v1.jsonl").path
        var script = Self.request(
            0, "initialize", "{\"protocolVersion\":\"1.0\",\"viewport\":{\"width\":390,\"height\":844}}")
        script += Self.request(1, "scene.open", "{\"scene\":\"scores\"}")
        script += Self.request(2, "scene.action", "{\"name\":\"select\",\"test\":4,\"t\":0.5}")
        script += Self.request(3, "clock.advance", "{\"to\":0.75}")
        script += Self.request(4, "input.key", "{\"key\":\"down\",\"t\":1}")
        script += Self.request(5, "clock.advance", "{\"to\":3}")
        script += Self.request(6, "scene.open", "{\"scene\":\"deck\",\"options\":{\"cardCount\":40}}")
        script += Self.request(7, "deck.sort", "{\"by\":\"title\",\"order\":\"descending\"}")
        script += Self.request(8, "clock.advance", "{\"to\":4}")
        let (servedStatus, out, servedErr) = try runCardistry(["stdio"], stdin: script)
        #expect(servedStatus == 0, "\(servedErr)")
        let served = try Self.frames(inServerOutput: out)
        #expect(served.count == 5)

        let (status, replayed, err) = try runCardistry(["replay", fixture, "--json"])
        #expect(status == 0, "\(err)")
        #expect(err.contains("a recording of format version 1 (this build writes 2)"), "\(err)")
        #expect(err.contains("replayed without being checked"), "\(err)")
        #expect(try Self.frames(inReplayOutput: replayed) == served)

        // The same file with its version raised to one this build does not know is refused, naming the line.
        let text = try String(contentsOfFile: fixture, encoding: .utf8)
        let newer = Self.temporaryPath("newer-record")
        defer { try? FileManager.default.removeItem(atPath: newer) }
        try Data(text.replacingOccurrences(of: "\"version\":1,", with: "\"version\":3,").utf8).write(
            to: URL(fileURLWithPath: newer))
        let (refused, _, refusedErr) = try runCardistry(["replay", newer])
        #expect(refused == 1)
        #expect(
            refusedErr.contains("line 1: recording format version 3 is newer than this build reads"), "\(refusedErr)")
    }

    /// `Tests/EndToEndTests/Fixtures/recording-deck-look1.jsonl`, recorded by the build before the deck's expanded
    /// card counted its place in the user's order from 1 ("Card 3 of 12 · your order: 2", issue 46): a seed deck, a
    /// tap that expands the third card, the frame at rest (the deck's look is 6 now: that count, titles sorted as
    /// people count, text colours chosen for contrast, the expanding card and the fan on a terminal). This build draws that frame differently, so the
    /// recording names the look it was made with and replay says which changes came since, replays its inputs and
    /// does not check its digests. Claiming this build's look, the same file fails on the changed frame: the check
    /// is real, and the frame did change.
    @Test func aRecordingOfAnEarlierLookReplaysUncheckedNamingTheChange() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/recording-deck-look1.jsonl").path
        let (status, replayed, err) = try runCardistry(["replay", fixture, "--json"])
        #expect(status == 0, "\(err)")
        #expect(err.contains("the scene 'deck' draws differently since it was made (look 1, now 6"), "\(err)")
        #expect(err.contains("counts its place in your order from 1"), "\(err)")
        // The expanded card counts both places from 1 now.
        #expect(replayed.contains("Card 3 of 12 · your order: 3"), "\(replayed.prefix(400))")
        #expect(!replayed.contains("your order: 2"))

        let text = try String(contentsOfFile: fixture, encoding: .utf8)
        let current = Self.temporaryPath("look-current")
        defer { try? FileManager.default.removeItem(atPath: current) }
        try Data(text.replacingOccurrences(of: "\"measurer\":", with: "\"look\":6,\"measurer\":").utf8).write(
            to: URL(fileURLWithPath: current))
        let (failed, _, failedErr) = try runCardistry(["replay", current])
        #expect(failed == 1)
        // Since look 4 (the titles' colours) the first frame differs already, before the tap's at t=1.5.
        #expect(failedErr.contains("line 2: the frame at t=0.0 differs from the recording"), "\(failedErr)")

        // A session recorded now names the deck's look, and replays checked.
        let path = Self.temporaryPath("look-now")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let script = Self.session([
            ("scene.open", "{\"scene\":\"deck\"}"),
            ("input.pointer", "{\"phase\":\"down\",\"x\":195,\"y\":200,\"t\":0.2}"),
            ("input.pointer", "{\"phase\":\"up\",\"x\":195,\"y\":200,\"t\":0.25}"),
            ("clock.advance", "{\"to\":1.5}"),
        ])
        let (recorded, _, recordedErr) = try runCardistry(["stdio", "--record", path], stdin: script)
        #expect(recorded == 0, "\(recordedErr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("\"look\":6"))
        let (checked, _, checkedErr) = try runCardistry(["replay", path])
        #expect(checked == 0 && checkedErr.isEmpty, "\(checkedErr)")
    }

    /// SIGKILL right after a change: every input answered before it is in the record, which replays.
    @Test func aKilledServerLeavesAUsableRecording() throws {
        let path = Self.temporaryPath("killed-record")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try StdioProcess(["--record", path])
        _ = try server.request(
            0, "initialize", "{\"protocolVersion\":\"1.0\",\"viewport\":{\"width\":390,\"height\":844}}")
        _ = try server.request(1, "scene.open", "{\"scene\":\"scores\"}")
        _ = try server.request(2, "scene.action", "{\"name\":\"select\",\"test\":6,\"t\":0.5}")
        _ = try server.request(3, "clock.advance", "{\"to\":0.75}")
        _ = try server.request(4, "input.key", "{\"key\":\"down\",\"t\":1}")
        kill(server.process.processIdentifier, SIGKILL)
        server.process.waitUntilExit()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"key\":\"down\""))
        let (status, out, err) = try runCardistry(["replay", path])
        #expect(status == 0, "\(err)")
        #expect(out.contains("frame t=0.75"))
    }

    @Test func aBadOrCutRecordingIsAnErrorNamingTheLine() throws {
        let path = Self.temporaryPath("bad-record")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var script = Self.request(
            0, "initialize", "{\"protocolVersion\":\"1.0\",\"viewport\":{\"width\":390,\"height\":844}}")
        script += Self.request(1, "scene.open", "{\"scene\":\"scores\"}")
        script += Self.request(2, "scene.action", "{\"name\":\"select\",\"test\":4,\"t\":0.5}")
        script += Self.request(3, "clock.advance", "{\"to\":2}")
        let (status, _, err) = try runCardistry(["stdio", "--record", path], stdin: script)
        #expect(status == 0, "\(err)")  // no shutdown: the end of input ends the session
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(try runCardistry(["replay", path]).0 == 0)
        // A frame that differs from the recording names its line.
        lines[3] = lines[3].replacingOccurrences(of: "\"digest\":", with: "\"digest\":1")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let (changed, _, changedErr) = try runCardistry(["replay", path])
        #expect(changed == 1)
        #expect(changedErr.contains("line 4"), "\(changedErr)")
        // A line cut short (a crash in the middle of a write) names its line too.
        try Data((lines[0..<3].joined(separator: "\n") + "\n" + lines[3].prefix(12)).utf8).write(
            to: URL(fileURLWithPath: path))
        let (cut, _, cutErr) = try runCardistry(["replay", path])
        #expect(cut == 1)
        #expect(cutErr.contains("line 4: the last line is cut short"), "\(cutErr)")
    }

    /// A million-card session: the record holds O(inputs) lines (the header names the card count, not the cards)
    /// and replays to the same frames. About 15 s in a debug build.
    @Test func aMillionCardRecordingReplays() throws {
        let path = Self.temporaryPath("million-record")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let script = Self.session([
            ("scene.open", "{\"scene\":\"deck\",\"options\":{\"cardCount\":1000000}}"),
            ("deck.sort", "{\"by\":\"title\"}"),
            ("input.key", "{\"key\":\"down\",\"modifiers\":[\"shift\"],\"t\":0.5}"),
            ("clock.advance", "{\"to\":0.7}"),
            ("scene.action", "{\"name\":\"sort\",\"by\":\"color\",\"t\":0.8}"),
            ("clock.advance", "{\"to\":3}"),
        ])
        let (status, out, err) = try runCardistry(["stdio", "--record", path], stdin: script)
        #expect(status == 0, "\(err)")
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? .max
        #expect(size < 4096)
        let (replayStatus, replayed, replayErr) = try runCardistry(["replay", path, "--json"])
        #expect(replayStatus == 0, "\(replayErr)")
        #expect(try Self.frames(inReplayOutput: replayed) == Self.frames(inServerOutput: out))
    }

    @Test func aRecordedTerminalSessionReplaysToTheSameFrames() throws {
        let path = Self.temporaryPath("tui-record")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try withTmux { tmux in
            try tmux.type(try tmux.command("tui --scene scores --record '\(path)'"))
            #expect(try tmux.waitFor { $0.contains("Test 1") && $0.contains("●") })
            let lines = try tmux.lines()
            let knobRow = try #require(lines.firstIndex { $0.contains("●") })
            let knobColumn = try #require(lines[knobRow].unicodeScalars.firstIndex(of: "●")).utf16Offset(
                in: lines[knobRow])
            try tmux.drag(from: (knobColumn, knobRow), to: (knobColumn + 20, knobRow))
            #expect(try tmux.waitFor { !$0.contains("Test 1 ") })
            #expect(try tmux.waitForStillScreen())
            try tmux.send("q")
            try tmux.send("q")
            #expect(try tmux.waitFor { $0.contains("EXIT=0") })
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let recordedFrames = text.split(separator: "\n").filter { $0.contains("\"type\":\"frame\"") }.count
        #expect(recordedFrames > 2)
        #expect(text.contains("\"measurer\":\"cells"))
        let (status, out, err) = try runCardistry(["replay", path])
        #expect(status == 0, "\(err)")
        #expect(out.split(separator: "\n").filter { $0.hasPrefix("frame ") }.count == recordedFrames)
    }
}
