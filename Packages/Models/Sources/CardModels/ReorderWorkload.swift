/// The seeded reorder workloads that the diff's property tests and benchmarks share.
package enum ReorderWorkload: String, Sendable, CaseIterable {
    /// 1 % of the keys (at least one) removed and reinserted at random positions.
    case move1
    /// A uniform random permutation (Fisher–Yates).
    case shuffle
    /// The order reversed.
    case reverse
    /// 20 % of the keys deleted, 10 % new keys inserted at random positions, then 2 % of the positions shuffled
    /// among themselves.
    case churn

    /// The new order for `old` under this workload. `makeKey` supplies fresh keys for insertions (churn only);
    /// it must never return a key already in use. O(n) expected.
    package func apply<Key: Hashable>(
        to old: [Key], using generator: inout SplitMix64, makeKey: (inout SplitMix64) -> Key
    ) -> [Key] {
        var keys = old
        let count = keys.count
        switch self {
        case .move1:
            guard count > 1 else { return keys }
            let moving = max(1, count / 100)
            var taken: [Key] = []
            for _ in 0..<moving {
                taken.append(keys.remove(at: Int(generator.next() % UInt64(keys.count))))
            }
            for key in taken { keys.insert(key, at: Int(generator.next() % UInt64(keys.count + 1))) }
        case .shuffle:
            keys.shuffle(using: &generator)
        case .reverse:
            keys.reverse()
        case .churn:
            let deletions = count / 5
            for _ in 0..<deletions {
                keys.swapAt(Int(generator.next() % UInt64(keys.count)), keys.count - 1)
                keys.removeLast()
            }
            // The swap-remove above scrambles order; rebuild survivors in their old order.
            let survivors = Set(keys)
            keys = old.filter { survivors.contains($0) }
            for _ in 0..<(count / 10) {
                keys.insert(makeKey(&generator), at: Int(generator.next() % UInt64(keys.count + 1)))
            }
            let shuffled = max(keys.count / 50, keys.count > 1 ? 2 : 0)
            var positions = Set<Int>()
            while positions.count < shuffled { positions.insert(Int(generator.next() % UInt64(keys.count))) }
            let slots = positions.sorted()
            var values = slots.map { keys[$0] }
            values.shuffle(using: &generator)
            for (slot, value) in zip(slots, values) { keys[slot] = value }
        }
        return keys
    }
}
