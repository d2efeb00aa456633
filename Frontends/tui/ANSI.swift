/// The escape sequences the TUI sends (ECMA-48 and the xterm control sequences, "ctlseqs").
enum ANSI {
    static let resetStyle: [UInt8] = Array("\u{1B}[0m".utf8)
    static let clearScreen: [UInt8] = Array("\u{1B}[2J".utf8)
    /// DECSET / DECRST 2026: synchronized output (the terminal holds the frame until the end marker).
    static let beginSynchronized: [UInt8] = Array("\u{1B}[?2026h".utf8)
    static let endSynchronized: [UInt8] = Array("\u{1B}[?2026l".utf8)
    static let bell: [UInt8] = [0x07]

    /// Entering the TUI: alternate screen (1049), cursor hidden (25), autowrap off (7), button-event mouse
    /// tracking (1002) with SGR coordinates (1006), bracketed paste (2004).
    static let enter: [UInt8] = Array(
        "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[?1002h\u{1B}[?1006h\u{1B}[?2004h\u{1B}[0m\u{1B}[2J".utf8)

    /// DECTCEM set: the cursor shown (`--show-cursor`, for braille displays and screen readers that follow it),
    /// sent after `enter`.
    static let showCursor: [UInt8] = Array("\u{1B}[?25h".utf8)

    /// Leaving the TUI: every mode the TUI may have set turned off, the style reset, autowrap and the cursor
    /// back, then the main screen. Sent by the one restore path whatever the reason for leaving.
    static let restore: [UInt8] = Array(
        ("\u{1B}[?2026l\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1003l\u{1B}[?1000l\u{1B}[0m"
            + "\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l").utf8)

    /// DECRQM for private mode 2026 (is synchronized output supported?) followed by DA1 as a sentinel: every
    /// terminal answers DA1, so the reply to it ends the wait even when DECRQM is not understood.
    static let capabilityQuery: [UInt8] = Array("\u{1B}[?2026$p\u{1B}[c".utf8)

    /// CUP: moves the cursor to a 0-based (column, row).
    static func moveCursor(column: Int, row: Int, into output: inout [UInt8]) {
        output.append(0x1B)
        output.append(UInt8(ascii: "["))
        appendDecimal(row + 1, into: &output)
        output.append(UInt8(ascii: ";"))
        appendDecimal(column + 1, into: &output)
        output.append(UInt8(ascii: "H"))
    }

    /// CUF: moves the cursor `count` columns right.
    static func cursorForward(_ count: Int, into output: inout [UInt8]) {
        output.append(0x1B)
        output.append(UInt8(ascii: "["))
        if count != 1 { appendDecimal(count, into: &output) }
        output.append(UInt8(ascii: "C"))
    }

    /// Appends the decimal digits of a non-negative `value`.
    static func appendDecimal(_ value: Int, into output: inout [UInt8]) {
        if value < 10 {
            output.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: max(0, value)))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 && count < 8 {
                buffer[count] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { output.append(buffer[index]) }
        }
    }
}
