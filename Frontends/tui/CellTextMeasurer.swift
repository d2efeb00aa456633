import CardEngine

/// Text metrics of the terminal: a grapheme cluster takes its display columns, exactly as the rasteriser draws it
/// (`GlyphMapper.glyph`, `TextLayout.columns(of:)`), a line takes one
/// row, converted to points with the scene's `CellScale`, so the engine wraps text exactly where the cells end.
struct CellTextMeasurer: TextMeasurer, Hashable {
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
}
