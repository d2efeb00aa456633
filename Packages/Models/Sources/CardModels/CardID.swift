/// The stable identity of a card: a 64-bit value, unique within a deck and persisted with it.
///
/// The reorder diff hashes ids with one multiply-xorshift mix of the raw value (`ReorderKey`); `Dictionary` and
/// `Set` go through the standard `Hasher` (SipHash over the 8 bytes); `Deck`'s O(1) index hashes with `mix64` instead
/// (`CardIndexTable`).
/// In JSON a `CardID` is a decimal string (`"42"`), so that hosts whose numbers are doubles (JavaScript)
/// never lose precision above 2^53; decoding also accepts a non-negative integer.
public struct CardID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The raw 64-bit value.
    public var rawValue: UInt64

    /// The id with this raw value.
    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public init(integerLiteral value: UInt64) {
        self.rawValue = value
    }

    /// Parses a decimal string such as `"42"`; nil for anything else.
    public init?(_ text: some StringProtocol) {
        guard let value = UInt64(text) else { return nil }
        self.rawValue = value
    }

    /// A card id written the way the protocol writes one (`description`): decimal digits, no sign, no leading
    /// zero ("0" alone is card 0); nil for anything else ("00401", "+5", " 7"), so that a host's id and the id the
    /// server sends back are the same string.
    public static func canonical(_ text: some StringProtocol) -> CardID? {
        let bytes = text.utf8
        guard let first = bytes.first, first != UInt8(ascii: "0") || bytes.count == 1,
            bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return CardID(text)
    }

    public var description: String { String(rawValue) }

    public static func < (lhs: CardID, rhs: CardID) -> Bool { lhs.rawValue < rhs.rawValue }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            guard let id = CardID(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "a card id must be a decimal string of 0…2^64−1, got '\(text)'")
            }
            self = id
        } else {
            self.rawValue = try container.decode(UInt64.self)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(String(rawValue))
    }
}
