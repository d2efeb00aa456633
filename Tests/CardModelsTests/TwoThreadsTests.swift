import Dispatch
import Synchronization
import Testing

@testable import CardModels

/// `TwoThreads.run` hands the second part to a thread of its own (`TwoThreadsWorker`), which the caller races for
/// it: whoever claims it runs it. These tests hold the contract the sorts and diffs rely on — each part runs once,
/// both have finished when `run` returns, and a run nested in a part or made from several threads at once still
/// does both parts — and show that the second part really runs beside the first.
@Suite struct TwoThreadsTests {
    /// Each part runs exactly once and its writes are visible when `run` returns, over thousands of runs of
    /// seeded sizes (below and above `TwoThreads.minimumCount`): each part stamps the ends of its half of a buffer
    /// (32 slots at each end: enough to see a part that ran late or twice, few enough for thousands of runs).
    @Test func everyRunDoesEachPartOnceAndReturnsAfterBoth() {
        var generator = SplitMix64(seed: 2_911)
        let capacity = TwoThreads.minimumCount + 4_096
        let buffer = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        nonisolated(unsafe) let shared = buffer
        func ends(of range: Range<Int>) -> [Int] {
            Array(Set(Array(range.prefix(32)) + Array(range.suffix(32)))).sorted()
        }
        for round in 0..<5_000 {
            let count =
                round % 3 == 0
                ? 64 + Int(generator.next() % 1_000) : TwoThreads.minimumCount + Int(generator.next() % 4_096)
            let calls = Atomic<Int>(0)
            let stamp = UInt32(truncatingIfNeeded: round &+ 1) << 1
            TwoThreads.run(count: count) { part in
                calls.add(1 << (part * 8), ordering: .relaxed)
                for index in ends(of: TwoThreads.half(part, of: count)) { shared[index] = stamp | UInt32(part) }
            }
            let callCount = calls.load(ordering: .relaxed)
            #expect(callCount == 0x101, "round \(round): each part once")
            for part in 0..<2 {
                let wrong = ends(of: TwoThreads.half(part, of: count)).first { buffer[$0] != stamp | UInt32(part) }
                #expect(
                    wrong == nil, "round \(round): slot \(wrong ?? -1) not written by part \(part) before run returned")
            }
        }
    }

    /// A run inside a part (the worker is taken) runs both of its parts, on the thread that made it.
    @Test func aRunNestedInAPartStillDoesBothParts() {
        let inner = Mutex<[Int]>([])
        TwoThreads.run(count: TwoThreads.minimumCount) { outer in
            TwoThreads.run(count: TwoThreads.minimumCount) { part in
                inner.withLock { $0.append(outer * 10 + part) }
            }
        }
        #expect(inner.withLock { $0.sorted() } == [0, 1, 10, 11])
    }

    /// Runs from several threads at once share one worker: each gets both parts done, whoever runs them.
    @Test func runsFromSeveralThreadsAtOnceAllFinish() {
        let totals = Mutex<[Int]>(Array(repeating: 0, count: 4))
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for _ in 0..<500 {
                let count = Atomic<Int>(0)
                TwoThreads.run(count: TwoThreads.minimumCount) { part in count.add(part + 1, ordering: .relaxed) }
                totals.withLock { $0[thread] += count.load(ordering: .relaxed) }
            }
        }
        #expect(totals.withLock { $0 } == [1_500, 1_500, 1_500, 1_500])
    }

    /// The second part runs beside the first: part 0 waits for part 1 to start before it returns. Run one after the
    /// other on the calling thread, part 1 could never start, and the wait would give up (after ten seconds, a
    /// guard against hanging the suite, not a measurement). A worker of its own, so that the other tests' runs
    /// (which would find the shared one taken and run serially) cannot make it fail.
    #if canImport(Glibc)
        @Test func theSecondPartRunsBesideTheFirst() {
            guard TwoThreads.hasTwoProcessors else { return }
            let worker = Self.ownWorker
            for round in 0..<20 {
                let started = DispatchSemaphore(value: 0)
                let sawPartOne = Atomic<Bool>(false)
                worker.run { part in
                    if part == 0 {
                        sawPartOne.store(started.wait(timeout: .now() + 10) == .success, ordering: .relaxed)
                    } else {
                        started.signal()
                    }
                }
                let besides = sawPartOne.load(ordering: .relaxed)
                #expect(besides, "round \(round): part 1 did not start while part 0 ran")
                guard besides else { return }
            }
        }

        static let ownWorker = TwoThreadsWorker()
    #endif
}
