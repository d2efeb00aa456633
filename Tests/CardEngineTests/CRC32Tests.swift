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
}
