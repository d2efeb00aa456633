import CardModels
import Testing

@testable import CardCells
@testable import CardTUI

/// The one cell diff (`CellDiff`) on thousands of seeded random buffer pairs: it holds exactly the changed cells,
/// applying it to the previous buffer gives the next, the headless test backend behind a `CellScreen` is handed
/// exactly the changed cells, and the terminal writer's bytes for it, replayed through the terminal model
/// (`ScreenModel`), reproduce the next buffer.
@Suite struct CellDiffTests {
    static let colors: [CellColor] = [.terminalDefault, .indexed(4), .indexed(200), .rgb(10, 20, 30), .rgb(250, 0, 90)]
    static let words = ["日本", "語", "a", "漢字テスト", "😀x", "b c", "한국어", "…", "🚀", "e\u{301}", "❤️", "🇫🇷x", "abc", "   "]
    static let singles: [Glyph] = ["z", " ", " ", "─", "日", Cell.wideContinuation, Glyph("e\u{301}"), Glyph("🇫🇷")]

    static func randomStyle(_ random: inout SplitMix64) -> (CellColor, CellColor, CellAttributes) {
        (
            colors[random.below(colors.count)], colors[random.below(colors.count)],
            CellAttributes(rawValue: UInt8(random.below(16)))
        )
    }

    /// `buffer` with a few random edits: words (narrow, wide, clusters), single cells (which may cut a wide
    /// character in two), and blanks whose foreground alone changes (which show no change).
    static func edited(_ buffer: CellBuffer, _ random: inout SplitMix64) -> CellBuffer {
        var buffer = buffer
        for _ in 0..<random.below(6) {
            let (foreground, background, attributes) = randomStyle(&random)
            buffer.put(
                words[random.below(words.count)], column: random.below(buffer.width + 2) - 1,
                row: random.below(buffer.height), foreground: foreground, background: background,
                attributes: attributes)
        }
        for _ in 0..<random.below(5) {
            let (foreground, background, attributes) = randomStyle(&random)
            buffer[random.below(buffer.width), random.below(buffer.height)] = Cell(
                singles[random.below(singles.count)], foreground: foreground, background: background,
                attributes: attributes)
        }
        for _ in 0..<random.below(4) {
            let (x, y) = (random.below(buffer.width), random.below(buffer.height))
            if buffer[x, y].hidesForeground { buffer[x, y].foreground = colors[random.below(colors.count)] }
        }
        return buffer
    }

    /// A random buffer of `width × height`.
    static func randomBuffer(width: Int, height: Int, _ random: inout SplitMix64) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height)
        for _ in 0..<3 { buffer = edited(buffer, &random) }
        return buffer
    }

    /// A random buffer of a random size (at least `minimumWidth` columns) and an edit of it, both with their wide
    /// characters repaired (as the rasteriser leaves them) when `repaired`.
    static func randomPair(
        _ random: inout SplitMix64, minimumWidth: Int = 1, repaired: Bool = false
    ) -> (previous: CellBuffer, next: CellBuffer) {
        let width = minimumWidth + random.below(30)
        var previous = randomBuffer(width: width, height: 1 + random.below(6), &random)
        if repaired { previous.repairWideCharacters() }
        var next = edited(previous, &random)
        if repaired { next.repairWideCharacters() }
        return (previous, next)
    }

    /// The indices of the cells of `next` that do not look the same as `previous`'s, found cell by cell.
    static func changedCells(from previous: CellBuffer, to next: CellBuffer) -> [Int] {
        next.cells.indices.filter { !next.cells[$0].looksSame(as: previous.cells[$0]) }
    }

    /// The cells of the diff's changed ranges, and checks that each run is maximal and widened only to the other
    /// half of a wide character.
    static func cells(of diff: CellDiff, next: CellBuffer) -> [Int] {
        var cells: [Int] = []
        for run in diff.runs {
            let base = run.row * next.width
            cells += run.changed.map { base + $0 }
            if run.columns.lowerBound < run.changed.lowerBound {
                #expect(next.cells[base + run.changed.lowerBound].isWideContinuation)
                #expect(next.cells[base + run.columns.lowerBound].isWide)
            }
            if run.columns.upperBound > run.changed.upperBound {
                #expect(next.cells[base + run.changed.upperBound - 1].isWide)
                #expect(next.cells[base + run.columns.upperBound - 1].isWideContinuation)
            }
        }
        return cells
    }

    @Test func theDiffHoldsExactlyTheChangedCellsAndApplyingItGivesTheNextBuffer() {
        var random = SplitMix64(seed: 47_05)
        var changedTotal = 0
        for _ in 0..<3_000 {
            let (previous, next) = Self.randomPair(&random)
            let diff = CellDiff(from: previous, to: next)
            #expect(!diff.isRepaint)
            let expected = Self.changedCells(from: previous, to: next)
            #expect(Self.cells(of: diff, next: next) == expected)
            #expect(diff.isEmpty == expected.isEmpty)
            changedTotal += expected.count
            var applied = previous
            diff.apply(to: &applied, from: next)
            #expect(applied.looksSame(as: next))
            // Outside the runs nothing was touched.
            let redrawn = Set(diff.runs.flatMap { run in run.columns.map { run.row * next.width + $0 } })
            for index in applied.cells.indices where !redrawn.contains(index) {
                #expect(applied.cells[index] == previous.cells[index])
            }
        }
        #expect(changedTotal > 10_000, "the pairs differ in many cells (\(changedTotal))")
    }

    @Test func withoutAPreviousBufferOfTheSizeTheDiffRepaintsEveryCell() {
        var random = SplitMix64(seed: 47_06)
        let next = Self.randomBuffer(width: 9, height: 4, &random)
        for previous in [nil, CellBuffer(width: 8, height: 4), CellBuffer(width: 9, height: 3)] {
            let diff = CellDiff(from: previous, to: next)
            #expect(diff.isRepaint && !diff.isEmpty)
            #expect(diff.runs.map(\.row) == [0, 1, 2, 3])
            #expect(diff.runs.allSatisfy { $0.changed == 0..<9 && $0.columns == 0..<9 })
            var applied = CellBuffer(width: 2, height: 2, fill: Cell("x"))
            diff.apply(to: &applied, from: next)
            #expect(applied == next)
        }
        #expect(CellDiff(from: nil, to: CellBuffer(width: 0, height: 3)).runs.isEmpty)
    }

    /// A wide character whose left half alone changed is redrawn whole, and so is one whose right half alone changed
    /// (restyled on its own): the run's changed cells are that half, its columns both.
    @Test func aRunTakesTheOtherHalfOfAChangedWideCharacter() {
        var previous = CellBuffer(width: 10, height: 1)
        previous.put("a日b", column: 2, row: 0, foreground: .indexed(1))
        var next = previous
        next.put("本", column: 3, row: 0, foreground: .indexed(1))
        #expect(CellDiff(from: previous, to: next).runs == [CellDiff.Run(row: 0, changed: 3..<4, columns: 3..<5)])
        next = previous
        next[4, 0].background = .indexed(2)
        #expect(CellDiff(from: previous, to: next).runs == [CellDiff.Run(row: 0, changed: 4..<5, columns: 3..<5)])
        // A right half overwritten leaves half a wide character, no pair: nothing to widen to.
        next = previous
        next[4, 0] = Cell("x")
        #expect(CellDiff(from: previous, to: next).runs == [CellDiff.Run(row: 0, changed: 4..<5, columns: 4..<5)])
    }

    /// A screen of the test backend, given random frames (with resizes and invalidations): each diff it records
    /// holds exactly the cells that changed since the frame before (as the screen presents them, wide characters
    /// repaired), and its grid looks like every frame presented.
    @Test func theTestBackendSeesExactlyTheChangedCells() {
        var random = SplitMix64(seed: 47_07)
        var screen = CellScreen(backend: CellTestBackend())
        var buffer = CellBuffer(width: 24, height: 5)
        var shown: CellBuffer?
        var changedTotal = 0
        for frame in 0..<3_000 {
            if random.below(100) == 0 {
                buffer = Self.randomBuffer(width: 10 + random.below(20), height: 1 + random.below(6), &random)
            }
            if random.below(100) == 0 {
                screen.invalidate()
                shown = nil
            }
            buffer = Self.edited(buffer, &random)
            screen.present(buffer)
            // As the screen presents it: half a wide character as a space.
            var presented = buffer
            if presented.hasBrokenWideCharacters { presented.repairWideCharacters() }
            let diff = screen.backend.diffs[frame]
            if let before = shown, before.width == presented.width, before.height == presented.height {
                let expected = Self.changedCells(from: before, to: presented)
                #expect(!diff.isRepaint)
                #expect(Self.cells(of: diff, next: presented) == expected)
                changedTotal += expected.count
            } else {
                #expect(diff.isRepaint)
            }
            #expect(screen.backend.buffer.looksSame(as: presented))
            shown = presented
        }
        #expect(screen.backend.diffs.count == 3_000)
        #expect(changedTotal > 10_000)
    }

    /// Random pairs of buffers, at random sizes: after the writer drew the first, its bytes for the diff to the
    /// second, replayed through the terminal model, give the second buffer as a terminal shows it.
    @Test func theWritersBytesReplayedReproduceTheNextBuffer() {
        var random = SplitMix64(seed: 47_08)
        var diffBytes = 0
        for _ in 0..<3_000 {
            let (previous, next) = Self.randomPair(&random, minimumWidth: 2, repaired: true)
            var screen = CellScreen(backend: ANSIWriter(synchronizedOutput: random.below(2) == 0))
            var model = ScreenModel(width: next.width, height: next.height)
            var output: [UInt8] = []
            screen.render(previous, into: &output)
            model.apply(output)
            #expect(model.screen.looksSame(as: previous))
            output.removeAll()
            screen.render(next, into: &output)
            #expect(output.isEmpty == CellDiff(from: previous, to: next).isEmpty)
            diffBytes += output.count
            model.apply(output)
            #expect(model.screen.looksSame(as: next))
            #expect(model.unexpected.isEmpty)
        }
        #expect(diffBytes > 100_000)
    }

    /// The writer and the test backend behind screens given the same frames are handed the same diffs.
    @Test func theWriterAndTheTestBackendAreHandedOneDiff() {
        struct Tee: CellBackend {
            var writer = ANSIWriter()
            var test = CellTestBackend()
            var writerBytes: [Int] = []
            mutating func draw(_ diff: CellDiff, of next: CellBuffer) {
                let before = writer.bytes.count
                writer.draw(diff, of: next)
                test.draw(diff, of: next)
                writerBytes.append(writer.bytes.count - before)
            }
        }
        var random = SplitMix64(seed: 47_09)
        var screen = CellScreen(backend: Tee())
        var buffer = CellBuffer(width: 20, height: 4)
        for _ in 0..<500 {
            buffer = Self.edited(buffer, &random)
            screen.present(buffer)
        }
        // The writer wrote bytes exactly for the frames whose diff was not empty.
        #expect(zip(screen.backend.test.diffs, screen.backend.writerBytes).allSatisfy { $0.isEmpty == ($1 == 0) })
        #expect(screen.backend.test.diffs.contains { $0.isEmpty })
        #expect(screen.backend.test.buffer.looksSame(as: screen.shown!))
    }
}
