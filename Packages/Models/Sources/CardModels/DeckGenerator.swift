/// Seeded generation of large decks, for large-deck scenes, tests and benchmarks.
public enum DeckGenerator {
    /// The palette generated cards cycle through (the deck seed's colourful cards).
    public static let palette: [RGBColor] = [
        .red, .orange, .yellow, .green, .mint, .teal, .cyan, .blue, .indigo, .purple, .pink, .brown,
    ]

    /// A deck of `count` plain cards, the same for the same `seed`.
    ///
    /// Ids are `mix64(seed &+ i)`: a bijection of distinct inputs, so the ids are unique without a check and look
    /// random (as persisted ids do), and the deck finds an id's card by inverting the mix instead of building a
    /// table (`Deck.init(generated:seed:)`). Titles are `"Card <i+1>"`, colours come from `palette` at random,
    /// `sortOrder` is the position. O(count).
    public static func deck(count: Int, seed: UInt64 = 42) -> Deck {
        var generator = SplitMix64(seed: seed)
        let count = max(0, count)
        let cards = [Card](unsafeUninitializedCapacity: count) { cards, initialized in
            for index in 0..<count {
                let color = palette[Int(generator.next() % UInt64(palette.count))]
                (cards.baseAddress! + index).initialize(
                    to: Card(
                        id: CardID(mix64(seed &+ UInt64(index))), title: title(number: index + 1), color: color,
                        sortOrder: index))
            }
            initialized = count
        }
        return Deck(generated: cards, seed: seed)
    }

    /// `"Card <number>"`, written digit by digit into the string's own bytes (a small string, no allocation, for
    /// numbers below 10^10), which takes a third of the time of string interpolation. O(digits).
    static func title(number: Int) -> String {
        var digits = 1
        var rest = number / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        return String(unsafeUninitializedCapacity: 5 + digits) { bytes in
            (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4]) = (0x43, 0x61, 0x72, 0x64, 0x20)  // "Card "
            var value = number
            for offset in stride(from: 4 + digits, through: 5, by: -1) {
                bytes[offset] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
                value /= 10
            }
            return 5 + digits
        }
    }
}
