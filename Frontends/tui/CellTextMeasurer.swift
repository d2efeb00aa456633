import CardEngine

/// Text metrics of the terminal: a grapheme cluster takes its display columns (see `GlyphMapper`), a line takes one
/// row, converted to points with the scene's `CellScale`, so the engine wraps text exactly where the cells end.
struct CellTextMeasurer: TextMeasurer, Hashable {
    /// The scale the scene is shown at.
    var scale: CellScale
    /// Whether text is drawn with ASCII only (widths as `--ascii` shows them).
    var ascii: Bool

    func width(of text: Substring, style: TextStyle, weight: TextWeight) -> Double {
        Double(GlyphMapper.columns(of: String(text), ascii: ascii)) * scale.pointsPerColumn
    }

    func lineHeight(of style: TextStyle) -> Double { scale.pointsPerRow }
}
