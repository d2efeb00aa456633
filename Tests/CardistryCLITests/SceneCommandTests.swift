import CardEngine
import CardFrontend
import CardGeometry
import CardGestures
import CardModels
import CardSceneFormat
import CardistryCLI
import Foundation
import Testing

/// `cardistry scene check|fuzz` and the replay of a scene described as data.
@Suite struct SceneCommandTests {
    static let board = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scenes/board.json").path

    func write(_ text: String, suffix: String = ".json") throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scene-\(UUID().uuidString)\(suffix)")
            .path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func checkPlaysTheBoardWithoutAProblem() {
        let (io, output) = CommandIO.capture()
        #expect(CLI.run(["scene", "check", Self.board, "--sessions", "20"], io: io) == 0, "\(output.stdout)")
        #expect(output.stdout.hasSuffix("scene 'board' loads; 20 sessions (seed 50): no problem\n"))
    }

    @Test func checkNamesTheFaultOfABrokenDescription() throws {
        let board = try String(contentsOfFile: Self.board, encoding: .utf8)
        let broken = try write(board.replacingOccurrences(of: "\"y\": \"48\"", with: "\"y\": \"48 + nope\""))
        let (io, output) = CommandIO.capture()
        #expect(CLI.run(["scene", "check", broken], io: io) == 1)
        #expect(output.stderr.contains("/layouts/0/y (column 6): unknown variable 'nope'"), "\(output.stderr)")
    }

    @Test func fuzzRunsItsMutations() {
        let (io, output) = CommandIO.capture()
        #expect(CLI.run(["scene", "fuzz", Self.board, "--count", "300", "--seed", "9"], io: io) == 0)
        #expect(output.stdout.hasPrefix("300 mutations (seed 9): "))
        #expect(output.stdout.contains("0 bad pointers, 0 problems"))
    }

    /// A recording of the board (a scene that exists only as data) replays to the same frames, digests checked,
    /// with the description its header carries, or with the one `--scene-file` gives.
    @Test func aRecordingOfADataSceneReplaysWithItsDescription() throws {
        let description = try SceneDescription.load(
            bytes: Array(try String(contentsOfFile: Self.board, encoding: .utf8).utf8))
        var engine = Engine(
            scene: try DescribedScene(description: description), viewport: Size(width: 844, height: 390))
        engine.startRecording(options: SceneOptions())
        _ = engine.frame(at: 0)
        engine.handle(.pointer(PointerEvent(.down, at: Point(x: 100, y: 70), time: 0.5)))
        engine.handle(.pointer(PointerEvent(.move, at: Point(x: 400, y: 150), time: 0.7)))
        _ = engine.frame(at: 0.72)
        engine.handle(.pointer(PointerEvent(.up, at: Point(x: 700, y: 200), time: 0.9)))
        _ = engine.frame(at: 1.0)
        _ = engine.frame(at: 4)
        let path = try write(String(decoding: engine.takeRecording(), as: UTF8.self), suffix: ".jsonl")
        let (io, output) = CommandIO.capture()
        #expect(CLI.run(["replay", path, "--scene-file", Self.board, "--lint"], io: io) == 0, "\(output.stderr)")
        #expect(output.stdout.contains("no findings in 4 frames"), "\(output.stdout)")
        let (without, withoutOutput) = CommandIO.capture()
        #expect(CLI.run(["replay", path, "--lint"], io: without) == 0, "\(withoutOutput.stderr)")
        #expect(withoutOutput.stdout.contains("no findings in 4 frames"), "\(withoutOutput.stdout)")
    }
}
