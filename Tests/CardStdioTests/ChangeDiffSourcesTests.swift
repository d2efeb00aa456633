import CardJSON
import Synchronization
import Testing

@testable import CardEngine
@testable import CardModels
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
            let sources = SortSourcesShape(round: round).sources(count: count, using: &generator)
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

    /// 1,500 seeded sorts (the shapes above, up to 6,000 slots, and some past `TwoThreads.minimumCount`): a sort's
    /// `deck.changed` is streamed when its bounds show the sources are the shorter form and its moves are not
    /// counted yet — the head written with no search (the bounds still open after it), the count in the tail —
    /// and head and tail are, byte for byte, the notification of the same change with its diff searched first.
    @Test func aStreamedSortChangeWritesTheSameBytes() throws {
        var generator = SplitMix64(seed: 0x5354_5245)
        var streamed = 0
        for round in 0..<1_500 {
            let count =
                round % 100 == 0
                ? TwoThreads.minimumCount + Int(generator.next() % 5_000)
                : Int(generator.next() % 6_000)
            let sources = SortSourcesShape(round: round).sources(count: count, using: &generator)
            let ids = sources.map { CardID(UInt64($0) &* 2_654_435_761 &+ 1) }
            let lazy = DeckChange(
                time: 2, ids: ids, diff: ReorderDiff(sortSources: sources), checksum: 9, sources: sources)
            let eager = DeckChange(
                time: 2, ids: ids, diff: try ReorderDiff(permutation: sources), checksum: 9, sources: sources)
            guard !eager.diff.isEmpty else { continue }
            let stamp = OrderStamp(revision: 3, checksum: 9, wholeOrder: false)
            let expected = Messages.event(.deckChanged(eager), seq: 4, order: stamp)
            switch Messages.outbound(.deckChanged(lazy), seq: 4, order: stamp) {
            case .streamed(let head, let tail):
                streamed += 1
                let bounds = lazy.diff.moveCountBounds
                #expect(bounds.lowerBound < bounds.upperBound, "round \(round): searched before the head was out")
                #expect(Messages.packsSources(eager.diff), "round \(round)")
                #expect(head + tail() == expected, "round \(round): \(count) slots")
                #expect(lazy.diff.moveCountBounds == eager.diff.moveCount...eager.diff.moveCount, "round \(round)")
            case .message(let bytes):
                #expect(bytes == expected, "round \(round): \(count) slots")
            default:
                Issue.record("round \(round): neither a message nor a streamed one")
            }
            // A session that asked for whole orders gets the change in one piece.
            let whole = OrderStamp(revision: 3, checksum: 9, wholeOrder: true)
            guard case .message = Messages.outbound(.deckChanged(lazy), seq: 4, order: whole) else {
                Issue.record("round \(round): a whole-order change was streamed")
                continue
            }
        }
        // Every shuffle of more than a few slots streams; the others do not.
        #expect(streamed > 250 && streamed < 700)
    }

    /// The queue holds a streamed message as two items — the head, which does not end its line, then the tail,
    /// computed only once the head is queued — and counts the one newline they make together.
    @Test func aStreamedMessageIsQueuedHeadFirstAsOneLine() {
        let queue = OutboundQueue()
        var encoder = OutboundEncoder()
        let head = Array("{\"jsonrpc\":\"2.0\",\"method\":\"deck.changed\",\"params\":{\"x\":\"".utf8)
        let tail = Array("\"}}".utf8)
        let waitingWhenTailMade = Mutex<Int?>(nil)
        let message = Outbound.streamed(
            head: head,
            tail: OutboundTail {
                waitingWhenTailMade.withLock { $0 = queue.waitingBytes }
                return tail
            })
        let pushed = encoder.push([message, .message(Array("{}".utf8))], to: queue)
        #expect(pushed)
        let waiting = waitingWhenTailMade.withLock { $0 }
        #expect(waiting == head.count)
        #expect(queue.waitingBytes == head.count + tail.count + 1 + 3)
        queue.finish()
        var written: [UInt8] = []
        while let items = queue.take() {
            for item in items {
                written += item.bytes
                if item.endsLine { written.append(0x0A) }
            }
        }
        #expect(written == head + tail + [0x0A] + Array("{}\n".utf8))
        var frames = FrameEncoder()
        #expect(frames.encode(message) == head + tail)
    }
}
