import CardEngine
import CardJSON
import CardModels
import Foundation
import Testing

/// What a host does with a `deck.changed` diff (docs/protocol.md, "Deck orders"): applies the batch reading of
/// `{removals, insertions, moves}` (a pure reorder in these tests), or the base64 `sources` of a large reorder.
enum HostOrder {
    struct Unreadable: Error {}

    static func applying(_ diff: JSONValue, to order: [CardID]) throws -> [CardID] {
        if let text = diff["sources"]?.stringValue {
            guard let data = Data(base64Encoded: text), data.count == order.count * 4 else { throw Unreadable() }
            return data.withUnsafeBytes { raw in
                (0..<order.count).map { slot in
                    order[Int(raw.loadUnaligned(fromByteOffset: slot * 4, as: UInt32.self).littleEndian)]
                }
            }
        }
        guard let pairs = diff["moves"]?.arrayValue else { throw Unreadable() }
        let moves = pairs.map { pair in
            ReorderDiff.Move(
                from: pair.arrayValue?.first?.integerValue ?? -1, to: pair.arrayValue?.last?.integerValue ?? -1)
        }
        return try ReorderDiff(oldCount: order.count, newCount: order.count, removals: [], insertions: [], moves: moves)
            .applied(to: order, inserting: [])
    }
}
