import CardCells
import CardEngine
import CardModels
import CardScenes
import CardTUI

/// A minimal terminal emulator for the sequences the ANSI writer emits (CUP, CUF, SGR, ED 2, DECSET/DECRST 2026,
/// UTF-8 text) with autowrap off: decodes the writer's bytes cell by cell so tests can compare the screen they
/// produce with the buffer that was drawn. Anything else is recorded as unexpected.
struct ScreenModel {
    var screen: CellBuffer
    var column = 0
    var row = 0
    var pen = Cell.blank
    var unexpected: [String] = []

    init(width: Int, height: Int) {
        screen = CellBuffer(width: width, height: height)
    }

    mutating func apply(_ bytes: [UInt8]) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B {
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") else {
                    unexpected.append("lone ESC")
                    index += 1
                    continue
                }
                var end = index + 2
                while end < bytes.count && !(0x40...0x7E).contains(bytes[end]) { end += 1 }
                guard end < bytes.count else {
                    unexpected.append("unterminated CSI")
                    return
                }
                let body = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
                control(body, final: bytes[end])
                index = end + 1
                continue
            }
            // One UTF-8 scalar.
            var length = 1
            if byte >= 0xF0 { length = 4 } else if byte >= 0xE0 { length = 3 } else if byte >= 0xC0 { length = 2 }
            let text = String(decoding: bytes[index..<min(bytes.count, index + length)], as: UTF8.self)
            if let scalar = text.unicodeScalars.first {
                // As terminals that draw grapheme clusters do: a scalar that continues the cluster just written
                // (a combining mark, a joiner and the emoji after it, a variation selector) joins its cell.
                if let last = lastCluster, (last.text + text).count == 1 {
                    let joined = Character(last.text + text)
                    column = last.column
                    row = last.row
                    write(Glyph(joined), text: String(joined))
                    index += length
                    continue
                }
                write(Glyph(scalar), text: text)
            }
            index += length
        }
    }

    /// The cell written last and its text, while the next scalar may still join it.
    private var lastCluster: (column: Int, row: Int, text: String)?

    private mutating func write(_ glyph: Glyph, text: String) {
        lastCluster = (column, row, text)
        var cell = pen
        cell.character = glyph
        // As xterm does: writing over half of a wide character blanks its other half; a wide character
        // takes this cell and the next.
        let wide = cell.isWide && column + 1 < screen.width
        for covered in column..<(column + (wide ? 2 : 1)) {
            if screen[covered, row].isWideContinuation && covered > 0 {
                screen[covered - 1, row].character = " "
            }
            if screen[covered, row].isWide && covered + 1 < screen.width {
                screen[covered + 1, row].character = " "
            }
        }
        screen[column, row] = cell
        if wide {
            cell.character = Cell.wideContinuation
            screen[column + 1, row] = cell
        }
        // Autowrap off: the cursor stays on the last column.
        column = min(screen.width - 1, column + (wide ? 2 : 1))
    }

    private mutating func control(_ body: String, final: UInt8) {
        lastCluster = nil
        switch final {
        case UInt8(ascii: "H"):
            let parts = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 1 }
            row = (parts.first ?? 1) - 1
            column = (parts.count > 1 ? parts[1] : 1) - 1
        case UInt8(ascii: "C"):
            column = min(screen.width - 1, column + (Int(body) ?? 1))
        case UInt8(ascii: "J"):
            if body == "2" {
                screen.clear(to: Cell(" ", background: pen.background))
            } else {
                unexpected.append("J" + body)
            }
        case UInt8(ascii: "h"), UInt8(ascii: "l"):
            if body != "?2026" { unexpected.append(body) }
        case UInt8(ascii: "m"):
            sgr(body)
        default:
            unexpected.append(body + String(UnicodeScalar(final)))
        }
    }

    private mutating func sgr(_ body: String) {
        let codes = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        var index = 0
        while index < codes.count {
            let code = codes[index]
            switch code {
            case 0:
                pen = Cell.blank
            case 1: pen.attributes.insert(.bold)
            case 2: pen.attributes.insert(.dim)
            case 4: pen.attributes.insert(.underline)
            case 7: pen.attributes.insert(.reverse)
            case 30...37: pen.foreground = .indexed(UInt8(code - 30))
            case 90...97: pen.foreground = .indexed(UInt8(code - 90 + 8))
            case 40...47: pen.background = .indexed(UInt8(code - 40))
            case 100...107: pen.background = .indexed(UInt8(code - 100 + 8))
            case 39: pen.foreground = .terminalDefault
            case 49: pen.background = .terminalDefault
            case 38, 48:
                var color = CellColor.terminalDefault
                if index + 2 < codes.count, codes[index + 1] == 5 {
                    color = .indexed(UInt8(codes[index + 2]))
                    index += 2
                } else if index + 4 < codes.count, codes[index + 1] == 2 {
                    color = .rgb(UInt8(codes[index + 2]), UInt8(codes[index + 3]), UInt8(codes[index + 4]))
                    index += 4
                } else {
                    unexpected.append("bad colour")
                }
                if code == 38 { pen.foreground = color } else { pen.background = color }
            default:
                unexpected.append("SGR \(code)")
            }
            index += 1
        }
    }
}

extension SplitMix64 {
    /// A value in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
}
