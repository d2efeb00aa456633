/// What can go wrong when building or changing cards and decks. A throwing operation leaves its value unchanged.
public enum ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The same card id appears twice (in a deck, or in an order handed to the reorder diff).
    case duplicateID(CardID)
    /// The same key appears twice in an order handed to the reorder diff (for keys that are not card ids).
    case duplicateKey(String)
    /// No card with this id is in the deck.
    case unknownID(CardID)
    /// An index outside `0..<limit` (or `0...limit` for an insertion).
    case indexOutOfRange(index: Int, limit: Int)
    /// A student must have exactly ten scores.
    case wrongScoreCount(Int)
    /// A diff does not fit the deck it is applied to.
    case diffMismatch(String)
    /// An order longer than the diff handles (2^29 − 1 keys).
    case tooLarge(Int)

    public var description: String {
        switch self {
        case .duplicateID(let id): "duplicate card id \(id)"
        case .duplicateKey(let key): "duplicate key \(key)"
        case .unknownID(let id): "no card with id \(id)"
        case .indexOutOfRange(let index, let limit): "index \(index) is out of range (limit \(limit))"
        case .wrongScoreCount(let count): "a student has exactly 10 scores, got \(count)"
        case .diffMismatch(let reason): "the diff does not fit the deck: \(reason)"
        case .tooLarge(let count): "\(count) keys are more than the reorder diff handles (536,870,911)"
        }
    }
}
