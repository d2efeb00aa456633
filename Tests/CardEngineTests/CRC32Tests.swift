import CardEngine
import Testing

@Suite struct CRC32Tests {
    @Test func theCheckValueOfTheStandard() {
        // RFC 1952's CRC-32 (zlib's crc32): the catalogue check value of "123456789".
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
    }

    @Test func slicingGivesTheSameAsOneByteAtATime() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var whole = CRC32()
        whole.update(bytes)
        var pieces = CRC32()
        for index in stride(from: 0, to: bytes.count, by: 3) {
            pieces.update(Array(bytes[index..<min(index + 3, 1000)]))
        }
        #expect(whole.value == pieces.value)
    }

    @Test func theOrderChecksumIsTheCRCOfTheIdsJoinedByNewlines() {
        let ids: [CardID] = [
            101, 7, 18_446_744_073_709_551_615, 0, 10_000_000_000_000_000_000, 9_999_999_999_999_999_999, 10, 99, 100,
        ]
        let text = ids.map(\.description).joined(separator: "\n")
        #expect(OrderChecksum.of(ids) == CRC32.checksum(Array(text.utf8)))
        let many = (0..<100_000).map { CardID(UInt64($0) &* 2_654_435_761) }
        #expect(OrderChecksum.of(many) == CRC32.checksum(Array(many.map(\.description).joined(separator: "\n").utf8)))
    }
}
