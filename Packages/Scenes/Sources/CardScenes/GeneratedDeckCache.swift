import CardModels
import Synchronization

/// The most recent large generated deck (`DeckGenerator.deck(count:)`) and its key ranks, kept for the process, so
/// that reopening the same generated deck — `scene.close` then `scene.open {cardCount}` restoring its saved order —
/// takes the cards, their id index and every key's ranks as they were instead of regenerating a million cards,
/// hashing every id again and ranking every key again (three quarters of a reopen of a million cards).
///
/// A `Deck` and its ranks are values whose storage is shared, so the reopened scene holds the same memory as the
/// first one (its resident size after a reopen is a fresh open's), and the cache adds nothing while a scene holds
/// them. It keeps one deck: a generated deck of another size replaces it. Only decks of more than
/// `DeckScene.persistListLimit` cards are kept; smaller ones cost little to generate. Thread-safe.
final class GeneratedDeckCache: Sendable {
    /// The process's cache, which the deck scene uses.
    static let shared = GeneratedDeckCache()

    private struct Entry: Sendable {
        var count: Int
        var deck: Deck
        var ranks: DeckOrder.Ranks
    }

    private let last = Mutex<Entry?>(nil)

    /// The generated deck of `count` cards and the ranks cached with it, generating the deck when it is not the one
    /// kept. O(1) when kept, else `DeckGenerator.deck(count:)`'s O(n).
    func deck(count: Int) -> (deck: Deck, ranks: DeckOrder.Ranks) {
        if count > DeckScene.persistListLimit, let entry = last.withLock({ $0 }), entry.count == count {
            return (entry.deck, entry.ranks)
        }
        return (DeckGenerator.deck(count: count), DeckOrder.Ranks())
    }

    /// Keeps `deck` (generated with `count` cards) and the ranks computed for it. O(1).
    func remember(count: Int, deck: Deck, ranks: DeckOrder.Ranks) {
        guard count > DeckScene.persistListLimit else { return }
        last.withLock { $0 = Entry(count: count, deck: deck, ranks: ranks) }
    }
}
