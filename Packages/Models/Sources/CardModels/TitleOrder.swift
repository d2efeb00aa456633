/// The order people count titles in, as Finder and iOS sort names (`localizedStandardCompare`, for ASCII): a run
/// of digits compares by its value ("Card 2" before "Card 10", "Card 007" beside "Card 7"), letters compare without
/// regard to case ("apple" before "Banana"), every other character by its code point (UTF-8 bytes compare in code
/// point order). Titles equal by those rules are ordered by their bytes, so the order is total and a title equals
/// only itself ("Card 07" before "Card 7", "Apple" before "apple").
///
/// A deck sorted by title (`DeckOrder.Key.title`: the deck scene's sort, `deck.sort {by: "title"}`) is in this
/// order. Comparing two titles is O(length).
public enum TitleOrder {
    /// A title as a `Comparable` key in this order (`Deck.sort(by:)`, `DenseRanks`' reference).
    public struct Key: Comparable, Sendable {
        /// The title.
        public var title: String

        /// The key of `title`.
        public init(_ title: String) { self.title = title }

        public static func < (lhs: Key, rhs: Key) -> Bool { TitleOrder.precedes(lhs.title, rhs.title) }
    }

    /// Whether `a` comes before `b`.
    public static func precedes(_ a: String, _ b: String) -> Bool { compare(a, b) < 0 }

    /// −1, 0 or 1 as `a` comes before, is, or comes after `b`.
    public static func compare(_ a: String, _ b: String) -> Int {
        var a = a
        var b = b
        return a.withUTF8 { a in b.withUTF8 { b in compare(a, b) } }
    }

    /// `compare(_:_:)` over the titles' UTF-8 bytes.
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if isDigit(a[i]) && isDigit(b[j]) {
                let (aStart, aEnd) = digitRun(a, from: i)
                let (bStart, bEnd) = digitRun(b, from: j)
                // More significant digits is the larger value; as many, the first differing digit decides.
                if aEnd - aStart != bEnd - bStart { return aEnd - aStart < bEnd - bStart ? -1 : 1 }
                for offset in 0..<(aEnd - aStart) where a[aStart + offset] != b[bStart + offset] {
                    return a[aStart + offset] < b[bStart + offset] ? -1 : 1
                }
                i = aEnd
                j = bEnd
                continue
            }
            let left = folded(a[i])
            let right = folded(b[j])
            if left != right { return left < right ? -1 : 1 }
            i += 1
            j += 1
        }
        if i < a.count { return 1 }
        if j < b.count { return -1 }
        // Equal as people read them: the bytes decide.
        for offset in 0..<min(a.count, b.count) where a[offset] != b[offset] { return a[offset] < b[offset] ? -1 : 1 }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    /// A 128-bit key of `title` (two words, most significant first) whose unsigned order never contradicts
    /// `compare(_:_:)`: where two titles' keys differ, the smaller key's title comes first; equal keys need the
    /// whole comparison. It is the first 16 bytes of the title's *sort form* — letters lowercased; each digit run
    /// as the byte `0`, its count of significant digits (at most 255) and those digits — padded with zeros, whose
    /// bytewise order is `compare`'s until the tie between equals. A title of up to about 12 characters fits whole
    /// (`Card 1000000`: 14 bytes). O(16).
    static func prefixKey(_ title: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var key: (UInt64, UInt64) = (0, 0)
        var written = 0
        func emit(_ byte: UInt8) {
            guard written < 16 else { return }
            if written < 8 {
                key.0 |= UInt64(byte) << (56 - 8 * written)
            } else {
                key.1 |= UInt64(byte) << (56 - 8 * (written - 8))
            }
            written += 1
        }
        var index = 0
        while index < title.count && written < 16 {
            if isDigit(title[index]) {
                let (start, end) = digitRun(title, from: index)
                emit(UInt8(ascii: "0"))
                // A run of 255 digits or more: its length alone no longer orders it, so the key ends here (equal
                // keys go to the whole comparison).
                guard end - start < 255 else {
                    emit(255)
                    break
                }
                emit(UInt8(end - start))
                for digit in start..<end { emit(title[digit]) }
                index = end
            } else {
                emit(folded(title[index]))
                index += 1
            }
        }
        return key
    }

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// `byte` with A–Z lowercased.
    @inline(__always) static func folded(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }

    /// The significant digits of the digit run starting at `start` (its leading zeros skipped) and where the run
    /// ends.
    @inline(__always) static func digitRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int, Int) {
        var significant = start
        while significant < bytes.count && bytes[significant] == UInt8(ascii: "0") { significant += 1 }
        var end = significant
        while end < bytes.count && isDigit(bytes[end]) { end += 1 }
        return (significant, end)
    }
}
