import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Why the serving loop must stop, set from other threads (the SIGTERM handler, the writer) and a pipe that wakes
/// the loop out of `poll` when one is set. Thread-safe.
final class StopFlags: Sendable {
    let terminated = Atomic<Bool>(false)
    let outputClosed = Atomic<Bool>(false)
    /// `poll` watches `wakeRead`; a byte written to `wakeWrite` wakes it.
    let wakeRead: Int32
    let wakeWrite: Int32

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
            _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    var shouldStop: Bool { terminated.load(ordering: .acquiring) || outputClosed.load(ordering: .acquiring) }

    func terminate() {
        terminated.store(true, ordering: .releasing)
        wake()
    }

    func closeOutput() {
        outputClosed.store(true, ordering: .releasing)
        wake()
    }

    /// Wakes the loop out of `poll` without a reason to stop (it looks at what changed, as after any wake-up).
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }
}
