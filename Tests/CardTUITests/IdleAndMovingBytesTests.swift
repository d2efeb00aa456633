import CardEngine
import CardScenes
import CardTestScenes
import Testing

@testable import CardCells
@testable import CardTUI

/// The terminal's byte goals, required here rather than only reported by the `tui` benchmark suite (which measures
/// the same frames the same way, at 200 × 60 cells in true colour): once an animation has settled, a frame writes
/// nothing; and one card swiped away (the flashcards workload, the suite's one-card-moving case) writes under
/// 1.5 KB a frame on average, with sub-cell edges. Bytes are deterministic, so a debug build measures them as well
/// as a release build; the time goal (render+diff under 2 ms a frame) is the benchmark's alone.
@Suite struct IdleAndMovingBytesTests {
    static let columns = 200
    static let rows = 60
    static let idleFrames = 10

    /// Each scene animated by its first key among right, down and enter (as the benchmark does), then at rest.
    @Test(arguments: SceneCatalog.testing.names)
    func settledFramesWriteNothing(scene name: String) throws {
        let run = try #require(Self.draw(scene: name, keys: ["right", "down", "enter"]))
        #expect(run.idleBytes == [Int](repeating: 0, count: Self.idleFrames - 1), "\(name): \(run.idleBytes)")
    }

    @Test func aSwipedCardWritesUnderOneAndAHalfKilobytesAFrame() throws {
        let run = try #require(Self.draw(scene: "flashcards", keys: ["right"]))
        #expect(run.movingBytes.count > 5, "the swipe animated for \(run.movingBytes.count) frames")
        let mean = Double(run.movingBytes.reduce(0, +)) / Double(max(1, run.movingBytes.count))
        #expect(mean <= 1536, "\(mean) bytes a frame")
    }

    /// The bytes the renderer writes for each frame of the animation `keys` start (60 Hz, at most two seconds) and
    /// for each of `idleFrames` frames at rest after it (the first frame at rest, which draws the last edges
    /// whole, counted with neither).
    static func draw(scene: String, keys: [String]) -> (movingBytes: [Int], idleBytes: [Int])? {
        guard
            let sample = AnimationSample(
                scene: scene, keys: keys, catalog: .testing, columns: columns, rows: rows, idleFrames: idleFrames)
        else { return nil }
        let frames = sample.frames
        let rasterizer = Rasterizer(scale: sample.scale)
        var writer = CellScreen(backend: ANSIWriter(depth: .trueColor))
        var buffer = CellBuffer(width: columns, height: rows)
        var output: [UInt8] = []
        rasterizer.render(frames[0], into: &buffer, rows: rows - 1)
        writer.render(buffer, into: &output)
        let moving = frames.count - idleFrames
        var movingBytes: [Int] = []
        var idleBytes: [Int] = []
        for index in 1..<frames.count {
            rasterizer.render(frames[index], into: &buffer, rows: rows - 1, previous: frames[index - 1])
            output.removeAll(keepingCapacity: true)
            writer.render(buffer, into: &output)
            if index < moving {
                movingBytes.append(output.count)
            } else if index > moving {
                idleBytes.append(output.count)
            }
        }
        return (movingBytes, idleBytes)
    }
}
