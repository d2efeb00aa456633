/// A strict, allocation-free JSON tokenizer over a byte buffer (RFC 8259).
///
/// It rejects everything a conforming parser must reject: a byte order mark, comments, single quotes, trailing
/// commas, leading zeros, `+1`, `.5`, `1.`, `NaN`/`Infinity`, unescaped control characters, invalid escapes, lone
/// or reversed UTF-16 surrogates in `\u` escapes, ill-formed UTF-8 (overlong forms, encoded surrogates, code points
/// above U+10FFFF, truncated sequences; Unicode 15, Table 3-7) and anything after the top-level value. Every error
/// carries the byte offset. Nesting deeper than `maxDepth` is an error, never a stack overflow: skipping is
/// iterative. All scanning is O(n) in the bytes read.
///
/// The buffer must outlive the scanner (callers scan inside `withUnsafeBytes`).
package struct JSONScanner {
    /// The default nesting limit for arrays and objects.
    package static let defaultMaxDepth = 512

    package let base: UnsafePointer<UInt8>
    package let end: Int
    package var position: Int
    package let maxDepth: Int

    /// A string token, validated: its raw bytes lie between the quotes at `start..<end`.
    package struct RawString {
        package var start: Int
        package var end: Int
        /// Whether the raw bytes contain a backslash escape (then they must be decoded).
        package var hasEscapes: Bool
    }

    /// A number token, validated against the grammar; its text is at `start..<end`.
    package struct RawNumber {
        package var start: Int
        package var end: Int
        /// Whether the number has neither a fraction nor an exponent.
        package var isPlainInteger: Bool
    }

    package init(_ buffer: UnsafeRawBufferPointer, maxDepth: Int = JSONScanner.defaultMaxDepth) {
        // An empty buffer has no base address; point at a static byte so reads stay in bounds (end is 0).
        self.base = buffer.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) } ?? JSONScanner.emptyBase
        self.end = buffer.count
        self.position = 0
        self.maxDepth = maxDepth
    }

    nonisolated(unsafe) private static let emptyBase: UnsafePointer<UInt8> = {
        let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        pointer.initialize(to: 0)
        return UnsafePointer(pointer)
    }()

    package func error(_ reason: String, at offset: Int? = nil) -> JSONDecodeError {
        JSONDecodeError(offset: offset ?? position, reason: reason)
    }

    // MARK: Structure

    /// Skips JSON whitespace (space, tab, line feed, carriage return).
    @inline(__always)
    package mutating func skipWhitespace() {
        while position < end {
            let byte = base[position]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            position += 1
        }
    }

    /// The next non-whitespace byte without consuming it; an error at the end of the input.
    @inline(__always)
    package mutating func peek(_ context: @autoclosure () -> String) throws(JSONDecodeError) -> UInt8 {
        skipWhitespace()
        guard position < end else { throw error("unexpected end of input: expected \(context())") }
        return base[position]
    }

    /// Consumes `byte` (after whitespace) or throws naming what was expected.
    @inline(__always)
    package mutating func expect(_ byte: UInt8, _ what: @autoclosure () -> String) throws(JSONDecodeError) {
        let next = try peek(what())
        guard next == byte else { throw error("expected \(what()), found \(JSONScanner.describe(next))") }
        position += 1
    }

    /// After the last value: only whitespace may follow.
    package mutating func expectEnd() throws(JSONDecodeError) {
        skipWhitespace()
        guard position == end else {
            throw error("unexpected \(JSONScanner.describe(base[position])) after the end of the document")
        }
    }

    /// Before the first value: rejects an empty document and a byte order mark with a clear message.
    package mutating func expectStart() throws(JSONDecodeError) {
        if end == 0 { throw error("the file is empty") }
        if end >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF {
            throw error("a byte order mark is not allowed in JSON (RFC 8259 §8.1)")
        }
        skipWhitespace()
        if position == end { throw error("the file holds only whitespace") }
    }

    /// Reads the separator after an object member or array element: true for `,`, false for `close`.
    @inline(__always)
    package mutating func nextElement(close: UInt8, _ container: String) throws(JSONDecodeError) -> Bool {
        let byte = try peek("',' or '\(Character(Unicode.Scalar(close)))' in \(container)")
        position += 1
        if byte == UInt8(ascii: ",") { return true }
        if byte == close { return false }
        position -= 1
        throw error(
            "expected ',' or '\(Character(Unicode.Scalar(close)))' in \(container), found \(JSONScanner.describe(byte))"
        )
    }

    /// Reads `"key"` and the `:` after it.
    @inline(__always)
    package mutating func readKey() throws(JSONDecodeError) -> RawString {
        let byte = try peek("a key string")
        guard byte == UInt8(ascii: "\"") else {
            throw error("expected a key string, found \(JSONScanner.describe(byte))")
        }
        let key = try readRawString()
        try expect(UInt8(ascii: ":"), "':' after a key")
        return key
    }

    /// Opens an object: consumes `{` and reports whether it is empty (then `}` is consumed too).
    @inline(__always)
    package mutating func openObject(_ what: @autoclosure () -> String) throws(JSONDecodeError) -> Bool {
        let byte = try peek(what())
        guard byte == UInt8(ascii: "{") else {
            throw error("expected \(what()) (an object), found \(JSONScanner.describe(byte))")
        }
        position += 1
        if try peek("a key or '}'") == UInt8(ascii: "}") {
            position += 1
            return true
        }
        return false
    }

    /// Opens an array: consumes `[` and reports whether it is empty (then `]` is consumed too).
    @inline(__always)
    package mutating func openArray(_ what: @autoclosure () -> String) throws(JSONDecodeError) -> Bool {
        let byte = try peek(what())
        guard byte == UInt8(ascii: "[") else {
            throw error("expected \(what()) (an array), found \(JSONScanner.describe(byte))")
        }
        position += 1
        if try peek("a value or ']'") == UInt8(ascii: "]") {
            position += 1
            return true
        }
        return false
    }

    // MARK: Strings

    /// Scans a string starting at its opening quote, validating escapes and UTF-8. O(length).
    package mutating func readRawString() throws(JSONDecodeError) -> RawString {
        let open = position
        position += 1
        let start = position
        var hasEscapes = false
        while true {
            position = Self.skipPlainWords(base, from: position, end: end)
            guard position < end else { throw error("unterminated string (opened at byte \(open))", at: end) }
            let byte = base[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                try scanEscape()
            } else if byte < 0x20 {
                throw error("unescaped control character U+\(JSONScanner.hex(UInt32(byte), digits: 4)) in a string")
            } else if byte < 0x80 {
                position += 1
            } else {
                try scanUTF8Sequence()
            }
        }
        let raw = RawString(start: start, end: position, hasEscapes: hasEscapes)
        position += 1
        return raw
    }

    /// The first position from `position` whose 8-byte word (read as a whole) holds a byte that is not plain
    /// printable ASCII inside a string — a quote, a backslash, a control character or a byte of 0x80 or more — or
    /// the last whole word's end: the bytes before it need no check one by one. Eight bytes a step with the
    /// "has a zero byte" bit trick (`(w − 0x01…) & ~w & 0x80…`), so that a saved state's megabytes of base64 are not
    /// checked byte by byte (`readRawString` was 23% of a reopening in issue 48's profile). O(length / 8).
    @inline(__always)
    static func skipPlainWords(_ base: UnsafePointer<UInt8>, from position: Int, end: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var position = position
        while position + 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let special =
                ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
                | word
            if special & highs != 0 { break }
            position += 8
        }
        return position
    }

    private mutating func scanEscape() throws(JSONDecodeError) {
        let escape = position
        guard position + 1 < end else { throw error("unterminated escape sequence", at: escape) }
        switch base[position + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 2
        case UInt8(ascii: "u"):
            let unit = try hex4(at: position + 2, escape: escape)
            position += 6
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard position + 1 < end, base[position] == UInt8(ascii: "\\"), base[position + 1] == UInt8(ascii: "u")
                else {
                    throw error(
                        "a high surrogate \\u\(JSONScanner.hex(unit, digits: 4)) must be followed by a low surrogate",
                        at: escape)
                }
                let low = try hex4(at: position + 2, escape: position)
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw error(
                        "a high surrogate \\u\(JSONScanner.hex(unit, digits: 4)) must be followed by a low surrogate",
                        at: escape)
                }
                position += 6
            } else if unit >= 0xDC00 && unit <= 0xDFFF {
                throw error("a lone low surrogate \\u\(JSONScanner.hex(unit, digits: 4))", at: escape)
            }
        default:
            throw error("invalid escape sequence '\\\(JSONScanner.printable(base[position + 1]))'", at: escape)
        }
    }

    private func hex4(at offset: Int, escape: Int) throws(JSONDecodeError) -> UInt32 {
        guard offset + 4 <= end else { throw error("truncated \\u escape", at: escape) }
        var value: UInt32 = 0
        for index in offset..<(offset + 4) {
            let byte = base[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("a \\u escape needs four hex digits", at: escape)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Validates one multi-byte UTF-8 sequence at `position` (Unicode Table 3-7, well-formed sequences).
    @inline(__always)
    private mutating func scanUTF8Sequence() throws(JSONDecodeError) {
        let lead = base[position]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default:
            throw error("invalid UTF-8: byte 0x\(JSONScanner.hex(UInt32(lead), digits: 2)) cannot start a character")
        }
        guard position + length <= end else { throw error("invalid UTF-8: truncated sequence") }
        let second = base[position + 1]
        guard second >= low && second <= high else {
            throw error(
                "invalid UTF-8: unexpected byte 0x\(JSONScanner.hex(UInt32(second), digits: 2))", at: position + 1)
        }
        var index = 2
        while index < length {
            let byte = base[position + index]
            guard byte & 0xC0 == 0x80 else {
                throw error(
                    "invalid UTF-8: unexpected byte 0x\(JSONScanner.hex(UInt32(byte), digits: 2))", at: position + index
                )
            }
            index += 1
        }
        position += length
    }

    /// The string a raw token denotes. O(length).
    package func string(_ raw: RawString) -> String {
        let bytes = UnsafeBufferPointer(start: base + raw.start, count: raw.end - raw.start)
        guard raw.hasEscapes else { return String(decoding: bytes, as: UTF8.self) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\") else {
                decoded.append(byte)
                index += 1
                continue
            }
            let kind = bytes[index + 1]
            index += 2
            switch kind {
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                var unit = JSONScanner.hexValue(bytes, index)
                index += 4
                if unit >= 0xD800 && unit <= 0xDBFF {
                    let lowUnit = JSONScanner.hexValue(bytes, index + 2)
                    index += 6
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (lowUnit - 0xDC00)
                }
                // The scan rejected lone surrogates, so every value here is a scalar value.
                JSONScanner.appendUTF8(unit, to: &decoded)
            default: decoded.append(kind)  // '"', '\\', '/'
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// Whether a raw string token equals `literal` (an ASCII key). O(length).
    @inline(__always)
    package func equals(_ raw: RawString, _ literal: StaticString) -> Bool {
        guard !raw.hasEscapes else { return string(raw) == literal.description }
        let count = raw.end - raw.start
        guard count == literal.utf8CodeUnitCount else { return false }
        let pointer = literal.utf8Start
        for index in 0..<count where base[raw.start + index] != pointer[index] { return false }
        return true
    }

    /// Appends the UTF-8 encoding of the scalar value `value` (not a surrogate) to `bytes`.
    package static func appendUTF8(_ value: UInt32, to bytes: inout [UInt8]) {
        switch value {
        case 0..<0x80:
            bytes.append(UInt8(value))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | value >> 6))
            bytes.append(UInt8(0x80 | value & 0x3F))
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | value >> 12))
            bytes.append(UInt8(0x80 | (value >> 6) & 0x3F))
            bytes.append(UInt8(0x80 | value & 0x3F))
        default:
            bytes.append(UInt8(0xF0 | value >> 18))
            bytes.append(UInt8(0x80 | (value >> 12) & 0x3F))
            bytes.append(UInt8(0x80 | (value >> 6) & 0x3F))
            bytes.append(UInt8(0x80 | value & 0x3F))
        }
    }

    private static func hexValue(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> UInt32 {
        var value: UInt32 = 0
        for index in offset..<(offset + 4) {
            let byte = bytes[index]
            let digit: UInt8 =
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
                default: byte - UInt8(ascii: "A") + 10
                }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    // MARK: Numbers

    /// Scans a number against the RFC 8259 grammar `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    package mutating func readRawNumber() throws(JSONDecodeError) -> RawNumber {
        let start = position
        var plain = true
        if position < end && base[position] == UInt8(ascii: "-") { position += 1 }
        guard position < end, JSONScanner.isDigit(base[position]) else {
            throw error("a number needs a digit after '-'")
        }
        if base[position] == UInt8(ascii: "0") {
            position += 1
            if position < end && JSONScanner.isDigit(base[position]) {
                throw error("a number must not have a leading zero", at: start)
            }
        } else {
            while position < end && JSONScanner.isDigit(base[position]) { position += 1 }
        }
        if position < end && base[position] == UInt8(ascii: ".") {
            plain = false
            position += 1
            guard position < end, JSONScanner.isDigit(base[position]) else {
                throw error("a number needs a digit after '.'")
            }
            while position < end && JSONScanner.isDigit(base[position]) { position += 1 }
        }
        if position < end && (base[position] == UInt8(ascii: "e") || base[position] == UInt8(ascii: "E")) {
            plain = false
            position += 1
            if position < end && (base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-")) {
                position += 1
            }
            guard position < end, JSONScanner.isDigit(base[position]) else {
                throw error("a number needs a digit in its exponent")
            }
            while position < end && JSONScanner.isDigit(base[position]) { position += 1 }
        }
        return RawNumber(start: start, end: position, isPlainInteger: plain)
    }

    /// The exact integer value of a number token, or an error when it is not an integer in `range`.
    ///
    /// Fractions and exponents are evaluated exactly in decimal (`1.5e1` is 15, `1.5` is not an integer), so no
    /// rounding through `Double` ever changes a value. O(digits).
    package func integer(_ raw: RawNumber, in range: ClosedRange<Int64>, _ what: String) throws(JSONDecodeError)
        -> Int64
    {
        var index = raw.start
        let negative = base[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        // value = magnitude × 10^exponent. Zero digits are held back (`pendingZeros`) until a non-zero digit
        // follows, so trailing zeros never overflow and the final magnitude never ends in a zero digit.
        var magnitude: UInt64 = 0
        var overflow = false
        var exponent = 0
        var pendingZeros = 0
        func append(_ digit: UInt8) {
            guard digit != 0 else {
                pendingZeros += 1
                return
            }
            for _ in 0...pendingZeros where !overflow {
                let (times, carry) = magnitude.multipliedReportingOverflow(by: 10)
                overflow = carry
                magnitude = times
            }
            pendingZeros = 0
            let (sum, carry) = magnitude.addingReportingOverflow(UInt64(digit))
            overflow = overflow || carry
            magnitude = sum
        }
        while index < raw.end && JSONScanner.isDigit(base[index]) {
            append(base[index] - UInt8(ascii: "0"))
            index += 1
        }
        if index < raw.end && base[index] == UInt8(ascii: ".") {
            index += 1
            while index < raw.end && JSONScanner.isDigit(base[index]) {
                append(base[index] - UInt8(ascii: "0"))
                exponent -= 1
                index += 1
            }
        }
        if index < raw.end {  // exponent
            index += 1
            var exponentNegative = false
            if base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") {
                exponentNegative = base[index] == UInt8(ascii: "-")
                index += 1
            }
            var value = 0
            while index < raw.end {
                value = min(value * 10 + Int(base[index] - UInt8(ascii: "0")), 1_000_000)
                index += 1
            }
            exponent += exponentNegative ? -value : value
        }
        exponent += pendingZeros
        let outOfRange = error("\(what) is out of range \(range.lowerBound)…\(range.upperBound)", at: raw.start)
        // With more than 19 significant digits that do not end in zero, the value is either not whole (a negative
        // exponent) or above every 64-bit integer.
        if overflow { throw exponent < 0 ? error("\(what) must be a whole number", at: raw.start) : outOfRange }
        if magnitude != 0 {
            while exponent < 0 {
                guard magnitude % 10 == 0 else { throw error("\(what) must be a whole number", at: raw.start) }
                magnitude /= 10
                exponent += 1
            }
            while exponent > 0 {
                let (times, carry) = magnitude.multipliedReportingOverflow(by: 10)
                if carry { throw outOfRange }
                magnitude = times
                exponent -= 1
            }
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw outOfRange }
            let value = magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
            guard range.contains(value) else { throw outOfRange }
            return value
        }
        guard magnitude <= UInt64(Int64.max), range.contains(Int64(magnitude)) else { throw outOfRange }
        return Int64(magnitude)
    }

    /// An unsigned 64-bit integer from a number token (card ids accept the whole `UInt64` range).
    package func unsignedInteger(_ raw: RawNumber, _ what: String) throws(JSONDecodeError) -> UInt64 {
        if raw.isPlainInteger && base[raw.start] != UInt8(ascii: "-") {
            var value: UInt64 = 0
            for index in raw.start..<raw.end {
                let (times, o1) = value.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(UInt64(base[index] - UInt8(ascii: "0")))
                guard !o1 && !o2 else { throw error("\(what) is out of range 0…\(UInt64.max)", at: raw.start) }
                value = sum
            }
            return value
        }
        return UInt64(try integer(raw, in: 0...Int64.max, what))
    }

    // MARK: Skipping

    /// Skips one value of any kind, validating it completely. Iterative: nesting costs one bit per level, and
    /// depth beyond `maxDepth` (counting the `depth` levels the caller is already inside) is an error.
    package mutating func skipValue(depth: Int = 0) throws(JSONDecodeError) {
        var stack: [Bool] = []  // true: inside an object
        var expectingValue = true
        while true {
            if expectingValue {
                let byte = try peek("a value")
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard depth + stack.count < maxDepth else {
                        throw error("nesting deeper than \(maxDepth) levels")
                    }
                    position += 1
                    let isObject = byte == UInt8(ascii: "{")
                    let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                    if try peek(isObject ? "a key or '}'" : "a value or ']'") == close {
                        position += 1
                        expectingValue = false
                    } else {
                        stack.append(isObject)
                        if isObject { _ = try readKey() }
                        continue
                    }
                default:
                    try skipScalar(byte)
                    expectingValue = false
                }
            }
            guard let isObject = stack.last else { return }
            if try nextElement(
                close: isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"), isObject ? "an object" : "an array")
            {
                if isObject { _ = try readKey() }
                expectingValue = true
            } else {
                stack.removeLast()
            }
        }
    }

    /// Skips a string, number or literal whose first byte is `byte`.
    private mutating func skipScalar(_ byte: UInt8) throws(JSONDecodeError) {
        switch byte {
        case UInt8(ascii: "\""): _ = try readRawString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try readRawNumber()
        case UInt8(ascii: "t"): try readLiteral("true")
        case UInt8(ascii: "f"): try readLiteral("false")
        case UInt8(ascii: "n"): try readLiteral("null")
        default: throw error("expected a value, found \(JSONScanner.describe(byte))")
        }
    }

    /// Consumes the literal `true`, `false` or `null`.
    package mutating func readLiteral(_ literal: StaticString) throws(JSONDecodeError) {
        let count = literal.utf8CodeUnitCount
        let pointer = literal.utf8Start
        for index in 0..<count {
            guard position + index < end, base[position + index] == pointer[index] else {
                throw error("invalid literal (expected '\(literal)')")
            }
        }
        position += count
    }

    // MARK: Helpers

    @inline(__always)
    package static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    package static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    package static func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : "0x" + hex(UInt32(byte), digits: 2)
    }

    package static func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + hex(UInt32(byte), digits: 2)
    }
}
