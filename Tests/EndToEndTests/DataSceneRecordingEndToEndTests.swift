import Foundation
import Testing

/// A recording of a scene described as data carries its description (the header's `definition`): `cardistry
/// replay` replays it bit-exactly with the description file gone, `--scene-file` still overrides it, and a
/// recording without one (made before recordings carried descriptions) still needs the file.
@Suite(.serialized) struct DataSceneRecordingEndToEndTests {
    static let board = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scenes/board.json").path

    /// A copy of the board's description in a temporary file, with `replacing` applied to its text.
    static func copyOfTheBoard(replacing: (String, String)? = nil) throws -> String {
        var text = try String(contentsOfFile: board, encoding: .utf8)
        if let (old, new) = replacing { text = text.replacingOccurrences(of: old, with: new) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("board-\(UUID()).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The recording with its headers' `definition` removed: a recording as older builds wrote it.
    static func withoutDefinitions(_ recording: String) throws -> String {
        try recording.split(separator: "\n").map { line -> String in
            guard line.hasPrefix(#"{"cardistry":"input-log""#) else { return String(line) }
            var header = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(header["definition"] != nil, "the header carries no description: \(line.prefix(200))")
            header["definition"] = nil
            return String(decoding: try JSONSerialization.data(withJSONObject: header), as: UTF8.self)
        }.joined(separator: "\n") + "\n"
    }

    /// Checks what a recording of the board replays to: with the file deleted (its own description), with
    /// `--scene-file` naming a changed board (the override is used: the frames differ from the recording), and
    /// without a description in the header (the scene is unknown unless the file is given).
    static func checkReplays(of recordingPath: String, frames: Int) throws {
        let (status, out, err) = try runCardistry(["replay", recordingPath])
        #expect(status == 0, "\(err)")
        #expect(err.isEmpty, "\(err)")
        #expect(!out.isEmpty)
        let (jsonStatus, json, jsonErr) = try runCardistry(["replay", recordingPath, "--json"])
        #expect(jsonStatus == 0, "\(jsonErr)")
        let replayed = try RecordingEndToEndTests.frames(inReplayOutput: json)
        #expect(replayed.count == frames, "every recorded frame replayed (digests checked)")

        let changed = try copyOfTheBoard(replacing: ("#5856d6", "#123456"))
        defer { try? FileManager.default.removeItem(atPath: changed) }
        let (overridden, _, overriddenErr) = try runCardistry(["replay", recordingPath, "--scene-file", changed])
        #expect(overridden == 1, "a changed --scene-file replays its own description, not the recorded one")
        #expect(overriddenErr.contains("differs from the recording"), "\(overriddenErr)")

        let older = FileManager.default.temporaryDirectory.appendingPathComponent("older-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: older) }
        try withoutDefinitions(try String(contentsOfFile: recordingPath, encoding: .utf8))
            .write(toFile: older, atomically: true, encoding: .utf8)
        let (unknown, _, unknownErr) = try runCardistry(["replay", older])
        #expect(unknown != 0, "an older recording of a data scene needs its file")
        #expect(unknownErr.contains("unknown scene 'board'"), "\(unknownErr)")
        let (given, _, givenErr) = try runCardistry(["replay", older, "--scene-file", board])
        #expect(given == 0, "\(givenErr)")
    }

    @Test func aStdioRecordingOfTheBoardReplaysWithoutItsFile() throws {
        let path = RecordingEndToEndTests.temporaryPath("board-stdio-record")
        defer { try? FileManager.default.removeItem(atPath: path) }
        // JSON allows no raw line break inside a string: joining the file's lines keeps the document.
        let description = try String(contentsOfFile: Self.board, encoding: .utf8)
            .replacingOccurrences(of: "\n", with: " ")
        var script = RecordingEndToEndTests.session([
            ("scene.define", "{\"description\":\(description)}"),
            ("scene.open", "{\"scene\":\"board\"}"),
            // Card 1 dragged to the second column; card 9 flung to the right (archived).
            ("input.pointer", "{\"phase\":\"down\",\"x\":70,\"y\":70,\"t\":1}"),
            ("input.pointer", "{\"phase\":\"move\",\"x\":130,\"y\":120,\"t\":1.2}"),
            ("input.pointer", "{\"phase\":\"move\",\"x\":195,\"y\":270,\"t\":1.4}"),
            ("input.pointer", "{\"phase\":\"up\",\"x\":195,\"y\":270,\"t\":1.5}"),
            ("clock.advance", "{\"to\":1.7}"),
            ("input.pointer", "{\"phase\":\"down\",\"x\":317,\"y\":206,\"t\":3}"),
            ("input.pointer", "{\"phase\":\"move\",\"x\":380,\"y\":207,\"t\":3.03}"),
            ("input.pointer", "{\"phase\":\"up\",\"x\":440,\"y\":208,\"t\":3.06}"),
            ("clock.advance", "{\"to\":5}"),
            ("input.key", "{\"key\":\"r\",\"t\":5.1}"),
            ("clock.advance", "{\"to\":8}"),
            ("shutdown", "{}"),
        ])
        script += "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}\n"
        let (status, out, err) = try runCardistry(["stdio", "--record", path], stdin: script)
        #expect(status == 0, "\(err)")
        #expect(out.contains(#""method":"deck.changed""#), "the fling archived a card")
        let served = try RecordingEndToEndTests.frames(inServerOutput: out)
        #expect(served.count == 4, "scene.open and three clock.advance frames")
        let recording = try String(contentsOfFile: path, encoding: .utf8)
        #expect(recording.hasPrefix(#"{"cardistry":"input-log","version":2,"scene":"board","#))
        #expect(recording.split(separator: "\n").first?.contains(#""definition":{"$schema":"#) == true)
        // The stdio server defined the board from the protocol: no file names it. Its replay takes the frames the
        // server sent, each checked against its digest.
        try Self.checkReplays(of: path, frames: served.count)
        let (_, json, _) = try runCardistry(["replay", path, "--json"])
        #expect(try RecordingEndToEndTests.frames(inReplayOutput: json) == served)
    }

    @Test func aTerminalRecordingOfTheBoardReplaysWithTheFileDeleted() throws {
        let file = try Self.copyOfTheBoard()
        let recording = RecordingEndToEndTests.temporaryPath("board-tui-record")
        defer {
            try? FileManager.default.removeItem(atPath: file)
            try? FileManager.default.removeItem(atPath: recording)
        }
        try withTmux(columns: 80, rows: 24) { tmux in
            try tmux.type(try tmux.command("tui --scene-file '\(file)' --record '\(recording)'"))
            #expect(try tmux.waitFor { $0.contains("To do") && $0.contains("Sketch") })
            #expect(try tmux.waitForStillScreen())
            let lines = try tmux.lines()
            let row = try #require(lines.firstIndex { $0.contains("Sketch") })
            let column = try #require(lines[row].range(of: "Sketch")).lowerBound.utf16Offset(in: lines[row])
            // Card 1 dragged into the second column, then archived and restored with the keys.
            // At a person's pace and not only sideways (a cell is 8×16 points): a fast sideways drag is a fling,
            // which archives the card.
            try tmux.send("\u{1B}[<0;\(column + 3);\(row + 1)M")
            for step in 1...8 {
                usleep(60_000)
                try tmux.send("\u{1B}[<32;\(column + 3 + 28 * step / 8);\(row + 1 + 8 * step / 8)M")
            }
            usleep(60_000)
            try tmux.send("\u{1B}[<0;\(column + 31);\(row + 9)m")
            #expect(try tmux.waitForStillScreen())
            let moved = try tmux.lines()
            let movedRow = try #require(moved.firstIndex { $0.contains("Sketch") }, "\(moved)")
            #expect(
                try #require(moved[movedRow].range(of: "Sketch")).lowerBound.utf16Offset(in: moved[movedRow])
                    > column + 10, "card 1 did not move to the second column")
            try tmux.send("a")
            #expect(try tmux.waitForStillScreen())
            try tmux.send("r")
            #expect(try tmux.waitForStillScreen())
            try tmux.send("q")
            if try !tmux.waitFor(timeout: 2, { $0.contains("EXIT=") }) { try tmux.send("q") }
            #expect(try tmux.waitFor { $0.contains("EXIT=0") })
        }
        try FileManager.default.removeItem(atPath: file)
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        let frames = text.split(separator: "\n").filter { $0.contains(#""type":"frame""#) }.count
        #expect(frames > 5, "the terminal recorded its frames")
        try Self.checkReplays(of: recording, frames: frames)
    }
}
