internal import CardFrontendShims

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one write loop and the one monotonic clock of the front ends and the benchmarks (`package`: they are the
/// root package's, not the library's). The engine never reads a clock; the store writes through its own
/// `FileSystem` seam.
package enum POSIXIO {
    /// Writes every byte of `bytes` to `fd`, retrying short writes and EINTR (and EAGAIN when
    /// `retryingWouldBlock`: a terminal another process set non-blocking), and reports each write's count to
    /// `progress`. False when the descriptor fails otherwise (EPIPE, EBADF, …) or writes nothing; the caller
    /// decides whether that matters (a closed pipe must not crash: the commands that stream ignore SIGPIPE).
    @discardableResult
    package static func writeAll(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, retryingWouldBlock: Bool = false,
        progress: (Int) -> Void = { _ in }
    ) -> Bool {
        guard var pointer = bytes.baseAddress else { return true }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(fd, pointer, remaining)
            if written < 0 {
                if errno == EINTR || (retryingWouldBlock && errno == EAGAIN) { continue }
                return false
            }
            if written == 0 { return false }
            pointer += written
            remaining -= written
            progress(written)
        }
        return true
    }

    /// `writeAll` of an array's bytes.
    @discardableResult
    package static func writeAll(
        _ fd: Int32, _ bytes: [UInt8], retryingWouldBlock: Bool = false, progress: (Int) -> Void = { _ in }
    ) -> Bool {
        bytes.withUnsafeBytes { writeAll(fd, $0, retryingWouldBlock: retryingWouldBlock, progress: progress) }
    }

    /// `writeAll` of a string's UTF-8.
    @discardableResult
    package static func writeAll(_ fd: Int32, _ text: String) -> Bool {
        writeAll(fd, Array(text.utf8))
    }

    /// The process's reference instant for `monotonicSeconds`/`monotonicNanoseconds`.
    private static let origin = ContinuousClock.now

    /// Seconds on the monotonic clock (`ContinuousClock`) since an arbitrary instant early in the process; only
    /// differences mean anything.
    package static func monotonicSeconds() -> Double {
        // The origin first: a lazy static read after `now` would be initialised later than it, and the first
        // difference of a process would be negative.
        let start = origin
        let elapsed = (ContinuousClock.now - start).components
        return max(0, Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18)
    }

    /// `monotonicSeconds` in whole nanoseconds, for timing short intervals without rounding.
    package static func monotonicNanoseconds() -> UInt64 {
        let start = origin
        let elapsed = (ContinuousClock.now - start).components
        return UInt64(max(0, elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000))
    }

    /// Makes the pipe behind `fd` hold at least `bytes` (Linux's F_SETPIPE_SZ), asking for less, down to 128 KiB,
    /// when the system refuses that much (an unprivileged process may ask up to /proc/sys/fs/pipe-max-size, 1 MiB
    /// by default); never shrinks it. Returns its capacity afterwards; nil when `fd` is not a pipe or the system has
    /// no such call. A pipe holds 64 KiB by default, so a million-card sort's 5.3 MB `deck.changed` crossed it in
    /// 82 turns of the writer and the host's reader, each a wake-up; through 1 MiB it takes six (5.3 MB from a
    /// thread to a reader: 12–17 ms through 64 KiB and 2–4 ms through 1 MiB on this machine with a build running).
    @discardableResult
    package static func enlargePipe(_ fd: Int32, to bytes: Int) -> Int? {
        let current = cardistry_pipe_capacity(fd)
        guard current > 0 else { return nil }
        var asked = bytes
        while asked > current, asked >= 128 << 10 {
            let capacity = cardistry_pipe_set_capacity(fd, Int32(clamping: asked))
            if capacity > 0 { return Int(capacity) }
            asked /= 2
        }
        return Int(current)
    }
}
