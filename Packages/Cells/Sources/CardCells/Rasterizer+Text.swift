import CardEngine
import CardGeometry
import Foundation

/// Text: a node's runs set on its rows, clipped, cut with an ellipsis, rolling digits rolling inside their cells.
extension PaintContext {
    /// A character (a whole grapheme cluster) of laid-out text: the columns it takes (1, or 2 for a wide
    /// character), and whether it is mid-roll (drawn dim).
    struct StyledCharacter {
        var glyph: Glyph
        var columns = 1
        var dim: Bool
    }

    /// The columns `characters` take.
    static func columns(of characters: [StyledCharacter]) -> Int {
        characters.reduce(0) { $0 + $1.columns }
    }

    /// The characters a text run shows now, grapheme cluster by grapheme cluster (`GlyphMapper.glyph`: whole
    /// clusters at their display width, zero-width ones dropped). Rolling digits (right-aligned against the old
    /// text) roll as motion inside their cell, in the direction of the change (SwiftUI's `.numericText()`: a
    /// growing number's digits roll up): the old digit, then the old digit leaving (a superscript when it leaves
    /// upwards, a subscript downwards), the new digit entering from the other side, then the new digit — the
    /// quarters of the digit's progress. A character without such forms, and ASCII-only output, swaps at ½, dim
    /// while mid-roll.
    func characters(of text: FrameText) -> [StyledCharacter] {
        let new = Array(text.run.text)
        guard let old = text.rollingFrom.map({ Array($0) }), !text.digitProgress.isEmpty else {
            return new.compactMap { cluster in
                GlyphMapper.glyph(cluster, decoration: ascii, encoding: encoding).map {
                    StyledCharacter(glyph: $0.glyph, columns: $0.columns, dim: false)
                }
            }
        }
        let length = max(new.count, old.count)
        let up = Self.rollsUp(from: String(old), to: String(new))
        var result: [StyledCharacter] = []
        result.reserveCapacity(length)
        for position in 0..<length {
            let newIndex = position - (length - new.count)
            let oldIndex = position - (length - old.count)
            let progress: Double
            if newIndex >= 0, newIndex < text.digitProgress.count {
                progress = text.digitProgress[newIndex]
            } else {
                progress = text.digitProgress.min() ?? 1
            }
            let newCharacter: Character = newIndex >= 0 ? new[newIndex] : " "
            let oldCharacter: Character = oldIndex >= 0 ? old[oldIndex] : " "
            var shown: Character = progress >= 0.5 ? newCharacter : oldCharacter
            var dim = progress > 0.1 && progress < 0.9
            if !ascii, newCharacter != oldCharacter, progress > 0.25, progress < 0.75,
                let moving = Self.rolling(progress >= 0.5 ? newCharacter : oldCharacter, upper: (progress < 0.5) == up)
            {
                // Leaving upwards sits high in the cell (superscript); entering from below sits low (subscript).
                shown = moving
                dim = false
            } else if !ascii, progress <= 0.25 || progress >= 0.75 {
                dim = false
            }
            guard let glyph = GlyphMapper.glyph(shown, decoration: ascii, encoding: encoding) else { continue }
            result.append(StyledCharacter(glyph: glyph.glyph, columns: glyph.columns, dim: dim))
        }
        while result.first?.glyph == " " && result.count > new.count { result.removeFirst() }
        return result
    }

    /// Whether a roll from `old` to `new` goes up (a growing number: digits leave upwards and enter from below),
    /// comparing the numbers the texts hold (their digits, sign and point), else the texts themselves.
    static func rollsUp(from old: String, to new: String) -> Bool {
        func number(_ text: String) -> Double? {
            Double(String(text.filter { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }))
        }
        if let from = number(old), let to = number(new) { return to >= from }
        return new >= old
    }

    /// The superscript (`upper`) or subscript form of a digit, a space as itself; nil for any other character
    /// (Unicode's superscripts ⁰¹²³⁴⁵⁶⁷⁸⁹, U+2070 block and Latin-1, and subscripts ₀…₉, U+2080–2089).
    static func rolling(_ character: Character, upper: Bool) -> Character? {
        if character == " " { return " " }
        guard let digit = character.wholeNumberValue, character.isASCII else { return nil }
        let superscripts: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
        let subscripts: [Character] = ["₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"]
        return upper ? superscripts[digit] : subscripts[digit]
    }

    /// Two runs as one: the second's text appended to the first's, its rolling digits kept aligned right.
    static func joined(_ first: FrameText, _ second: FrameText) -> FrameText {
        var run = second.run
        run.text = first.run.text + second.run.text
        run.weight = first.run.weight == .regular ? second.run.weight : first.run.weight
        guard let from = second.rollingFrom else { return FrameText(run: run) }
        let prefixCount = first.run.text.count
        return FrameText(
            run: run, rollingFrom: first.run.text + from,
            digitProgress: Array(repeating: 1, count: prefixCount) + second.digitProgress)
    }

    /// The cells a node's text may take: columns `left..<right`, `rows` rows from `top` (inside the border and two
    /// columns of padding when the node is outlined and has room for them).
    struct TextArea {
        var left: Int
        var right: Int
        var top: Int
        var rows: Int

        init(extent: Extent, outlined: Bool) {
            let height = extent.bottom - extent.top
            let width = extent.right - extent.left
            var inset = outlined && height >= 3 ? 1 : 0
            left = extent.left + (outlined ? min(2, max(0, (width - 1) / 2)) : 0)
            right = extent.right - (outlined ? min(2, max(0, (width - 1) / 2)) : 0)
            if right <= left {
                left = extent.left
                right = extent.right
            }
            if height - 2 * inset <= 0 { inset = 0 }
            top = extent.top + inset
            rows = height - 2 * inset
        }
    }

    /// Paints a node's text runs in its extent: the runs set on lines (`lines(of:rows:)`), the lines centred
    /// vertically (or from the top), each line's runs placed by alignment and cut to the room they have
    /// (`paintLine`). O(characters + runs²) per node.
    func paintText(
        _ texts: [FrameText], opacity: Double, atTop: Bool, outlined: Bool, extent: Extent,
        into buffer: inout CellBuffer
    ) {
        let area = TextArea(extent: extent, outlined: outlined)
        let lines = Self.lines(of: texts, rows: area.rows)
        let firstRow = atTop ? area.top : area.top + (area.rows - lines.count) / 2
        for (lineIndex, line) in lines.enumerated() {
            let row = firstRow + lineIndex
            guard row >= 0, row < rowLimit, row >= clip.top, row < clip.bottom else { continue }
            paintLine(
                line, row: row, area: area, shift: extent.shift(row, scale: scale), opacity: opacity, into: &buffer)
        }
    }

    /// The runs of a node set on lines: a run of several lines as the engine laid it out is a run per line; a run
    /// ending in whitespace continues on the same line (SwiftUI's `Text + Text`: "Test " + "3"); other runs take a
    /// line each while they fit in `rows`, else share lines by alignment (leading | center | trailing).
    static func lines(of texts: [FrameText], rows: Int) -> [[FrameText]] {
        var texts = texts
        if texts.contains(where: { $0.lines.count > 1 }) {
            texts = texts.flatMap { text -> [FrameText] in
                guard text.lines.count > 1 else { return [text] }
                return text.lines.map { line in
                    var run = text.run
                    run.text = line
                    return FrameText(run: run, lines: [line])
                }
            }
        }
        var groups: [FrameText] = []
        for text in texts {
            if let last = groups.last, last.run.text.last?.isWhitespace == true, last.rollingFrom == nil,
                text.run.alignment == last.run.alignment
            {
                groups[groups.count - 1] = joined(last, text)
            } else {
                groups.append(text)
            }
        }
        if groups.count <= rows { return groups.map { [$0] } }
        var lines: [[FrameText]] = Array(repeating: [], count: max(rows, 1))
        for (index, text) in groups.enumerated() { lines[index * lines.count / groups.count].append(text) }
        return lines
    }

    /// Paints one line's runs on `row`: runs sharing an alignment set one after the other, two spaces apart; leading
    /// text first, centred and trailing text only in the room it leaves (one space apart); each cut with an ellipsis
    /// when it does not fit.
    private func paintLine(
        _ line: [FrameText], row: Int, area: TextArea, shift: Int, opacity: Double, into buffer: inout CellBuffer
    ) {
        var merged: [FrameText] = []
        for text in line {
            if let index = merged.firstIndex(where: { $0.run.alignment == text.run.alignment }) {
                var first = merged[index]
                first.run.text += "  "
                merged[index] = Self.joined(first, text)
            } else {
                merged.append(text)
            }
        }
        let order: [TextAlignment: Int] = [.leading: 0, .center: 1, .trailing: 2]
        merged.sort { (order[$0.run.alignment] ?? 0) < (order[$1.run.alignment] ?? 0) }
        let (left, right) = (area.left, area.right)
        var taken = left
        for text in merged {
            let from = text.run.alignment == .leading ? left : (taken > left ? taken + 1 : left)
            let available = right - from
            guard available > 0 else { continue }
            let characters = fitted(characters(of: text), in: available)
            let width = Self.columns(of: characters)
            let start: Int
            switch text.run.alignment {
            case .leading: start = left
            case .center: start = max(from, left + (right - left - width) / 2)
            case .trailing: start = right - width
            }
            taken = max(taken, start + width)
            // The cells the text may use on this row: inside the node's text area and the buffer.
            let clipLeft = max(left + shift, 0, clip.left)
            let columns = clipLeft..<max(clipLeft, min(right + shift, buffer.width, clip.right))
            paint(
                characters, of: text.run, opacity: opacity, at: start + shift, row: row, within: columns, into: &buffer)
        }
    }

    /// `color` as drawn over `under`, or, for a flying label (`textAlternatives`) where it reads under 1.5:1 there,
    /// the alternative that reads best, at `alpha`. O(alternatives).
    private func legible(_ color: RGB8, over under: RGB8, alpha: Double) -> RGB8 {
        guard !textAlternatives.isEmpty else { return color }
        let background = RGBA(red: under.red / 255, green: under.green / 255, blue: under.blue / 255)
        func ratio(_ color: RGB8) -> Double {
            RGBA(red: color.red / 255, green: color.green / 255, blue: color.blue / 255).contrastRatio(with: background)
        }
        guard ratio(color) < 1.5 else { return color }
        let drawn = textAlternatives.map { RGB8($0).over(under, alpha: alpha) }
        return drawn.max { ratio($0) < ratio($1) } ?? color
    }

    /// `characters` cut to `available` columns: as many as leave a column for an ellipsis, and the ellipsis, when
    /// they take more.
    private func fitted(_ characters: [StyledCharacter], in available: Int) -> [StyledCharacter] {
        guard Self.columns(of: characters) > available else { return characters }
        var kept = 0
        var width = 0
        while kept < characters.count && width + characters[kept].columns <= available - 1 {
            width += characters[kept].columns
            kept += 1
        }
        return characters[..<kept] + [StyledCharacter(glyph: ascii ? "." : "…", dim: false)]
    }

    /// Paints `characters` of `run` from `column` on `row`, in the cells of `columns` only: the run's colour blended
    /// over each cell's background at the run's alpha times `opacity`, bold for a bold weight or a title style, dim
    /// mid-roll; half a wide character that fits as a space.
    private func paint(
        _ characters: [StyledCharacter], of run: TextRun, opacity: Double, at column: Int, row: Int,
        within columns: Range<Int>, into buffer: inout CellBuffer
    ) {
        let bold = run.weight != .regular || [.largeTitle, .title, .headline].contains(run.style)
        let color = RGB8(run.color)
        let alpha = (run.color.alpha.isFinite ? min(max(run.color.alpha, 0), 1) : 0) * opacity
        var column = column
        for character in characters {
            defer { column += character.columns }
            let wideFits =
                character.columns == 2 && column >= columns.lowerBound && column + 1 < columns.upperBound
            for part in 0..<character.columns {
                let cellColumn = column + part
                guard columns.contains(cellColumn) else { continue }
                let index = row * buffer.width + cellColumn
                let under = RGB8(buffer.cells[index].background, fallback: page)
                if character.columns == 1 {
                    buffer.cells[index].character = character.glyph
                } else if wideFits {
                    buffer.cells[index].character = part == 0 ? character.glyph : Cell.wideContinuation
                } else {
                    buffer.cells[index].character = " "  // half a wide character fits: a space
                }
                buffer.cells[index].foreground =
                    legible(color.over(under, alpha: alpha), over: under, alpha: alpha)
                    .cellColor
                var attributes: CellAttributes = bold ? [.bold] : []
                if character.dim { attributes.insert(.dim) }
                buffer.cells[index].attributes = attributes
            }
        }
    }
}
