import CardEngine
import Testing

@Suite struct SymbolsTests {
    /// One row per name, sorted (the order `capabilities.icons` lists them in), each glyph drawable apart from the
    /// others: a cell glyph and an ASCII character per symbol, no two alike (in ASCII mode the hero's Sunny, Snow
    /// and Star all showed `S`).
    @Test func theTableIsSortedAndEveryGlyphTellsItsSymbolApart() {
        let names = Symbols.all.map(\.name)
        #expect(names == names.sorted())
        #expect(Set(names).count == names.count)
        let cells = Symbols.all.map(\.cellGlyph)
        #expect(Set(cells).count == cells.count, "two symbols share a cell glyph")
        let ascii = Symbols.all.map(\.asciiGlyph)
        #expect(Set(ascii).count == ascii.count, "two symbols share an ASCII character")
        for symbol in Symbols.all {
            #expect(symbol.asciiGlyph.isASCII && !symbol.asciiGlyph.isWhitespace, "\(symbol.name)")
            #expect(symbol.cellGlyph.unicodeScalars.count == 1, "\(symbol.name): one scalar, text presentation")
            #expect(!symbol.fallback.isEmpty)
            #expect(Symbols.named(symbol.name) == symbol)
        }
        #expect(Symbols.named("no.such.symbol") == nil)
    }
}
