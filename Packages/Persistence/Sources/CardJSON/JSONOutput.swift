/// A growable buffer of compact JSON text, written by hand for speed (no `Encodable`, no intermediate strings).
///
/// Strings are escaped per RFC 8259 §7 (`"`, `\`, control characters) and additionally U+2028 and U+2029 are
/// written as `\u2028` / `\u2029`, as the MCP stdio transport asks, so that no JavaScript host splits a line on
/// them. Non-finite numbers never reach the wire: they are written as `0` (the protocol documents this). Every
/// append is O(bytes written).
///
/// Public (unlike the scanner and the streaming writer, which stay `package`) because the engine, another local
/// package, writes the protocol's frame bytes with it (`FrameJSON` in CardEngine); only what that needs is public.
public struct JSONOutput: Sendable {
    /// The text so far (UTF-8).
    public package(set) var bytes: [UInt8] = []

    /// An empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends an ASCII literal that is already valid JSON text (`{"nodes":[`).
    @inline(__always)
    public mutating func raw(_ literal: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends one byte of JSON text (a bracket, a comma, a quote).
    @inline(__always)
    public mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// Appends already valid JSON text.
    package mutating func rawBytes(_ text: [UInt8]) { bytes.append(contentsOf: text) }

    /// Writes `"key":`. The key must be plain ASCII needing no escapes (every protocol key is).
    @inline(__always)
    package mutating func key(_ literal: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(literal)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes `,"key":` (for every member after the first).
    @inline(__always)
    public mutating func nextKey(_ literal: StaticString) {
        bytes.append(UInt8(ascii: ","))
        key(literal)
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// Writes a signed integer in decimal.
    public mutating func integer(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        unsigned(UInt64(value.magnitude))
    }

    /// Writes an unsigned integer in decimal.
    public mutating func unsigned(_ value: UInt64) {
        if value < 10 {
            bytes.append(UInt8(truncatingIfNeeded: value) &+ 48)
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var length = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { scratch in
            repeat {
                length += 1
                scratch[24 - length] = UInt8(truncatingIfNeeded: rest % 10) &+ 48
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: scratch[(24 - length)...])
        }
    }

    /// Writes a number: whole values below 2^53 as integers, others in Swift's shortest round-trip form (which is
    /// valid JSON: `0.1`, `1e-07`, `1.5e+20`); non-finite values as `0`.
    public mutating func number(_ value: Double) {
        guard value.isFinite else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        if value == value.rounded(.towardZero) && abs(value) < 9_007_199_254_740_992 {
            if value == 0 {
                bytes.append(UInt8(ascii: "0"))  // also -0
            } else {
                integer(Int(value))
            }
            return
        }
        var text = value.description
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Writes `data` as a JSON string in base64 (RFC 4648, section 4: the standard alphabet, with padding). The
    /// output is sized once and filled in place, four characters (one 32-bit store) for every three bytes, looked up
    /// two at a time (`base64Pairs`, the characters of each 12-bit value): about 1.5 ms for 4 MB, where a character at
    /// a time took 3–4. O(bytes).
    package mutating func base64String(_ data: UnsafeRawBufferPointer) {
        base64String(data, inTwo: nil)
    }

    /// `base64String(_:)`, with `inTwo`, when given, running its argument's parts 0 and 1 and returning when both
    /// have (on two threads: the stdio server passes `TwoThreads.run`): each part then encodes one half of the
    /// three-byte groups into its own half of the output, which the halves' offsets (3 bytes in, 4 characters out
    /// per group) keep apart.
    package mutating func base64String(
        _ data: UnsafeRawBufferPointer, inTwo: ((_ part: (Int) -> Void) -> Void)?
    ) {
        let count = data.count
        let start = bytes.count
        let length = (count + 2) / 3 * 4 + 2
        guard count > 0, let input = data.baseAddress else {
            bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: "\"")])
            return
        }
        guard length >= Self.ownBufferLength else {
            // The opening and closing quotes, and every character in between, written over.
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "\""), count: length))
            bytes.withUnsafeMutableBufferPointer { out in
                Self.encode(input, count: count, into: UnsafeMutableRawPointer(out.baseAddress! + start + 1), inTwo)
            }
            return
        }
        // A large string gets a buffer of its own, made once with room for what usually follows (the rest of a
        // message), and written once: appending a repeated quote first filled it byte by byte, and the next append
        // after the exactly full buffer copied the megabytes again into one twice the size (a million sources: 5.3
        // MB filled, then copied).
        let old = bytes
        bytes = [UInt8](unsafeUninitializedCapacity: start + length + Self.roomAfter) { buffer, initialized in
            let base = buffer.baseAddress!
            old.withUnsafeBufferPointer { old in
                if let oldBase = old.baseAddress { base.initialize(from: oldBase, count: start) }
            }
            base[start] = UInt8(ascii: "\"")
            Self.encode(input, count: count, into: UnsafeMutableRawPointer(base + start + 1), inTwo)
            base[start + length - 1] = UInt8(ascii: "\"")
            initialized = start + length
        }
    }

    /// The base64 of the `count` bytes at `input` (at least one), `(count + 2) / 3 * 4` characters at `output`, the
    /// three-byte groups split in two parts by `inTwo` when given (`base64String(_:inTwo:)`). O(count).
    private static func encode(
        _ input: UnsafeRawPointer, count: Int, into output: UnsafeMutableRawPointer,
        _ inTwo: ((_ part: (Int) -> Void) -> Void)?
    ) {
        base64Pairs.withUnsafeBufferPointer { pairs in
            let groups = count / 3
            let pairs = pairs.baseAddress!
            if let inTwo {
                let middle = groups / 2
                inTwo { part in
                    let range = part == 0 ? 0..<middle : middle..<groups
                    encodeGroups(range, of: input, count: count, into: output, pairs: pairs)
                }
            } else {
                encodeGroups(0..<groups, of: input, count: count, into: output, pairs: pairs)
            }
            let index = groups * 3
            let target = groups * 4
            let left = count - index
            guard left > 0 else { return }
            base64Alphabet.withUTF8Buffer { table in
                let bytes = input.assumingMemoryBound(to: UInt8.self)
                let word = UInt32(bytes[index]) << 16 | (left == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
                output.storeBytes(of: table[Int(word >> 18)], toByteOffset: target, as: UInt8.self)
                output.storeBytes(of: table[Int(word >> 12 & 63)], toByteOffset: target + 1, as: UInt8.self)
                let third = left == 2 ? table[Int(word >> 6 & 63)] : UInt8(ascii: "=")
                output.storeBytes(of: third, toByteOffset: target + 2, as: UInt8.self)
                output.storeBytes(of: UInt8(ascii: "="), toByteOffset: target + 3, as: UInt8.self)
            }
        }
    }

    /// The base64 of the whole three-byte groups `groups` of `input` (`count` bytes long) at their places in
    /// `output`: three bytes read as four (big-endian, the fourth dropped) while four remain in `input`, the last
    /// group byte by byte. O(groups).
    private static func encodeGroups(
        _ groups: Range<Int>, of input: UnsafeRawPointer, count: Int, into output: UnsafeMutableRawPointer,
        pairs: UnsafePointer<UInt16>
    ) {
        /// The four characters of the 24 bits `word` (in its low bits), as they go in memory.
        @inline(__always) func quad(_ word: UInt32) -> UInt32 {
            let characters = UInt32(pairs[Int(word >> 12)]) | UInt32(pairs[Int(word & 0xFFF)]) << 16
            return characters.littleEndian
        }
        var index = groups.lowerBound * 3
        var target = groups.lowerBound * 4
        let end = groups.upperBound * 3
        while index < end && index + 4 <= count {
            let word = input.loadUnaligned(fromByteOffset: index, as: UInt32.self).bigEndian >> 8
            output.storeBytes(of: quad(word), toByteOffset: target, as: UInt32.self)
            index += 3
            target += 4
        }
        if index < end {
            let bytes = input.assumingMemoryBound(to: UInt8.self)
            let word = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output.storeBytes(of: quad(word), toByteOffset: target, as: UInt32.self)
        }
    }

    /// From this many characters a base64 string is written into a buffer of its own (`base64String`).
    static let ownBufferLength = 1 << 16
    /// The room a base64 string's own buffer leaves after it.
    static let roomAfter = 4096

    /// The two base64 characters of every 12-bit value, the first in the low byte.
    static let base64Pairs: [UInt16] = base64Alphabet.withUTF8Buffer { table in
        (0..<4096).map { UInt16(table[$0 >> 6]) | UInt16(table[$0 & 63]) << 8 }
    }

    static let base64Alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

    /// Writes `values` as a JSON array of strings. O(bytes).
    public mutating func strings(_ values: some Sequence<String>) {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for value in values {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            string(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes a JSON string literal for `text`.
    public mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { escaped($0) }
    }

    /// Writes a JSON string literal for valid UTF-8 bytes. Runs that need no escape are copied in one step.
    package mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        guard let base = utf8.baseAddress else {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        var runStart = 0
        var index = 0
        let length = utf8.count
        while index < length {
            let value = base[index]
            if value >= 0x20 && value != 0x22 && value != 0x5C && value != 0xE2 {
                index += 1
                continue
            }
            // U+2028 and U+2029 are E2 80 A8 and E2 80 A9 in UTF-8.
            if value == 0xE2 {
                guard index + 2 < length, base[index + 1] == 0x80, base[index + 2] == 0xA8 || base[index + 2] == 0xA9
                else {
                    index += 1
                    continue
                }
                flush(base, runStart, index)
                raw(base[index + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                index += 3
                runStart = index
                continue
            }
            flush(base, runStart, index)
            escape(value)
            index += 1
            runStart = index
        }
        flush(base, runStart, length)
        bytes.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private mutating func flush(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) {
        if end > start { bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: end - start)) }
    }

    private mutating func escape(_ value: UInt8) {
        switch value {
        case 0x22: raw("\\\"")
        case 0x5C: raw("\\\\")
        case 0x08: raw("\\b")
        case 0x0C: raw("\\f")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        default:
            let hexDigits: StaticString = "0123456789abcdef"
            raw("\\u00")
            bytes.append(hexDigits.utf8Start[Int(value >> 4)])
            bytes.append(hexDigits.utf8Start[Int(value & 0xF)])
        }
    }
}
