#if canImport(Glibc)
    import Glibc
#endif

/// The median and minimum of repeated runs, in milliseconds.
struct Timing {
    var medianMs: Double
    var minMs: Double
    var runs: Int

    static let none = Timing(medianMs: .nan, minMs: .nan, runs: 0)

    init(medianMs: Double, minMs: Double, runs: Int) {
        self.medianMs = medianMs
        self.minMs = minMs
        self.runs = runs
    }

    /// The median and minimum of `samples` (milliseconds; at least one).
    init(samples: [Double]) {
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        medianMs = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        minMs = sorted[0]
        runs = sorted.count
    }
}

/// Monotonic nanoseconds (CLOCK_MONOTONIC). Benchmarks only: the engine and its tests never read a clock.
func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Keeps the optimiser from discarding a result.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Runs `body` `warmup` times unmeasured, then `runs` times measured; `body` returns a value that is kept alive.
func measure<T>(runs: Int, warmup: Int = 1, _ body: () -> T) -> Timing {
    for _ in 0..<warmup { blackHole(body()) }
    var samples: [Double] = []
    samples.reserveCapacity(runs)
    for _ in 0..<max(1, runs) { samples.append(milliseconds(body)) }
    return Timing(samples: samples)
}

/// One timed run of `body`, in milliseconds (its result kept alive).
func milliseconds<T>(_ body: () -> T) -> Double {
    let start = monotonicNanoseconds()
    let result = body()
    let end = monotonicNanoseconds()
    blackHole(result)
    return Double(end - start) / 1e6
}

/// Measures two bodies side by side: after `warmup` unmeasured runs of each, `runs` rounds that each time both, the
/// order swapped every round. The machines are noisy — a neighbour's load or a clock change shifts every run made
/// while it lasts — so two timings taken one after the other can differ by more than the code does; interleaved,
/// both see the same conditions, and their ratio is what the code costs.
func measureSideBySide<A, B>(runs: Int, warmup: Int = 1, _ first: () -> A, _ second: () -> B) -> (Timing, Timing) {
    for _ in 0..<warmup {
        blackHole(first())
        blackHole(second())
    }
    var firstSamples: [Double] = []
    var secondSamples: [Double] = []
    for round in 0..<max(1, runs) {
        if round % 2 == 0 {
            firstSamples.append(milliseconds(first))
            secondSamples.append(milliseconds(second))
        } else {
            secondSamples.append(milliseconds(second))
            firstSamples.append(milliseconds(first))
        }
    }
    return (Timing(samples: firstSamples), Timing(samples: secondSamples))
}

/// Writes all of `text` to a file descriptor, retrying short writes.
func writeAll(_ fd: Int32, _ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0 {
            if errno == EINTR { continue }
            return
        }
        offset += written
    }
}

func writeStandardOutput(_ text: String) { writeAll(1, text) }
func writeStandardError(_ text: String) { writeAll(2, text) }
