import CardFrontend

#if canImport(Glibc)
    import Glibc
#endif

/// Why the terminal could not be used.
public enum TerminalError: Error, Sendable, Hashable, CustomStringConvertible {
    case notATerminal
    case system(call: String, errno: Int32)

    public var description: String {
        switch self {
        case .notATerminal: "standard input and output must be a terminal"
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        }
    }
}

/// Signals the run loop reacts to, delivered through a self-pipe.
public enum TerminalSignal: Sendable, Hashable {
    case interrupt, terminate, hangup, suspend, resume, resize

    init?(_ number: Int32) {
        switch number {
        case SIGINT: self = .interrupt
        case SIGTERM: self = .terminate
        case SIGHUP: self = .hangup
        case SIGTSTP: self = .suspend
        case SIGCONT: self = .resume
        case SIGWINCH: self = .resize
        default: return nil
        }
    }

    var number: Int32 {
        switch self {
        case .interrupt: SIGINT
        case .terminate: SIGTERM
        case .hangup: SIGHUP
        case .suspend: SIGTSTP
        case .resume: SIGCONT
        case .resize: SIGWINCH
        }
    }
}

/// Writes the signal number to the self-pipe (async-signal-safe: only `write(2)`, errno preserved).
private let forwardSignal: @convention(c) (Int32) -> Void = { number in
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteFD, &byte, 1)
    errno = savedErrno
}

/// Restores the terminal, then lets the fatal signal take its default course (a core dump, a trap message).
private let restoreOnFatalSignal: @convention(c) (Int32) -> Void = { number in
    TerminalRestore.run()
    signal(number, SIG_DFL)
    raise(number)
}

/// The controlling terminal in TUI mode: raw input, the alternate screen, mouse reporting; and the signals that
/// must restore it. Every way out — `leave()`, an interrupting or terminating signal, a fatal signal — goes
/// through `TerminalRestore.run()`.
public final class TerminalSession {
    public let inputFD: Int32
    public let outputFD: Int32
    private var original = termios()
    private var signalPipe: (read: Int32, write: Int32) = (-1, -1)
    private var entered = false
    /// The screen-reader mode's session (`linear`): raw keys, but no screen modes, no escape sequences in or out.
    private let linear: Bool
    /// Whether `enter()` shows the cursor (`--show-cursor`) after the TUI modes, which hide it: a braille display
    /// or a screen reader that follows the cursor then sees it where it rests, on the focused item.
    public var showsCursor = false

    static let forwardedSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGWINCH]
    static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    /// Opens the session on `input`/`output` (both must be terminals). Nothing changes until `enter()`. A `linear`
    /// session (the screen-reader mode) reads raw keys but sends the terminal nothing: no alternate screen, no
    /// mouse or cursor modes, nothing to undo on the way out but the terminal's attributes; and output keeps its
    /// line endings (a newline starts a new line).
    public init(input: Int32 = 0, output: Int32 = 1, linear: Bool = false) throws(TerminalError) {
        guard isatty(input) == 1, isatty(output) == 1 else { throw .notATerminal }
        inputFD = input
        outputFD = output
        self.linear = linear
        guard tcgetattr(input, &original) == 0 else { throw .system(call: "tcgetattr", errno: errno) }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .system(call: "pipe", errno: errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        signalPipe = (fds[0], fds[1])
        signalPipeWriteFD = fds[1]
        TerminalRestore.prepare(fd: output, attributes: original, bytes: linear ? [] : ANSI.restore)
    }

    deinit {
        leave()
        if signalPipe.read >= 0 { close(signalPipe.read) }
    }

    /// Installs the signal handlers, switches to raw mode and sends the TUI modes. Calling it again (after a
    /// resume) re-applies everything.
    public func enter() throws(TerminalError) {
        installHandlers()
        var raw = original
        cfmakeraw(&raw)
        if linear { raw.c_oflag |= tcflag_t(OPOST | ONLCR) }
        TerminalRestore.arm()
        guard tcsetattr(inputFD, TCSAFLUSH, &raw) == 0 else {
            let code = errno
            TerminalRestore.run()
            throw .system(call: "tcsetattr", errno: code)
        }
        if !linear { write(showsCursor ? ANSI.enter + ANSI.showCursor : ANSI.enter) }
        entered = true
    }

    /// Restores the terminal (the one restore path) and the default signal dispositions.
    public func leave() {
        TerminalRestore.run()
        guard entered else { return }
        entered = false
        for number in Self.forwardedSignals + Self.fatalSignals { signal(number, SIG_DFL) }
    }

    /// Suspends the process like Ctrl-Z in a shell: restore, stop, and on continuing enter TUI mode again.
    public func suspend() {
        TerminalRestore.run()
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        // Execution continues here after SIGCONT.
        try? enter()
    }

    /// Ends the process because of `signal`, after restoring the terminal: the default action is re-raised so
    /// the parent sees the real cause.
    public func terminate(by signal: TerminalSignal) -> Never {
        leave()
        Glibc.signal(signal.number, SIG_DFL)
        raise(signal.number)
        exit(128 + signal.number)
    }

    private func installHandlers() {
        var action = sigaction()
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        action.__sigaction_handler.sa_handler = forwardSignal
        for number in Self.forwardedSignals { sigaction(number, &action, nil) }
        var fatal = sigaction()
        sigemptyset(&fatal.sa_mask)
        fatal.sa_flags = Int32(bitPattern: UInt32(truncatingIfNeeded: SA_RESETHAND))
        fatal.__sigaction_handler.sa_handler = restoreOnFatalSignal
        for number in Self.fatalSignals { sigaction(number, &fatal, nil) }
    }

    /// The terminal's size in cells (80 × 24 when it cannot be read).
    public func size() -> (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(outputFD, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Writes all of `bytes` with as few `write` calls as the kernel allows (one, normally).
    public func write(_ bytes: [UInt8]) {
        POSIXIO.writeAll(outputFD, bytes, retryingWouldBlock: true)
    }

    /// What woke `wait`.
    public struct Wake {
        public var input: [UInt8] = []
        public var signals: [TerminalSignal] = []
    }

    /// Waits up to `timeout` seconds (forever when nil) for input or a signal, and returns what arrived.
    public func wait(timeout: Double?) -> Wake {
        var fds = [
            pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signalPipe.read, events: Int16(POLLIN), revents: 0),
        ]
        let milliseconds: Int32 = timeout.map { Int32(min(max(($0 * 1000).rounded(.up), 0), 60_000)) } ?? -1
        var wake = Wake()
        let ready = poll(&fds, 2, milliseconds)
        guard ready > 0 else { return wake }
        if fds[1].revents & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(signalPipe.read, &buffer, buffer.count)
            if count > 0 { wake.signals = buffer[0..<count].compactMap { TerminalSignal(Int32($0)) } }
        }
        if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(inputFD, &buffer, buffer.count)
            if count > 0 {
                wake.input = Array(buffer[0..<count])
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                wake.signals.append(.hangup)  // The terminal went away.
            }
        }
        return wake
    }
}
