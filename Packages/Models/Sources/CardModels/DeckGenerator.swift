/// Seeded generation of large decks, for large-deck scenes, tests and benchmarks.
public enum DeckGenerator {
    /// The palette generated cards cycle through (the deck seed's colourful cards).
    public static let palette: [RGBColor] = [
        .red, .orange, .yellow, .green, .mint, .teal, .cyan, .blue, .indigo, .purple, .pink, .brown,
    ]

    /// A deck of `count` plain cards, the same for the same `seed`.
    ///
    /// Ids are `mix64(seed &+ i)`: a bijection of distinct inputs, so the ids are unique without a check and look
    /// random (as persisted ids do). Titles are `"Card <i+1>"`, colours come from `palette` at random,
    /// `sortOrder` is the position. O(count).
    public static func deck(count: Int, seed: UInt64 = 42) -> Deck {
        var generator = SplitMix64(seed: seed)
        var cards: [Card] = []
        cards.reserveCapacity(max(0, count))
        for index in 0..<max(0, count) {
            let color = palette[Int(generator.next() % UInt64(palette.count))]
            cards.append(
                Card(
                    id: CardID(mix64(seed &+ UInt64(index))), title: "Card \(index + 1)", color: color,
                    sortOrder: index))
        }
        // Unique by construction (mix64 is a bijection), so this cannot throw.
        return (try? Deck(cards)) ?? Deck()
    }
}
