import CardEngine

/// Text metrics of the terminal: a grapheme cluster takes its display columns, exactly as the rasteriser draws it
/// (`GlyphMapper.glyph`, `TextLayout.columns(of:)`), a line takes one
/// row, converted to points with the scene's `CellScale`, so the engine wraps text exactly where the cells end.
struct CellTextMeasurer: RecordableTextMeasurer, Hashable {
    /// The scale the scene is shown at.
    var scale: CellScale
    /// Whether decoration is drawn with ASCII only (`--ascii`: typographic characters as look-alikes).
    var ascii: Bool
    /// What the terminal can show (transliterated text is one column a cluster).
    var encoding: TextEncoding = .unicode

    func width(of text: Substring, style: TextStyle, weight: TextWeight) -> Double {
        Double(GlyphMapper.columns(of: text, decoration: ascii, encoding: encoding)) * scale.pointsPerColumn
    }

    func lineHeight(of style: TextStyle) -> Double { scale.pointsPerRow }

    /// A cell is the terminal's pixel: scenes lay out in whole cells, so equal things take equal cells.
    var layoutGrid: LayoutGrid {
        LayoutGrid(columnWidth: scale.pointsPerColumn, rowHeight: scale.pointsPerRow)
    }

    /// `cells <points per column> <points per row> ascii|unicode`, plus ` transliterated` on a terminal that shows
    /// ASCII only (`encoding`), read back by `measurer(recordedAs:)`.
    var recordingName: String {
        "cells \(scale.pointsPerColumn) \(scale.pointsPerRow) \(ascii ? "ascii" : "unicode")"
            + (encoding == .ascii ? " transliterated" : "")
    }

    /// The measurer a recording named, or nil for a name that is not a terminal's.
    static func measurer(recordedAs name: String) -> (any TextMeasurer)? {
        let parts = name.split(separator: " ")
        guard parts.count == 4 || (parts.count == 5 && parts[4] == "transliterated"), parts[0] == "cells",
            let column = Double(parts[1]), let row = Double(parts[2])
        else { return nil }
        return CellTextMeasurer(
            scale: CellScale(pointsPerColumn: column, pointsPerRow: row), ascii: parts[3] == "ascii",
            encoding: parts.count == 5 ? .ascii : .unicode)
    }
}

/// What `cardistry replay` needs of the terminal UI to replay its recordings.
package enum TUIRecording {
    /// The terminal's text measurer a recording named (`cells …`), or nil.
    package static func measurer(recordedAs name: String) -> (any TextMeasurer)? {
        CellTextMeasurer.measurer(recordedAs: name)
    }
}
