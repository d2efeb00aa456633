/// The order a view tree paints in, as SwiftUI composites it: a node, then its children in ascending `zIndex`
/// (ties in layout order) each followed by its own subtree, then the node's next sibling. `zIndex` orders siblings
/// only, so a later sibling and all of its descendants paint over an earlier sibling and all of its descendants.
enum PaintOrder {
    /// One node's place in the tree: the position of its parent in the same list (nil for a root, or a parent
    /// that is not in the list), its sibling-relative z index, and its index in layout order.
    struct Entry {
        var parent: Int?
        var zIndex: Double
        var layoutIndex: Int
    }

    /// The permutation of `entries` into paint order. A cycle of parents (which a scene must not make) is broken
    /// by painting its nodes as roots. O(n log n); O(n) when the list is already in paint order.
    static func order(_ entries: [Entry]) -> [Int] {
        let count = entries.count
        var isFlat = true
        for entry in entries where entry.parent != nil {
            isFlat = false
            break
        }
        if isFlat {
            // Every node is a root: a stable sort by (zIndex, layout index), skipped when already sorted.
            let sorted = zip(entries, entries.dropFirst()).allSatisfy { precedes($0, $1) || !precedes($1, $0) }
            if sorted { return Array(0..<count) }
            return (0..<count).sorted { left, right in
                precedes(entries[left], entries[right]) || (!precedes(entries[right], entries[left]) && left < right)
            }
        }
        // Children lists, each sorted by (zIndex, layout index); then an iterative depth-first walk from the roots.
        var children = [[Int]](repeating: [], count: count)
        var roots: [Int] = []
        for index in 0..<count {
            if let parent = entries[index].parent, parent >= 0, parent < count, parent != index {
                children[parent].append(index)
            } else {
                roots.append(index)
            }
        }
        func sortSiblings(_ siblings: inout [Int]) {
            siblings.sort { left, right in
                precedes(entries[left], entries[right]) || (!precedes(entries[right], entries[left]) && left < right)
            }
        }
        sortSiblings(&roots)
        var order: [Int] = []
        order.reserveCapacity(count)
        var visited = [Bool](repeating: false, count: count)
        var stack: [Int] = []
        func walk(from root: Int) {
            stack.append(root)
            while let next = stack.popLast() {
                guard !visited[next] else { continue }
                visited[next] = true
                order.append(next)
                if children[next].count > 1 {
                    let siblings = children[next]
                    let sorted = zip(siblings, siblings.dropFirst()).allSatisfy { !precedes(entries[$1], entries[$0]) }
                    if !sorted { sortSiblings(&children[next]) }
                }
                stack.append(contentsOf: children[next].reversed())
            }
        }
        for root in roots { walk(from: root) }
        // Nodes never reached hang off a cycle of parents: paint each cycle from its first node.
        if order.count < count {
            for index in 0..<count where !visited[index] { walk(from: index) }
        }
        return order
    }

    /// Whether `a` paints before `b` among siblings: a lower zIndex, or an equal one earlier in layout order.
    @inline(__always)
    static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        a.zIndex < b.zIndex || (a.zIndex == b.zIndex && a.layoutIndex < b.layoutIndex)
    }
}
