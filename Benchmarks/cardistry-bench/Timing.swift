#if canImport(Glibc)
    import Glibc
#endif

/// The median and minimum of repeated runs, in milliseconds.
struct Timing {
    var medianMs: Double
    var minMs: Double
    var runs: Int

    static let none = Timing(medianMs: .nan, minMs: .nan, runs: 0)
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
    for _ in 0..<max(1, runs) {
        let start = monotonicNanoseconds()
        let result = body()
        let end = monotonicNanoseconds()
        blackHole(result)
        samples.append(Double(end - start) / 1e6)
    }
    samples.sort()
    let middle = samples.count / 2
    let median = samples.count % 2 == 1 ? samples[middle] : (samples[middle - 1] + samples[middle]) / 2
    return Timing(medianMs: median, minMs: samples[0], runs: samples.count)
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
