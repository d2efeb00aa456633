/// A buffer's base address, for both parts of `TwoThreads.run(count:_:)` (which write disjoint elements and are
/// joined before the caller reads them): a sort writing its result arrays from two threads.
struct SharedPointer<Element> {
    let base: UnsafeMutablePointer<Element>

    init(_ buffer: UnsafeMutableBufferPointer<Element>) {
        // An empty buffer's base may be nil; nothing then reads or writes through it.
        base = buffer.baseAddress ?? UnsafeMutablePointer(bitPattern: MemoryLayout<Element>.alignment)!
    }

    subscript(index: Int) -> Element {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }
}
