import CardEngine
import CardModels
import Testing

/// The order checksum of the wire (docs/protocol.md, "Deck orders"): its definition against values computed by an
/// independent Python implementation of the documented formula, and its O(1) update after a move against the
/// O(n) sum, on seeded random decks.
@Suite struct OrderChecksumTests {
    /// Values from the Python reference in docs/protocol.md (`order_checksum`), run on these orders.
    @Test func matchesTheDocumentedDefinition() {
        #expect(OrderChecksum.of([]) == 4_101_679_935)
        #expect(OrderChecksum.of([1]) == 826_593_978)
        #expect(OrderChecksum.of([1, 2, 3]) == 2_205_779_549)
        #expect(OrderChecksum.of([3, 2, 1]) == 1_811_867_496)
        #expect(OrderChecksum.of([201, 202, 203, 204]) == 3_416_123_010)
        // Both 32-bit halves of an id count.
        #expect(OrderChecksum.of([18_446_744_073_709_551_615, 0, 4_294_967_296]) == 3_118_348_513)
    }

    /// Every order of six cards has its own checksum: the sum of neighbour pairs tells the orders apart.
    @Test func everyOrderOfSixCardsDiffers() {
        var orders: [[CardID]] = [[]]
        for card in [11, 12, 13, 14, 15, 16] as [CardID] {
            orders = orders.flatMap { order in
                (0...order.count).map {
                    var o = order
                    o.insert(card, at: $0)
                    return o
                }
            }
        }
        #expect(orders.count == 720)
        #expect(Set(orders.map(OrderChecksum.of)).count == 720)
    }

    /// 5,000 seeded moves on decks of 1 to 40 cards (both ends, neighbours, no move at all): the O(1) update gives
    /// the sum over the whole new order.
    @Test func aMoveUpdatesLikeTheWholeSum() {
        var generator = SplitMix64(seed: 0x0C4E_C500)
        for round in 0..<5_000 {
            let count = 1 + Int(generator.next() % 40)
            var ids = (0..<count).map { _ in CardID(generator.next() >> (generator.next() % 2 == 0 ? 0 : 40)) }
            ids = Array(Set(ids))
            guard !ids.isEmpty else { continue }
            var checksum = OrderChecksum(ids)
            let from = Int(generator.next() % UInt64(ids.count))
            let to = Int(generator.next() % UInt64(ids.count))
            let card = ids.remove(at: from)
            ids.insert(card, at: to)
            checksum.moveCard(from: from, to: to, in: ids)
            #expect(checksum.value == OrderChecksum.of(ids), "round \(round): \(from)→\(to) in \(ids)")
        }
    }

    /// A diff of several moves, removals or insertions recomputes; one move updates; an empty diff changes nothing.
    @Test func aDiffUpdatesTheChecksum() throws {
        var current: [CardID] = [1, 2, 3, 4, 5, 6]
        var checksum = OrderChecksum(current)
        for next in [[2, 1, 3, 4, 5, 6], [2, 3, 4, 5, 1, 6], [6, 5, 4, 3, 2, 1], [6, 3, 7, 5], [6, 3, 7, 5]]
            as [[CardID]]
        {
            checksum.update(for: try ReorderDiff(from: current, to: next), to: next)
            #expect(checksum.value == OrderChecksum.of(next), "\(current) → \(next)")
            current = next
        }
    }

    /// The checksum eight cards at a time is the definition one card at a time: 3,000 seeded orders of 0 to 5,000
    /// cards (every remainder of eight, blocks of 1,024 and their edges), ids from the whole 64-bit range and small,
    /// and eight of 131,072 to 141,073 cards, summed in two halves on two threads.
    @Test func eightAtATimeIsTheDefinition() {
        /// docs/protocol.md's formula, written here again one card at a time.
        func reference(_ ids: [CardID]) -> UInt32 {
            func mix(_ value: UInt32) -> UInt32 {
                var x = value
                x ^= x >> 16
                x &*= 0x85EB_CA6B
                x ^= x >> 13
                x &*= 0xC2B2_AE35
                return x ^ (x >> 16)
            }
            func key(_ id: CardID) -> UInt32 {
                let low = UInt32(truncatingIfNeeded: id.rawValue)
                let high = UInt32(truncatingIfNeeded: id.rawValue >> 32)
                return mix(low ^ mix(high ^ 0x9E37_79B9))
            }
            let keys = [0x6A09_E667] + ids.map(key) + [0x6A09_E667]
            return zip(keys, keys.dropFirst()).reduce(0) { $0 &+ mix($1.0 &* 0x9E37_79B1 &+ $1.1) }
        }
        var generator = SplitMix64(seed: 0x0C4E_C508)
        for round in 0..<3_008 {
            // The last eight rounds: both halves on their own threads (`TwoThreads`), odd and even lengths.
            let count =
                round >= 3_000
                ? TwoThreads.minimumCount + round % 2 + Int(generator.next() % 10_000)
                : round < 40 ? round : Int(generator.next() % (round % 10 == 0 ? 5_000 : 100))
            let ids = (0..<count).map { _ in CardID(generator.next() >> (round % 3 == 0 ? 44 : 0)) }
            #expect(OrderChecksum.of(ids) == reference(ids), "round \(round): \(count) cards")
        }
    }
}
