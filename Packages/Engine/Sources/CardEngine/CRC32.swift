/// CRC-32 as zlib's `crc32`, gzip (RFC 1952, section 8) and PNG compute it: the ISO-HDLC polynomial 0x04C11DB7 in
/// its reflected form 0xEDB88320, initial value and final XOR 0xFFFFFFFF. The check value of "123456789" is
/// 0xCBF43926.
///
/// Slicing-by-8 (Kounavis and Berry, "A Systematic Approach to Building High Performance Software-Based CRC
/// Generators", 2005): eight 256-entry tables let each step fold eight bytes with eight lookups, so large inputs
/// (a million card ids, about 7 MB) cost a few milliseconds. O(n) in the bytes, 8 KiB of tables built once.
public struct CRC32: Sendable, Hashable {
    /// The running remainder (before the final XOR).
    private var state: UInt32 = 0xFFFF_FFFF

    /// An empty checksum.
    public init() {}

    /// The checksum so far.
    public var value: UInt32 { state ^ 0xFFFF_FFFF }

    /// The checksum of `bytes`.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(Array(bytes))
        return crc.value
    }

    /// Folds `bytes` into the checksum.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { update(UnsafeRawBufferPointer($0)) }
    }

    /// Folds the bytes in `buffer` into the checksum.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        var crc = state
        var index = 0
        let count = buffer.count
        Self.tables.withUnsafeBufferPointer { t in
            while count - index >= 8 {
                let low = crc ^ buffer.loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian
                let high = buffer.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self).littleEndian
                crc =
                    t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
                    ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = t[Int((crc ^ UInt32(buffer[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
        }
        state = crc
    }

    /// Table k maps a byte to its remainder after k more zero bytes (table 0 is the classic byte-wise table).
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            tables[byte] = crc
        }
        for table in 1..<8 {
            for byte in 0..<256 {
                let previous = tables[(table - 1) * 256 + byte]
                tables[table * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()
}

/// The checksum of a deck's order that travels with every change on the wire: the CRC-32 (`CRC32`) of the card
/// ids in decimal, UTF-8, joined by "\n" (no trailing newline). A host computes it with its standard library
/// (Python: `zlib.crc32("\n".join(ids).encode())`). O(n), without building the joined text.
public enum OrderChecksum {
    /// The checksum of `ids` in this order. The decimal text goes through a 64 KiB buffer, written two digits at a
    /// time from a 200-byte table of "00"…"99", so a million ids cost about as much as their CRC.
    public static func of(_ ids: [CardID]) -> UInt32 {
        let capacity = 64 * 1024
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity + 24)
        defer { buffer.deallocate() }
        var crc = CRC32()
        var count = 0
        pairs.withUnsafeBufferPointer { pairs in
            ids.withUnsafeBufferPointer { ids in
                for index in 0..<ids.count {
                    if index > 0 {
                        buffer[count] = UInt8(ascii: "\n")
                        count += 1
                    }
                    var value = ids[index].rawValue
                    let length = digitCount(value)
                    var end = count + length
                    while value >= 100 {
                        let pair = Int(truncatingIfNeeded: value % 100) &* 2
                        value /= 100
                        buffer[end - 1] = pairs[pair + 1]
                        buffer[end - 2] = pairs[pair]
                        end -= 2
                    }
                    if value >= 10 {
                        let pair = Int(truncatingIfNeeded: value) &* 2
                        buffer[end - 1] = pairs[pair + 1]
                        buffer[end - 2] = pairs[pair]
                    } else {
                        buffer[end - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
                    }
                    count += length
                    if count >= capacity {
                        crc.update(UnsafeRawBufferPointer(start: buffer, count: count))
                        count = 0
                    }
                }
            }
        }
        crc.update(UnsafeRawBufferPointer(start: buffer, count: count))
        return crc.value
    }

    /// The number of decimal digits of `value` (1 for 0).
    static func digitCount(_ value: UInt64) -> Int {
        var count = 1
        var threshold: UInt64 = 10
        while value >= threshold {
            count += 1
            // 10^19 is the largest power of ten a UInt64 holds; every larger value has 20 digits.
            if count == 20 { break }
            threshold *= 10
        }
        return count
    }

    /// "00", "01", …, "99" as ASCII bytes.
    static let pairs: [UInt8] = (0..<100).flatMap {
        [UInt8(ascii: "0") + UInt8($0 / 10), UInt8(ascii: "0") + UInt8($0 % 10)]
    }
}
