import CardCells
import CardEngine
import CardScenes
import CardStdio
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
///
/// Beside them, `tui/flashcards-cells/4800/120x40/stdio-cells`: the stdio server's cells frames (`frames: "cells"`)
/// of the same swipe in a 120 × 40 grid, each drawn as a cells session draws it (the rasteriser, with the frame
/// before) and encoded as the `frame` notification a host reads (`FrameEncoder`: changed row spans and new styles).
/// `frame_ms` is the time per frame (goal: ≤ 1 ms), `bytes_per_frame` and `max_bytes_per_frame` the mean and
/// largest line of a moving frame (goal: ≤ 3 KB), `idle_bytes_per_frame` what a frame at rest writes (goal: 0).
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
        measureCellsFrames(context)
    }

    /// The stdio server's cells frames of one card swiped away, at 120 × 40 (see the type's documentation).
    private func measureCellsFrames(_ context: BenchContext) {
        let (columns, rows) = (120, 40)
        let prefix = "\(name)/flashcards-cells/\(columns * rows)/\(columns)x\(rows)"
        guard context.selects(prefix, impls: ["stdio-cells", "floor"]),
            SceneCatalog.standard.names.contains("flashcards"),
            let sample = AnimationSample(
                scene: "flashcards", keys: ["right"], catalog: .standard, columns: columns, rows: rows + 1,
                idleFrames: Self.idleFrames)
        else { return }
        let frames = sample.frames
        let rasterizer = Rasterizer(scale: sample.scale)
        let moving = frames.count - Self.idleFrames
        /// Draws and encodes every frame; returns each line's length (0: nothing written).
        func encodeAll() -> [Int] {
            var encoder = FrameEncoder()
            var previous: Frame?
            var sizes: [Int] = []
            sizes.reserveCapacity(frames.count)
            for (index, frame) in frames.enumerated() {
                var buffer = CellBuffer(width: columns, height: rows)
                rasterizer.render(frame, into: &buffer, previous: previous)
                previous = frame
                var update = FrameUpdate(
                    seq: index + 1,
                    frame: Frame(
                        time: frame.time, viewport: frame.viewport, nodes: [], events: [],
                        isAnimating: frame.isAnimating),
                    forceFull: index == 0, deltaMode: true)
                update.cells = buffer
                update.cellScale = sample.scale
                sizes.append(encoder.encode(.frameNotification(update)).count)
            }
            return sizes
        }
        let sizes = encodeAll()
        let movingSizes = sizes[1..<moving]
        let bytesPerFrame = Double(movingSizes.reduce(0, +)) / Double(max(1, movingSizes.count))
        let idle = sizes[(moving + 1)...]
        let idlePerFrame = Double(idle.reduce(0, +)) / Double(max(1, idle.count))
        let floor = { Self.clearAndCompareFloor(columns: columns, rows: rows, frames: frames.count) }
        let samples = measureCell(
            prefix + "/stdio-cells", rounds: gateRounds(context), { encodeAll().reduce(0, +) }, floor: floor)
        let count = Double(frames.count)
        var row = BenchRow(
            suite: name, workload: "flashcards-cells", n: columns * rows, key: "\(columns)x\(rows)",
            impl: "stdio-cells",
            samples: samples,
            metrics: [
                ("frame_ms", samples.cell.medianMs / count), ("bytes_per_frame", bytesPerFrame.rounded()),
                ("max_bytes_per_frame", Double(movingSizes.max() ?? 0)), ("idle_bytes_per_frame", idlePerFrame),
                ("full_frame_bytes", Double(sizes[0])), ("frames", count),
            ])
        row.medianMs /= count
        row.minMs /= count
        context.emit(
            BenchRow(
                suite: name, workload: "flashcards-cells", n: columns * rows, key: "\(columns)x\(rows)", impl: "floor",
                timing: Timing(
                    medianMs: samples.floor.medianMs / count, minMs: samples.floor.minMs / count,
                    runs: samples.floor.runs),
                metrics: [("frames", count)]))
        context.emit(row)
    }

    /// Frames after the animation settled, drawn to check that an idle screen writes nothing.
    static let idleFrames = 10

    /// The bytes a frame takes on average (deterministic, measured once): the diff of each moving frame, a full
    /// repaint of it, the same frames drawn in whole cells (the cost of sub-cell motion), and each idle frame after
    /// the first at rest (which draws the last edges whole; the ones after it must write nothing).
    private func outputSizes(frames: [Frame], rasterizer: Rasterizer)
        -> (diff: Double, repaint: Double, whole: Double, idle: Double)
    {
        let contentRows = rows - 1
        let moving = frames.count - Self.idleFrames
        var writer = CellScreen(backend: ANSIWriter(depth: .trueColor))
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
        var wholeWriter = CellScreen(backend: ANSIWriter(depth: .trueColor))
        var whole = Rasterizer(scale: rasterizer.scale)
        whole.subCell = false
        whole.render(frames[0], into: &buffer, rows: contentRows)
        wholeWriter.render(buffer, into: &output)
        for index in 1..<moving {
            whole.render(frames[index], into: &buffer, rows: contentRows)
            output.removeAll(keepingCapacity: true)
            wholeWriter.render(buffer, into: &output)
            wholeBytes += output.count
        }
        let movingFrames = max(1, Double(moving - 1))
        return (
            Double(diffBytes) / movingFrames, Double(repaintBytes) / movingFrames, Double(wholeBytes) / movingFrames,
            Double(idleBytes) / Double(max(1, Self.idleFrames - 1))
        )

    }

    private func measureWorkload(_ context: BenchContext, workload: String, frames: [Frame], scale: CellScale) {
        let rasterizer = Rasterizer(scale: scale)
        let contentRows = rows - 1
        let count = Double(frames.count)

        let sizes = outputSizes(frames: frames, rasterizer: rasterizer)
        let (diffPerFrame, repaintPerFrame) = (sizes.diff, sizes.repaint)
        let (wholePerFrame, idlePerFrame) = (sizes.whole, sizes.idle)

        let floor = { Self.clearAndCompareFloor(columns: columns, rows: rows, frames: frames.count) }
        let prefix = "\(name)/\(workload)/\(columns * rows)/\(columns)x\(rows)/"
        let diffSamples = measureCell(
            prefix + "diff", rounds: gateRounds(context),
            { () -> Int in
                var writer = CellScreen(backend: ANSIWriter(depth: .trueColor))
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

    /// The floor of a render cell: clearing a `columns`×`rows` buffer and comparing it with the previous one,
    /// `frames` times (the least a frame of cells costs). Returns how many compared equal, to keep the work.
    static func clearAndCompareFloor(columns: Int, rows: Int, frames: Int) -> Int {
        var previous = CellBuffer(width: columns, height: rows)
        var current = previous
        var equal = 0
        for _ in 0..<frames {
            current.clear(to: Cell("x"))
            if current == previous { equal += 1 }
            swap(&current, &previous)
        }
        return equal
    }
}
