import CardFrontend

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

/// Monotonic nanoseconds (`POSIXIO.monotonicNanoseconds`). Benchmarks only: the engine and its tests never read a
/// clock.
func monotonicNanoseconds() -> UInt64 { POSIXIO.monotonicNanoseconds() }

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

/// Writes all of `text` to a file descriptor, retrying short and interrupted writes.
func writeAll(_ fd: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { FileIO.writeAll(fd, $0.baseAddress!, $0.count) }
}

/// The benchmark's one read loop and one write loop on file descriptors, each retrying short and interrupted calls.
enum FileIO {
    /// Reads exactly `count` bytes; false at end of file or on an error.
    static func readAll(_ fd: Int32, _ base: UnsafeMutableRawPointer, _ count: Int) -> Bool {
        var offset = 0
        while offset < count {
            let got = read(fd, base + offset, count - offset)
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { return false }
            offset += got
        }
        return true
    }

    /// Writes all `count` bytes (`POSIXIO.writeAll`); false on an error.
    static func writeAll(_ fd: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Bool {
        POSIXIO.writeAll(fd, UnsafeRawBufferPointer(start: base, count: count))
    }
}

func writeStandardOutput(_ text: String) { writeAll(1, text) }
func writeStandardError(_ text: String) { writeAll(2, text) }
