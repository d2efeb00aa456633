import CardJSON
import CardModels
import Testing

@testable import CardEngine
@testable import CardStdio

/// A sort's `deck.changed` is written from the sources the scene knew (`DeckChange.sources`) instead of sources
/// rebuilt from the diff's moves. The wire is a contract: these tests fail if the two ever wrote different bytes.
@Suite struct ChangeDiffSourcesTests {
    /// 1,500 seeded permutations of 0 to 6,000 slots (shuffled, rising runs, reversed, one move, nearly sorted):
    /// the diff written with its known sources is the bytes written without them, whether the change travels as
    /// source slots or as moves.
    @Test func knownSourcesWriteTheSameBytes() throws {
        var generator = SplitMix64(seed: 0x5017_2900)
        var packed = 0
        for round in 0..<1_500 {
            let count = Int(generator.next() % 6_000)
            var sources = (0..<count).map { Int32($0) }
            switch round % 5 {
            case 0:
                sources.shuffle(using: &generator)
            case 1:
                let keys = (0..<count).map { _ in generator.next() % (1 + generator.next() % 40) }
                sources.sort { (first: Int32, second: Int32) -> Bool in
                    let (a, b) = (keys[Int(first)], keys[Int(second)])
                    return a != b ? a < b : first < second
                }
            case 2:
                sources.reverse()
            case 3:
                if count > 1 {
                    let card = sources.remove(at: Int(generator.next() % UInt64(count)))
                    sources.insert(card, at: Int(generator.next() % UInt64(count)))
                }
            default:
                for _ in 0..<(count / 50) {
                    sources.swapAt(Int(generator.next() % UInt64(count)), Int(generator.next() % UInt64(count)))
                }
            }
            let diff = try ReorderDiff(permutation: sources)
            var known = JSONOutput()
            Messages.changeDiff(diff, sources: sources, into: &known)
            var rebuilt = JSONOutput()
            Messages.changeDiff(diff, into: &rebuilt)
            #expect(known.bytes == rebuilt.bytes, "round \(round): \(count) slots")
            if Messages.packsSources(diff) { packed += 1 }
        }
        // Both forms were exercised.
        #expect(packed > 300 && packed < 1_400)
    }

    /// The sources are derived from the diff: a change carrying them equals and hashes as the same change without.
    @Test func sourcesDoNotChangeEquality() throws {
        let sources: [Int32] = [2, 0, 1, 3]
        let diff = try ReorderDiff(permutation: sources)
        let ids: [CardID] = [30, 10, 20, 40]
        let with = DeckChange(time: 1, ids: ids, diff: diff, checksum: 7, sources: sources)
        let without = DeckChange(time: 1, ids: ids, diff: diff, checksum: 7)
        #expect(with == without)
        #expect(with.hashValue == without.hashValue)
        #expect(with != DeckChange(time: 1, ids: ids, diff: diff, checksum: 8, sources: sources))
    }
}
