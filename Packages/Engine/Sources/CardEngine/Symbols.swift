/// One symbol a scene may draw (an SF Symbols name, what the seeds' `Image(systemName:)` calls it) with the ways a
/// front end without SF Symbols draws it.
public struct SymbolInfo: Sendable, Hashable {
    /// The SF Symbols name (`cloud.rain.fill`): the text of an `icon` node's run, or of a run marked `isSymbol`.
    public var name: String
    /// A portable stand-in for hosts with colour emoji or Unicode fonts (🌧️): what the stdio front end reports in
    /// `capabilities.icons`.
    public var fallback: String
    /// One single-width, text-presentation glyph for a grid of cells (☂), distinct among the symbols one scene
    /// shows together.
    public var cellGlyph: Character
    /// One printable ASCII character (`R`), unique in the table, for terminals limited to ASCII.
    public var asciiGlyph: Character
}

/// The symbols the scenes draw, in one table every front end reads: the stdio server's `capabilities.icons`, the
/// terminal UI's glyphs, and the tests that check each scene names only these. A scene that draws a new symbol adds
/// its row here.
public enum Symbols {
    /// Every symbol, sorted by name.
    public static let all: [SymbolInfo] = [
        SymbolInfo(name: "applelogo", fallback: "🍎", cellGlyph: "◉", asciiGlyph: "A"),
        SymbolInfo(name: "bag.fill", fallback: "🛍️", cellGlyph: "◘", asciiGlyph: "B"),
        SymbolInfo(name: "bolt.fill", fallback: "⚡", cellGlyph: "ϟ", asciiGlyph: "Z"),
        SymbolInfo(name: "book.fill", fallback: "📕", cellGlyph: "▤", asciiGlyph: "K"),
        SymbolInfo(name: "cart.fill", fallback: "🛒", cellGlyph: "▣", asciiGlyph: "T"),
        SymbolInfo(name: "cloud.fill", fallback: "☁️", cellGlyph: "☁", asciiGlyph: "C"),
        SymbolInfo(name: "cloud.rain.fill", fallback: "🌧️", cellGlyph: "☂", asciiGlyph: "R"),
        SymbolInfo(name: "cross.case.fill", fallback: "🩹", cellGlyph: "✚", asciiGlyph: "P"),
        SymbolInfo(name: "cup.and.saucer.fill", fallback: "☕", cellGlyph: "▿", asciiGlyph: "U"),
        SymbolInfo(name: "drop.fill", fallback: "💧", cellGlyph: "◆", asciiGlyph: "D"),
        SymbolInfo(name: "figure.run", fallback: "🏃", cellGlyph: "☺", asciiGlyph: "J"),
        SymbolInfo(name: "film.fill", fallback: "🎞️", cellGlyph: "▦", asciiGlyph: "V"),
        SymbolInfo(name: "flame.fill", fallback: "🔥", cellGlyph: "♨", asciiGlyph: "F"),
        SymbolInfo(name: "fork.knife", fallback: "🍴", cellGlyph: "ψ", asciiGlyph: "E"),
        SymbolInfo(name: "fuelpump.fill", fallback: "⛽", cellGlyph: "▮", asciiGlyph: "G"),
        SymbolInfo(name: "heart.fill", fallback: "❤️", cellGlyph: "♥", asciiGlyph: "H"),
        SymbolInfo(name: "leaf.fill", fallback: "🍃", cellGlyph: "❦", asciiGlyph: "L"),
        SymbolInfo(name: "moon.fill", fallback: "🌙", cellGlyph: "☾", asciiGlyph: "N"),
        SymbolInfo(name: "music.note", fallback: "🎵", cellGlyph: "♪", asciiGlyph: "M"),
        SymbolInfo(name: "plus.circle.fill", fallback: "⊕", cellGlyph: "⊕", asciiGlyph: "+"),
        SymbolInfo(name: "snowflake", fallback: "❄️", cellGlyph: "❄", asciiGlyph: "W"),
        SymbolInfo(name: "star.fill", fallback: "⭐", cellGlyph: "★", asciiGlyph: "*"),
        SymbolInfo(name: "sun.max.fill", fallback: "☀️", cellGlyph: "☀", asciiGlyph: "S"),
        SymbolInfo(name: "tram.fill", fallback: "🚋", cellGlyph: "▥", asciiGlyph: "="),
        SymbolInfo(name: "xmark.circle", fallback: "ⓧ", cellGlyph: "✕", asciiGlyph: "x"),
    ]

    private static let index: [String: SymbolInfo] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The symbol called `name`, or nil when no scene draws one by that name. O(1).
    public static func named(_ name: String) -> SymbolInfo? { index[name] }
}
