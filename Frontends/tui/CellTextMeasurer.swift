import CardEngine

/// Text metrics of the terminal: a grapheme cluster takes its display columns (see `GlyphMapper`), a line takes one
/// row, converted to points with the scene's `CellScale`, so the engine wraps text exactly where the cells end.
struct CellTextMeasurer: RecordableTextMeasurer, Hashable {
    /// The scale the scene is shown at.
    var scale: CellScale
    /// Whether text is drawn with ASCII only (widths as `--ascii` shows them).
    var ascii: Bool

    func width(of text: Substring, style: TextStyle, weight: TextWeight) -> Double {
        Double(GlyphMapper.columns(of: String(text), ascii: ascii)) * scale.pointsPerColumn
    }

    func lineHeight(of style: TextStyle) -> Double { scale.pointsPerRow }

    /// `cells <points per column> <points per row> ascii|unicode`, read back by `measurer(recordedAs:)`.
    var recordingName: String {
        "cells \(scale.pointsPerColumn) \(scale.pointsPerRow) \(ascii ? "ascii" : "unicode")"
    }

    /// The measurer a recording named, or nil for a name that is not a terminal's.
    static func measurer(recordedAs name: String) -> (any TextMeasurer)? {
        let parts = name.split(separator: " ")
        guard parts.count == 4, parts[0] == "cells", let column = Double(parts[1]), let row = Double(parts[2]) else {
            return nil
        }
        return CellTextMeasurer(
            scale: CellScale(pointsPerColumn: column, pointsPerRow: row), ascii: parts[3] == "ascii")
    }
}

/// What `cardistry replay` needs of the terminal UI to replay its recordings.
package enum TUIRecording {
    /// The terminal's text measurer a recording named (`cells …`), or nil.
    package static func measurer(recordedAs name: String) -> (any TextMeasurer)? {
        CellTextMeasurer.measurer(recordedAs: name)
    }
}
