/// A `cardistry` subcommand. Each lives in its own file and is listed once in `CLI.commands`.
public protocol Command: Sendable {
    /// The word that selects the command (`spring`, `deck`, …).
    var name: String { get }
    /// One line for the list in `cardistry --help`.
    var summary: String { get }
    /// The full usage text printed by `cardistry help NAME` and on a usage error.
    var usage: String { get }
    /// Runs the command with the arguments after its name; returns the exit status
    /// (0 success, 1 data or runtime error, 2 usage error).
    func run(_ arguments: [String], io: CommandIO) -> Int32
}

/// A usage error: the message is printed with the command's usage and the process exits with status 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ message: String) {
        self.description = message
    }
}
