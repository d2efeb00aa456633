import CardCells
import CardEngine
import CardScenes
import CardTUI

/// The terminal front end's per-frame cost and output size, at 200 × 60 cells (12,000 cells), true colour.
///
/// For each workload the engine's frames of an animation are sampled first at 60 Hz (the engine's own cost is
/// the scene suite's business); then, per frame:
/// - `diff`: rasterise the frame into the cell buffer and diff it against the previous one into ANSI bytes (what
///   the TUI does every frame). `bytes_per_frame` is the mean output; `repaint_bytes_per_frame` the mean of a full
///   repaint of the same frames; `repaint_ratio` their quotient (goal: ≥ 3 during animations); `frame_ms` the
///   render+diff time per frame (goal: < 2 ms). Frames are drawn as the TUI draws them, each with the one before
///   (so moving edges are drawn in eighths of a cell); `idle_bytes_per_frame` is the mean output of the frames
///   after the animation settled (goal: 0). The flashcards workload is one card moving (the top card swiped
///   away): its `bytes_per_frame` has the goal ≤ 1,536 (1.5 KB) with sub-cell edges. `whole_cell_bytes_per_frame`
///   is the same animation drawn in whole cells, for the cost of the partial edges.
/// - `repaint`: rasterise and write every cell (an undiffed renderer), for comparison.
/// - `floor`: the least any diffing renderer does per frame: clear the 12,000-cell buffer and compare it with the
///   previous one. `ratio_to_floor` of the other rows is their time over this.
///
/// Workloads: `scores-resort` (the cards re-ranking after the next test is selected), `deck-resort` (the stack
/// re-sorted by title with the `s` key: every visible card moves), and each other scene animated by its first key
/// among right, down, enter.
struct TUISuite: BenchSuite {
    let name = "tui"
    let columns = 200
    let rows = 60

    func run(_ context: BenchContext) {
        let workloads: [(name: String, scene: String, keys: [String])] =
            [("scores-resort", "scores", ["right"]), ("deck-resort", "deck", ["s"])]
            + ["wallet", "flashcards", "hero"].map { ($0, $0, ["right", "down", "enter"]) }
        for workload in workloads {
            let prefix = "tui/\(workload.name)/\(columns * rows)/\(columns)x\(rows)"
            guard context.selects(prefix, impls: ["diff", "repaint", "floor"]) else { continue }
            guard SceneCatalog.standard.names.contains(workload.scene) else { continue }
            guard
                let sample = AnimationSample(
                    scene: workload.scene, keys: workload.keys, catalog: .standard, columns: columns, rows: rows,
                    idleFrames: Self.idleFrames)
            else {
                context.progress("\(prefix): the scene did not open")
                continue
            }
            measureWorkload(context, workload: workload.name, frames: sample.frames, scale: sample.scale)
        }
    }

    /// Frames after the animation settled, drawn to check that an idle screen writes nothing.
    static let idleFrames = 10

    private func measureWorkload(_ context: BenchContext, workload: String, frames: [Frame], scale: CellScale) {
        let rasterizer = Rasterizer(scale: scale)
        let contentRows = rows - 1
        let count = Double(frames.count)
        let moving = frames.count - Self.idleFrames

        // Output sizes (deterministic, measured once).
        var writer = ANSIWriter(depth: .trueColor)
        var buffer = CellBuffer(width: columns, height: rows)
        var output: [UInt8] = []
        var diffBytes = 0
        var repaintBytes = 0
        var idleBytes = 0
        rasterizer.render(frames[0], into: &buffer, rows: contentRows)
        writer.render(buffer, into: &output)
        for index in 1..<frames.count {
            rasterizer.render(frames[index], into: &buffer, rows: contentRows, previous: frames[index - 1])
            output.removeAll(keepingCapacity: true)
            writer.render(buffer, into: &output)
            if index < moving {
                diffBytes += output.count
                repaintBytes += ANSIWriter.fullRepaint(buffer, depth: .trueColor).count
            } else if index > moving {
                // The first frame at rest draws the last edges whole; the ones after it must write nothing.
                idleBytes += output.count
            }
        }
        // The same frames in whole cells (no partial edges), for the cost of sub-cell motion.
        var wholeBytes = 0
        var wholeWriter = ANSIWriter(depth: .trueColor)
        var whole = Rasterizer(scale: scale)
        whole.subCell = false
        whole.render(frames[0], into: &buffer, rows: contentRows)
        wholeWriter.render(buffer, into: &output)
        for index in 1..<moving {
            whole.render(frames[index], into: &buffer, rows: contentRows)
            output.removeAll(keepingCapacity: true)
            wholeWriter.render(buffer, into: &output)
            wholeBytes += output.count
        }
        let wholePerFrame = Double(wholeBytes) / max(1, Double(moving - 1))
        let diffPerFrame = Double(diffBytes) / max(1, Double(moving - 1))
        let repaintPerFrame = Double(repaintBytes) / max(1, Double(moving - 1))
        let idlePerFrame = Double(idleBytes) / Double(max(1, Self.idleFrames - 1))

        let floor = { () -> Int in
            var previous = CellBuffer(width: columns, height: rows)
            var current = previous
            var equal = 0
            for _ in frames {
                current.clear(to: Cell("x"))
                if current == previous { equal += 1 }
                swap(&current, &previous)
            }
            return equal
        }
        let prefix = "\(name)/\(workload)/\(columns * rows)/\(columns)x\(rows)/"
        let diffSamples = measureCell(
            prefix + "diff", rounds: gateRounds(context),
            { () -> Int in
                var writer = ANSIWriter(depth: .trueColor)
                var buffer = CellBuffer(width: columns, height: rows)
                var output: [UInt8] = []
                output.reserveCapacity(1 << 16)
                var total = 0
                var previous: Frame?
                for frame in frames {
                    rasterizer.render(frame, into: &buffer, rows: contentRows, previous: previous)
                    previous = frame
                    output.removeAll(keepingCapacity: true)
                    writer.render(buffer, into: &output)
                    total += output.count
                }
                return total
            }, floor: floor)
        let repaintSamples = measureCell(
            prefix + "repaint", rounds: gateRounds(context),
            { () -> Int in
                var buffer = CellBuffer(width: columns, height: rows)
                var total = 0
                var previous: Frame?
                for frame in frames {
                    rasterizer.render(frame, into: &buffer, rows: contentRows, previous: previous)
                    previous = frame
                    total += ANSIWriter.fullRepaint(buffer, depth: .trueColor).count
                }
                return total
            }, floor: floor)
        let diff = diffSamples.cell
        func perFrame(_ timing: Timing) -> Timing {
            Timing(medianMs: timing.medianMs / count, minMs: timing.minMs / count, runs: timing.runs)
        }
        func perFrameRow(_ row: BenchRow) -> BenchRow {
            var row = row
            row.medianMs /= count
            row.minMs /= count
            return row
        }
        let n = columns * rows
        let key = "\(columns)x\(rows)"
        context.emit(
            BenchRow(
                suite: name, workload: workload, n: n, key: key, impl: "floor", timing: perFrame(diffSamples.floor),
                metrics: [("frames", count)]))
        context.emit(
            perFrameRow(
                BenchRow(
                    suite: name, workload: workload, n: n, key: key, impl: "diff", samples: diffSamples,
                    metrics: [
                        ("frame_ms", perFrame(diff).medianMs), ("bytes_per_frame", diffPerFrame.rounded()),
                        ("repaint_bytes_per_frame", repaintPerFrame.rounded()),
                        ("repaint_ratio", repaintPerFrame / max(1, diffPerFrame)),
                        ("whole_cell_bytes_per_frame", wholePerFrame.rounded()), ("idle_bytes_per_frame", idlePerFrame),
                        ("frames", count),
                    ])))
        context.emit(
            perFrameRow(
                BenchRow(
                    suite: name, workload: workload, n: n, key: key, impl: "repaint", samples: repaintSamples,
                    metrics: [("bytes_per_frame", repaintPerFrame.rounded()), ("frames", count)])))
    }
}
