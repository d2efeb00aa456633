/// A buffered writer of JSON text: bytes go into a fixed buffer that is handed to `flush` whenever it fills,
/// so a document of any size streams out in constant memory.
///
/// Strings are escaped per RFC 8259 §7 (`"`, `\`, and control characters; everything else, including non-ASCII,
/// is written as UTF-8). Runs without escapes are copied in one `memcpy`-like step. All writes are O(bytes).
package final class JSONByteWriter {
    private let storage: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0
    private let flush: (UnsafeRawBufferPointer) throws -> Void

    /// A writer whose full buffers (of `capacity` bytes, at least 64) go to `flush`.
    package init(capacity: Int = 1 << 20, flush: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.capacity = max(64, capacity)
        self.storage = .allocate(capacity: self.capacity)
        self.flush = flush
    }

    deinit { storage.deallocate() }

    /// Hands whatever is buffered to `flush`.
    package func finish() throws {
        if count > 0 { try flush(UnsafeRawBufferPointer(start: storage, count: count)) }
        count = 0
    }

    @inline(__always)
    private func reserve(_ needed: Int) throws {
        if count + needed > capacity { try finish() }
    }

    @inline(__always)
    package func byte(_ value: UInt8) throws {
        if count == capacity { try finish() }
        storage[count] = value
        count += 1
    }

    /// Writes an ASCII literal such as `{"cards":[`.
    @inline(__always)
    package func raw(_ literal: StaticString) throws {
        try bytes(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Writes bytes as they are (already valid JSON text).
    package func bytes(_ buffer: UnsafeBufferPointer<UInt8>) throws {
        guard var source = buffer.baseAddress else { return }
        var remaining = buffer.count
        while remaining > 0 {
            if count == capacity { try finish() }
            let chunk = min(remaining, capacity - count)
            (storage + count).update(from: source, count: chunk)
            count += chunk
            source += chunk
            remaining -= chunk
        }
    }

    /// Writes a signed integer in decimal.
    package func integer(_ value: Int64) throws {
        try reserve(20)
        if value < 0 {
            storage[count] = UInt8(ascii: "-")
            count += 1
        }
        try unsigned(value.magnitude, reserved: true)
    }

    /// Writes an unsigned integer in decimal.
    package func unsigned(_ value: UInt64, reserved: Bool = false) throws {
        if !reserved { try reserve(20) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch, filled from the end
        var length = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { scratch in
            repeat {
                length += 1
                scratch[24 - length] = UInt8(truncatingIfNeeded: rest % 10) + UInt8(ascii: "0")
                rest /= 10
            } while rest > 0
            (storage + count).update(
                from: scratch.baseAddress!.assumingMemoryBound(to: UInt8.self) + (24 - length), count: length)
        }
        count += length
    }

    /// Writes `"#RRGGBB"` for a colour's 8-bit channels, without building a String.
    package func hexColor(red: UInt8, green: UInt8, blue: UInt8) throws {
        try reserve(9)
        let hexDigits: StaticString = "0123456789ABCDEF"
        let table = hexDigits.utf8Start
        storage[count] = UInt8(ascii: "\"")
        storage[count + 1] = UInt8(ascii: "#")
        storage[count + 2] = table[Int(red >> 4)]
        storage[count + 3] = table[Int(red & 0xF)]
        storage[count + 4] = table[Int(green >> 4)]
        storage[count + 5] = table[Int(green & 0xF)]
        storage[count + 6] = table[Int(blue >> 4)]
        storage[count + 7] = table[Int(blue & 0xF)]
        storage[count + 8] = UInt8(ascii: "\"")
        count += 9
    }

    /// Writes a JSON string literal for `text`, escaping what RFC 8259 requires.
    package func string(_ text: String) throws {
        var text = text
        try text.withUTF8 { utf8 in try escapedString(utf8) }
    }

    /// Writes a JSON string literal for UTF-8 bytes (which must be valid UTF-8). Eight bytes at a time while none
    /// of them needs escaping (`needsEscape(_:)` on one 64-bit word), which is most of any long string: a
    /// million-card deck's packed order is 5.3 MB of base64. O(bytes).
    package func escapedString(_ utf8: UnsafeBufferPointer<UInt8>) throws {
        try byte(UInt8(ascii: "\""))
        guard let base = utf8.baseAddress else { return try byte(UInt8(ascii: "\"")) }
        var runStart = 0
        var index = 0
        let length = utf8.count
        let raw = UnsafeRawPointer(base)
        while index < length {
            if index + 8 <= length
                && !Self.needsEscape(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            {
                index += 8
                continue
            }
            let value = base[index]
            if value >= 0x20 && value != UInt8(ascii: "\"") && value != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            if index > runStart { try bytes(UnsafeBufferPointer(start: base + runStart, count: index - runStart)) }
            try escape(value)
            index += 1
            runStart = index
        }
        if length > runStart { try bytes(UnsafeBufferPointer(start: base + runStart, count: length - runStart)) }
        try byte(UInt8(ascii: "\""))
    }

    /// Whether any of the eight bytes of `word` is a control character (below 0x20), `"` or `\`. Exact, with no
    /// branch per byte (the bit tricks of Sean Eron Anderson's "Bit Twiddling Hacks", "Determine if a word has a
    /// byte less than n" and "… has a zero byte", applied to the word and to its XOR with each character repeated):
    /// a byte at or above 0x80 (UTF-8 beyond ASCII) never counts.
    @inline(__always)
    static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasLess(_ x: UInt64, _ n: UInt64) -> UInt64 { (x &- ones &* n) & ~x & highs }
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        return (hasLess(word, 0x20) | hasLess(quote, 1) | hasLess(backslash, 1)) != 0
    }

    private func escape(_ value: UInt8) throws {
        try reserve(6)
        storage[count] = UInt8(ascii: "\\")
        let short: UInt8? =
            switch value {
            case UInt8(ascii: "\""): UInt8(ascii: "\"")
            case UInt8(ascii: "\\"): UInt8(ascii: "\\")
            case 0x08: UInt8(ascii: "b")
            case 0x0C: UInt8(ascii: "f")
            case 0x0A: UInt8(ascii: "n")
            case 0x0D: UInt8(ascii: "r")
            case 0x09: UInt8(ascii: "t")
            default: nil
            }
        if let short {
            storage[count + 1] = short
            count += 2
            return
        }
        let hexDigits: StaticString = "0123456789abcdef"
        storage[count + 1] = UInt8(ascii: "u")
        storage[count + 2] = UInt8(ascii: "0")
        storage[count + 3] = UInt8(ascii: "0")
        storage[count + 4] = hexDigits.utf8Start[Int(value >> 4)]
        storage[count + 5] = hexDigits.utf8Start[Int(value & 0xF)]
        count += 6
    }
}

extension JSONByteWriter {
    /// Encodes a whole document into one byte array (for small documents, tests and the CLI). O(bytes).
    package static func collect(_ body: (JSONByteWriter) throws -> Void) throws -> [UInt8] {
        var output: [UInt8] = []
        let writer = JSONByteWriter(capacity: 1 << 16) { chunk in output.append(contentsOf: chunk) }
        try body(writer)
        try writer.finish()
        return output
    }
}
