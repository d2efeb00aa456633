/// A colour as a terminal cell holds it: the terminal's default, a 24-bit RGB value, or an index into the 256-colour
/// palette (indices 0–15 are the 16 basic colours).
///
/// Packed into 32 bits (tag in the top byte) so that cells compare in a few instructions.
public struct CellColor: Sendable, Hashable {
    /// Tag (bits 24–31): 0 RGB, 1 palette index, 2 terminal default; RGB or index in the low bits.
    public var rawValue: UInt32

    /// A colour from its packed form (see `rawValue`).
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The terminal's own default foreground or background.
    public static let terminalDefault = CellColor(rawValue: 0x0200_0000)

    /// A 24-bit colour.
    public static func rgb(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> CellColor {
        CellColor(rawValue: UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue))
    }

    /// An entry of the 256-colour palette (0–15: the basic colours).
    public static func indexed(_ index: UInt8) -> CellColor {
        CellColor(rawValue: 0x0100_0000 | UInt32(index))
    }

    /// What kind of colour this is.
    public enum Kind: Sendable, Hashable {
        /// The terminal's own default colour.
        case terminalDefault
        /// A 24-bit colour.
        case rgb(red: UInt8, green: UInt8, blue: UInt8)
        /// An entry of the 256-colour palette.
        case indexed(UInt8)
    }

    /// The colour unpacked.
    @inlinable public var kind: Kind {
        switch rawValue >> 24 {
        case 0:
            .rgb(
                red: UInt8(truncatingIfNeeded: rawValue >> 16), green: UInt8(truncatingIfNeeded: rawValue >> 8),
                blue: UInt8(truncatingIfNeeded: rawValue))
        case 1: .indexed(UInt8(truncatingIfNeeded: rawValue))
        default: .terminalDefault
        }
    }

    /// Whether the colour is a 24-bit value (the rasteriser's working form).
    public var isRGB: Bool { rawValue >> 24 == 0 }
}

/// Text attributes of a cell.
public struct CellAttributes: OptionSet, Sendable, Hashable {
    public var rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Bold (SGR 1).
    public static let bold = CellAttributes(rawValue: 1 << 0)
    /// Faint (SGR 2).
    public static let dim = CellAttributes(rawValue: 1 << 1)
    /// Underlined (SGR 4).
    public static let underline = CellAttributes(rawValue: 1 << 2)
    /// Reverse video (SGR 7): foreground and background swapped.
    public static let reverse = CellAttributes(rawValue: 1 << 3)
}

/// One character cell of the terminal: a character and its style.
///
/// A wide character (CJK, most emoji: two columns on screen) is held by two cells: the character in the left one,
/// `Cell.wideContinuation` in the right one. The ANSI writer draws the pair as one character; a half without its
/// other half is drawn as a space.
public struct Cell: Sendable, Hashable {
    /// What the cell shows: a whole grapheme cluster (see `Glyph`).
    public var character: Glyph
    /// The colour of the character.
    public var foreground: CellColor
    /// The colour of the cell behind it.
    public var background: CellColor
    /// Bold, faint, underline, reverse video.
    public var attributes: CellAttributes

    /// A cell showing `character` in the given style.
    public init(
        _ character: Glyph = " ", foreground: CellColor = .terminalDefault,
        background: CellColor = .terminalDefault, attributes: CellAttributes = []
    ) {
        self.character = character
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// A cell showing one scalar.
    @_disfavoredOverload
    public init(
        _ scalar: Unicode.Scalar, foreground: CellColor = .terminalDefault,
        background: CellColor = .terminalDefault, attributes: CellAttributes = []
    ) {
        self.init(Glyph(scalar), foreground: foreground, background: background, attributes: attributes)
    }

    /// A blank cell in the terminal's default colours.
    public static let blank = Cell()

    /// The character of the right-hand cell of a wide character (U+0000, which text never reaches a cell as:
    /// control characters are drawn as spaces).
    public static let wideContinuation: Glyph = "\u{0}"

    /// Whether this is the right-hand half of a wide character.
    @inlinable public var isWideContinuation: Bool { character == Cell.wideContinuation }

    /// Whether this cell's character takes two columns (its right-hand half is the next cell).
    @inlinable public var isWide: Bool { character.isWide }

    /// Whether the cell's foreground colour shows nowhere: a space without underline or reverse video.
    @inlinable package var hidesForeground: Bool {
        character == " " && !attributes.contains(.underline) && !attributes.contains(.reverse)
    }

    /// Whether two cells have the same colours and attributes (the SGR state needed to draw them).
    @inlinable package func hasSameStyle(as other: Cell) -> Bool {
        foreground == other.foreground && background == other.background && attributes == other.attributes
    }
}
