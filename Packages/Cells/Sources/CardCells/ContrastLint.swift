import CardGeometry

/// A lint over a drawn cell buffer: every glyph legible against the cell it sits on.
///
/// WCAG 2.2 asks 4.5:1 for text (success criterion 1.4.3) and 3:1 for the parts of graphics and user-interface
/// components that carry meaning (1.4.11). In a cell buffer a letter, a digit or punctuation is text; any other
/// glyph (an icon, an arrow, a slider's knob) is a graphic. Box drawing and block elements are not checked here:
/// they draw shapes (card edges, bars, sub-cell motion), and a shape's edge against its neighbour is a question of
/// the boxes, not of a glyph on its cell (the focus ring has its own test). A faint cell (SGR 2) counts as its
/// colour halfway to the background, which is about what terminals draw.
///
/// A caller may exempt cells WCAG exempts (an inactive component: what a scrim dims on purpose); the seeds' own
/// colour pairs are not exempt (issue 46): the scenes choose their text colours to pass. Cells in colour only
/// (`rgb`): an indexed or default colour is the terminal's to choose.
///
/// Complexity: O(columns × rows).
package enum ContrastLint {
    /// A glyph drawn with less contrast than it needs.
    package struct Violation: CustomStringConvertible, Sendable {
        package var column: Int
        package var row: Int
        package var glyph: String
        /// The glyph's colour (a faint one at half strength) on its cell's, and the contrast it has and needs.
        package var contrast: ContrastShortfall

        package var foreground: RGBA { contrast.foreground }
        package var background: RGBA { contrast.background }
        package var ratio: Double { contrast.ratio }
        package var minimum: Double { contrast.minimum }

        package var description: String { "'\(glyph)' at \(column),\(row): \(contrast)" }

        static func hex(_ color: RGBA) -> String { ContrastShortfall.hex(color) }
    }

    /// What `scalar` needs: 4.5 for text, 3 for a graphic, nil for a shape or a blank.
    package static func minimum(for scalar: Unicode.Scalar) -> Double? {
        switch scalar.value {
        case 0x20, 0xA0, 0x2800: return nil  // blanks (space, no-break space, the empty braille cell)
        case 0x2500...0x259F: return nil  // box drawing and block elements: shapes
        default: break
        }
        let properties = scalar.properties
        if properties.isAlphabetic || properties.numericType != nil { return 4.5 }
        if scalar.isASCII { return 4.5 }  // ASCII punctuation is text
        return properties.isWhitespace ? nil : 3
    }

    /// The violations in `rows` of `buffer`. `isGraphic(column, row)` marks cells that draw a graphic whatever
    /// their glyph (an icon's fallback letter); `exempt(column, row, foreground, background)` accepts a cell (an
    /// inactive component).
    package static func violations(
        in buffer: CellBuffer, rows: Range<Int>? = nil, isGraphic: (Int, Int) -> Bool = { _, _ in false },
        exempt: (Int, Int, RGBA, RGBA) -> Bool = { _, _, _, _ in false }
    ) -> [Violation] {
        let rows = rows ?? 0..<buffer.height
        var found: [Violation] = []
        for row in rows where row >= 0 && row < buffer.height {
            for column in 0..<buffer.width {
                let cell = buffer[column, row]
                guard !cell.isWideContinuation,
                    let scalar = cell.character.scalar ?? cell.character.string.unicodeScalars.first,
                    var minimum = minimum(for: scalar),
                    let background = rgba(cell.background), var foreground = rgba(cell.foreground)
                else { continue }
                if isGraphic(column, row) { minimum = min(minimum, 3) }
                if cell.attributes.contains(.dim) {
                    foreground = RGBA(
                        red: foreground.red, green: foreground.green, blue: foreground.blue, alpha: 0.5
                    ).over(background)
                }
                let ratio = foreground.contrastRatio(with: background)
                guard ratio < minimum, !exempt(column, row, foreground, background) else { continue }
                found.append(
                    Violation(
                        column: column, row: row, glyph: cell.character.string,
                        contrast: ContrastShortfall(foreground, on: background, needing: minimum)))
            }
        }
        return found
    }

    /// A cell colour as `RGBA`, or nil for a colour the terminal chooses (indexed or default).
    package static func rgba(_ color: CellColor) -> RGBA? {
        guard case .rgb(let red, let green, let blue) = color.kind else { return nil }
        return RGBA(red: Double(red) / 255, green: Double(green) / 255, blue: Double(blue) / 255)
    }
}
