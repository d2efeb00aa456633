/// CRC-32 as zlib's `crc32`, gzip (RFC 1952, section 8) and PNG compute it: the ISO-HDLC polynomial 0x04C11DB7 in
/// its reflected form 0xEDB88320, initial value and final XOR 0xFFFFFFFF. The check value of "123456789" is
/// 0xCBF43926.
///
/// `package`, not public: the engine uses it for recorded frame digests (`InputLog.digest(of:)`) only.
///
/// Slicing-by-8 (Kounavis and Berry, "A Systematic Approach to Building High Performance Software-Based CRC
/// Generators", 2005): eight 256-entry tables let each step fold eight bytes with eight lookups, so large inputs
/// (a million card ids, about 7 MB) cost a few milliseconds. O(n) in the bytes, 8 KiB of tables built once.
package struct CRC32: Sendable, Hashable {
    /// The running remainder (before the final XOR).
    private var state: UInt32 = 0xFFFF_FFFF

    /// An empty checksum.
    package init() {}

    /// The checksum so far.
    package var value: UInt32 { state ^ 0xFFFF_FFFF }

    /// The checksum of `bytes`.
    package static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(Array(bytes))
        return crc.value
    }

    /// Folds `bytes` into the checksum.
    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { update(UnsafeRawBufferPointer($0)) }
    }

    /// Folds the bytes in `buffer` into the checksum.
    package mutating func update(_ buffer: UnsafeRawBufferPointer) {
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
