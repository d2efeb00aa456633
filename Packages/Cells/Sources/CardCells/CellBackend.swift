/// An output of cell buffers that draws diffs: given what changed (`CellDiff`) and the buffer it leads to, it brings
/// what it shows from the previous buffer to that one. It neither diffs nor remembers buffers; `CellScreen` does
/// that and hands it each frame's diff, as ratatui's `Terminal` does its `Backend`. The terminal UI's `ANSIWriter`
/// encodes the diff as escape sequences; `CellTestBackend` keeps a grid and records the diffs, for tests.
package protocol CellBackend {
    /// Draws `diff` — a repaint, or the runs of cells that changed since the last call — reading the cells of its
    /// runs from `next`, the buffer it leads to (of the diff's size).
    mutating func draw(_ diff: CellDiff, of next: CellBuffer)
}

/// What an output shows, and the backend that brings it to each new buffer: diffs each buffer presented against
/// the one before (`CellDiff`) and hands the diff to the backend (ratatui's `Terminal`).
///
/// Half a wide character without its other half is presented as a space (`CellBuffer.repairWideCharacters()`), as a
/// terminal shows it, so that the next diff compares with what shows. O(cells) a frame.
package struct CellScreen<Backend: CellBackend> {
    /// The output.
    package var backend: Backend
    /// The buffer the backend shows, or nil when unknown (start-up, resize, resume): the next diff is a repaint.
    package private(set) var shown: CellBuffer?
    /// The last diff, kept for its storage.
    private var diff = CellDiff()

    package init(backend: Backend) {
        self.backend = backend
    }

    /// Forgets what the output shows, so that the next `present` repaints everything (after a resize or a resume).
    package mutating func invalidate() {
        shown = nil
    }

    /// Hands the backend the diff from the buffer shown to `next` (a repaint when none is known or the size
    /// changed; an empty diff when nothing changed), and remembers `next` as shown. O(cells).
    package mutating func present(_ next: CellBuffer) {
        if next.hasBrokenWideCharacters {
            var repaired = next
            repaired.repairWideCharacters()
            present(repaired)
            return
        }
        diff.compute(from: shown, to: next)
        backend.draw(diff, of: next)
        shown = next
    }
}

extension CellScreen: Sendable where Backend: Sendable {}

/// A headless backend for tests (ratatui's `TestBackend`): applies each diff to a grid of its own and records the
/// diffs it was given, so a test sees both what the output shows and exactly which cells were sent to it.
package struct CellTestBackend: CellBackend, Sendable {
    /// The grid as the diffs drew it.
    package private(set) var buffer = CellBuffer(width: 0, height: 0)
    /// Every diff drawn, oldest first (empty ones included: a frame in which nothing changed).
    package private(set) var diffs: [CellDiff] = []

    package init() {}

    package mutating func draw(_ diff: CellDiff, of next: CellBuffer) {
        diff.apply(to: &buffer, from: next)
        diffs.append(diff)
    }
}
