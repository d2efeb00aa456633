/// Card id → position in a deck: an open-addressing hash table with linear probing over two flat arrays (the ids
/// and their positions), which `Deck` keeps as its O(1) index.
///
/// `Dictionary<CardID, Int>` hashes every id with SipHash through `Hasher` and keeps its entries in nodes of 16
/// bytes; building its index of a generated million-card deck was 40% of opening the deck in a new process (issue
/// 48). Here an id is hashed with one `mix64` of the id plus a per-process random seed (so that a host cannot
/// choose ids that collide, as it could against a fixed hash), a slot is 12 bytes, and the table is at most half
/// full.
///
/// - Lookup, insertion, update: expected O(1) (linear probing at load ≤ ½ probes about 1.5 slots on a hit).
/// - Removal: expected O(1), by backward-shift deletion (no tombstones, so lookups never slow down).
/// - Growth doubles the capacity and reinserts: O(n), amortised O(1) per insertion.
///
/// `_checkInvariants()` checks, in debug builds, that every stored id is reachable from its home slot.
struct CardIndexTable: Sendable {
    /// The ids in their slots (meaningless where `positions` is `emptySlot`).
    private var keys: [UInt64]
    /// The position of the id in the same slot, or `emptySlot`.
    private var positions: [Int32]
    /// The number of ids stored.
    private(set) var count = 0
    /// `keys.count − 1`; the capacity is a power of two.
    private var mask: Int

    private static let emptySlot: Int32 = -1
    /// Added to every id before mixing, chosen once per process, as `Hasher`'s seed is.
    private static let seed = UInt64.random(in: .min ... .max)

    /// An empty table with room for `capacity` ids before it grows. O(capacity).
    init(capacity: Int = 0) {
        var slots = 8
        while slots < 2 * capacity { slots <<= 1 }
        keys = [UInt64](repeating: 0, count: slots)
        positions = [Int32](repeating: Self.emptySlot, count: slots)
        mask = slots - 1
    }

    /// The slot where the probe for `raw` starts, in a table of `mask + 1` slots.
    @inline(__always)
    private static func home(_ raw: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: mix64(raw &+ seed)) & mask
    }

    /// The position stored for `id`, or nil. Expected O(1).
    func position(of id: CardID) -> Int? {
        keys.withUnsafeBufferPointer { keys in
            positions.withUnsafeBufferPointer { positions in
                var slot = Self.home(id.rawValue, mask: mask)
                while true {
                    let position = positions[slot]
                    if position == Self.emptySlot { return nil }
                    if keys[slot] == id.rawValue { return Int(position) }
                    slot = (slot + 1) & mask
                }
            }
        }
    }

    /// Stores `position` for `id`; returns the position it replaces, or nil when `id` was not stored. Expected O(1).
    @discardableResult
    mutating func updateValue(_ position: Int, forKey id: CardID) -> Int? {
        if 2 * (count + 1) > keys.count { grow() }
        let mask = mask
        var slot = Self.home(id.rawValue, mask: mask)
        let replaced: Int32? = keys.withUnsafeMutableBufferPointer { keys in
            positions.withUnsafeMutableBufferPointer { positions in
                while true {
                    let stored = positions[slot]
                    if stored == Self.emptySlot {
                        keys[slot] = id.rawValue
                        positions[slot] = Int32(truncatingIfNeeded: position)
                        return nil
                    }
                    if keys[slot] == id.rawValue {
                        positions[slot] = Int32(truncatingIfNeeded: position)
                        return stored
                    }
                    slot = (slot + 1) & mask
                }
            }
        }
        guard let replaced else {
            count += 1
            return nil
        }
        return Int(replaced)
    }

    /// Removes `id`, if stored, shifting back the ids after it in its probe run so that no lookup crosses a hole
    /// (Knuth's algorithm R). Expected O(1).
    mutating func remove(_ id: CardID) {
        let mask = mask
        var hole = Self.home(id.rawValue, mask: mask)
        let removed = keys.withUnsafeMutableBufferPointer { keys in
            positions.withUnsafeMutableBufferPointer { positions in
                while true {
                    if positions[hole] == Self.emptySlot { return false }
                    if keys[hole] == id.rawValue { break }
                    hole = (hole + 1) & mask
                }
                var slot = hole
                while true {
                    positions[hole] = Self.emptySlot
                    while true {
                        slot = (slot + 1) & mask
                        if positions[slot] == Self.emptySlot { return true }
                        let home = Self.home(keys[slot], mask: mask)
                        // The entry at `slot` may move back to `hole` unless its home lies cyclically in (hole, slot].
                        let stays = hole <= slot ? (hole < home && home <= slot) : (hole < home || home <= slot)
                        if !stays { break }
                    }
                    keys[hole] = keys[slot]
                    positions[hole] = positions[slot]
                    hole = slot
                }
            }
        }
        if removed { count -= 1 }
    }

    private mutating func grow() {
        var grown = CardIndexTable(capacity: keys.count)
        for slot in keys.indices where positions[slot] != Self.emptySlot {
            grown.updateValue(Int(positions[slot]), forKey: CardID(keys[slot]))
        }
        self = grown
    }

    /// Checks in debug builds that `count` ids are stored, each found from its home slot at its own position.
    /// O(capacity).
    func _checkInvariants() {
        #if DEBUG
            var stored = 0
            for slot in keys.indices where positions[slot] != Self.emptySlot {
                stored += 1
                precondition(
                    position(of: CardID(keys[slot])) == Int(positions[slot]), "id \(keys[slot]) is not reachable")
            }
            precondition(stored == count, "\(stored) ids stored, count says \(count)")
            precondition(2 * count <= keys.count, "the table is more than half full")
        #endif
    }
}
