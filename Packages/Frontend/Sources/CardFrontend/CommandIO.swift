import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where a command writes, and whether it talks to a terminal. Tests capture output with `CommandIO.capture()`.
public struct CommandIO: Sendable {
    /// Writes text to standard output (or the test's buffer).
    public var out: @Sendable (String) -> Void
    /// Writes text to standard error (or the test's buffer).
    public var err: @Sendable (String) -> Void
    /// Whether standard input and standard output are both terminals.
    public var isTerminal: Bool

    /// An IO that writes standard output through `out` and standard error through `err`; `isTerminal` says whether
    /// both standard input and standard output are terminals.
    public init(
        out: @escaping @Sendable (String) -> Void,
        err: @escaping @Sendable (String) -> Void,
        isTerminal: Bool
    ) {
        self.out = out
        self.err = err
        self.isTerminal = isTerminal
    }

    /// The real standard streams, unbuffered at the line level (each call is one `write`).
    public static var standard: CommandIO {
        CommandIO(
            out: { writeAll(fd: 1, $0) },
            err: { writeAll(fd: 2, $0) },
            isTerminal: isatty(0) == 1 && isatty(1) == 1
        )
    }

    /// An IO that records everything written, for tests.
    package static func capture(isTerminal: Bool = false) -> (io: CommandIO, output: CapturedOutput) {
        let output = CapturedOutput()
        let io = CommandIO(
            out: { output.append(out: $0) },
            err: { output.append(err: $0) },
            isTerminal: isTerminal
        )
        return (io, output)
    }
}

/// Text captured from a command run in-process.
package final class CapturedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var outText = ""
    private var errText = ""

    /// Everything written to standard output so far.
    package var stdout: String { lock.withLock { outText } }
    /// Everything written to standard error so far.
    package var stderr: String { lock.withLock { errText } }

    func append(out text: String) { lock.withLock { outText += text } }
    func append(err text: String) { lock.withLock { errText += text } }
}

/// Writes every byte of `text` to `fd` (`POSIXIO.writeAll`); gives up quietly on an error (a closed pipe must not
/// crash the program: SIGPIPE is ignored by the commands that stream).
func writeAll(fd: Int32, _ text: String) {
    POSIXIO.writeAll(fd, text)
}

/// The name `CommandIO` had when every subcommand was called a front end.
@available(*, deprecated, renamed: "CommandIO")
public typealias FrontendIO = CommandIO
