import CardEngine

/// Text metrics of the terminal: a grapheme cluster takes its display columns, exactly as the rasteriser draws it
/// (`GlyphMapper.glyph`, `TextLayout.columns(of:)`), a line takes one
/// row, converted to points with the scene's `CellScale`, so the engine wraps text exactly where the cells end.
package struct CellTextMeasurer: RecordableTextMeasurer, Hashable {
    /// The scale the scene is shown at.
    package var scale: CellScale
    /// Whether decoration is drawn with ASCII only (`--ascii`: typographic characters as look-alikes).
    package var ascii: Bool
    /// What the terminal can show (transliterated text is one column a cluster).
    package var encoding: TextEncoding = .unicode

    package init(scale: CellScale, ascii: Bool, encoding: TextEncoding = .unicode) {
        self.scale = scale
        self.ascii = ascii
        self.encoding = encoding
    }

    package func width(of text: Substring, style: TextStyle, weight: TextWeight) -> Double {
        Double(GlyphMapper.columns(of: text, decoration: ascii, encoding: encoding)) * scale.pointsPerColumn
    }

    package func lineHeight(of style: TextStyle) -> Double { scale.pointsPerRow }

    /// A cell is the terminal's pixel: scenes lay out in whole cells, so equal things take equal cells.
    package var layoutGrid: LayoutGrid {
        LayoutGrid(columnWidth: scale.pointsPerColumn, rowHeight: scale.pointsPerRow)
    }

    /// `cells <points per column> <points per row> ascii|unicode`, plus ` transliterated` on a terminal that shows
    /// ASCII only (`encoding`), read back by `measurer(recordedAs:)`.
    package var recordingName: String {
        "cells \(scale.pointsPerColumn) \(scale.pointsPerRow) \(ascii ? "ascii" : "unicode")"
            + (encoding == .ascii ? " transliterated" : "")
    }

    /// The measurer a recording named, or nil for a name that is not a terminal's.
    package static func measurer(recordedAs name: String) -> (any TextMeasurer)? {
        let parts = name.split(separator: " ")
        guard parts.count == 4 || (parts.count == 5 && parts[4] == "transliterated"), parts[0] == "cells",
            let column = Double(parts[1]), let row = Double(parts[2])
        else { return nil }
        return CellTextMeasurer(
            scale: CellScale(pointsPerColumn: column, pointsPerRow: row), ascii: parts[3] == "ascii",
            encoding: parts.count == 5 ? .ascii : .unicode)
    }
}
