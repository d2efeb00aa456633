import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

// The one restore path. Everything it touches is prepared before the terminal is changed and kept in plain
// globals, because it also runs inside signal handlers (SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE), where
// only async-signal-safe calls are allowed: `write(2)`, `tcsetattr(3)` and `tcflush(3)` are (POSIX.1-2017
// §2.4.3). `restoreActive` is read and cleared with one atomic exchange, so the path runs at most once per entry
// even if a signal interrupts it.

nonisolated(unsafe) private var savedAttributes = termios()
nonisolated(unsafe) private var restoreFD: Int32 = -1
nonisolated(unsafe) private var restoreBytes: UnsafeMutablePointer<UInt8>?
nonisolated(unsafe) private var restoreByteCount = 0
/// 1 while the terminal is in TUI mode and must be restored (lock-free, so usable in a signal handler).
private let restoreActive = Atomic<Int32>(0)
/// The write end of the self-pipe that carries signal numbers to the run loop.
nonisolated(unsafe) var signalPipeWriteFD: Int32 = -1

/// The TUI's terminal restore: prepared once, armed on entry, run exactly once on any exit.
enum TerminalRestore {
    /// Records the attributes to restore and the bytes to send (the first session's: a process has one). Call
    /// before changing anything.
    static func prepare(fd: Int32, attributes: termios, bytes: [UInt8]) {
        savedAttributes = attributes
        restoreFD = fd
        if restoreBytes == nil {
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
            buffer.initialize(from: bytes, count: bytes.count)
            restoreBytes = buffer
            restoreByteCount = bytes.count
        }
        // Touch the atomic here so its lazy initialisation never happens inside a signal handler.
        _ = restoreActive.load(ordering: .sequentiallyConsistent)
    }

    /// Marks the terminal as changed (restore will do its work).
    static func arm() {
        restoreActive.store(1, ordering: .sequentiallyConsistent)
    }

    /// Turns every mode off, returns to the main screen, shows the cursor, restores the saved termios and
    /// flushes pending input. Does nothing when not armed. Async-signal-safe.
    static func run() {
        let wasActive = restoreActive.exchange(0, ordering: .sequentiallyConsistent)
        guard wasActive == 1, restoreFD >= 0 else { return }
        if let restoreBytes {
            var offset = 0
            var attempts = 0
            while offset < restoreByteCount && attempts < 64 {
                let written = write(restoreFD, restoreBytes + offset, restoreByteCount - offset)
                attempts += 1
                if written > 0 { offset += written } else if written < 0 && errno != EINTR && errno != EAGAIN { break }
            }
        }
        _ = tcsetattr(restoreFD, TCSAFLUSH, &savedAttributes)
        _ = tcflush(restoreFD, TCIFLUSH)
    }
}
