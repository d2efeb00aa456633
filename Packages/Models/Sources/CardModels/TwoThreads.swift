import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// O(n) work over a large deck split between the calling thread and a second thread (`TwoThreadsWorker` on Linux,
/// one of Dispatch's workers elsewhere).
///
/// The passes of a million-card sort and of its diff are bound by memory, not arithmetic (scattering 8 MB arrays
/// at random, a patience sort over the new order's sources), and most split in two halves that write disjoint
/// elements or are independent of each other. While a host waits for the reply, the second core is idle, so two
/// threads do them in about half the time. Below `minimumCount` elements both parts run on the calling thread: a
/// sort makes six hand-offs, the first of each request waking a sleeping thread, and at 100,000 cards (65,536 was
/// tried) they saved under a millisecond on a quiet machine while with another process busy on one core the same
/// sort took up to twice as long from run to run (`cardistry-bench --repeat 5`, drift 1.4–2.3 against 1.03–1.35 on one thread).
///
/// `run(count:_:)` returns when both parts have returned, so the parts may write into any buffer the caller owns
/// as long as they write disjoint elements. With one core free the parts simply run one after the other (the
/// caller takes the second part itself when the other thread has not started it), with the same result; with one
/// processor online they always do.
public enum TwoThreads {
    /// The fewest elements whose work `run(count:_:)` splits between two threads.
    public static let minimumCount = 1 << 17

    /// Runs `part(0)` and `part(1)` — at once on two threads when `count` is at least `minimumCount`, otherwise
    /// one after the other on this one — and returns when both have.
    public static func run(count: Int, _ part: (Int) -> Void) {
        if count >= minimumCount, hasTwoProcessors {
            #if canImport(Glibc)
                // The closure does not outlive this call: the worker has finished with it when `run` returns.
                withoutActuallyEscaping(part) { part in TwoThreadsWorker.shared.run(part) }
            #else
                // `concurrentPerform` wants a sendable closure; the parts only share what the caller keeps alive,
                // and the closure does not outlive this call.
                withoutActuallyEscaping(part) { part in
                    let shared = Unchecked(part)
                    DispatchQueue.concurrentPerform(iterations: 2) { shared.value($0) }
                }
            #endif
        } else {
            part(0)
            part(1)
        }
    }

    /// Whether the process may run on two processors or more (the ones online; with one, a second thread would only
    /// take turns with the first).
    static let hasTwoProcessors: Bool = {
        #if canImport(Glibc)
            sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1
        #else
            true
        #endif
    }()

    /// The half of `0..<count` that `part` (0 or 1) covers: the first `count / 2` elements, or the rest.
    public static func half(_ part: Int, of count: Int) -> Range<Int> {
        part == 0 ? 0..<count / 2 : count / 2..<count
    }
}

/// A closure handed to the other thread of `TwoThreads.run(count:_:)`, which joins it before returning.
private struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
