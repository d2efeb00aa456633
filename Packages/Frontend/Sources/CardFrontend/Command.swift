/// A `cardistry` subcommand: a name on the command line, a summary and a usage text for `--help`, and a `run`
/// that returns the process's exit status.
///
/// Every subcommand is a command: the tools (`spring`, `deck`, `replay`) and the front ends (`tui`, `stdio`), which
/// are commands of a particular kind (`Frontend`). Each is listed once, by value, in the command line's
/// registration point (`CardistryCLI.CLI.commands`), from which the command line builds `--help` and dispatch.
public protocol Command: Sendable {
    /// The word that selects the command on the command line (`tui`, `deck`, …).
    var name: String { get }
    /// One line for the list in `cardistry --help`.
    var summary: String { get }
    /// The full usage text printed by `cardistry help NAME` and on a usage error.
    var usage: String { get }
    /// Runs the command with the arguments after its name and the process environment; returns the exit status
    /// (0 success, 1 data or runtime error, 2 usage error).
    func run(arguments: [String], environment: [String: String], io: CommandIO) -> Int32
}

/// A usage error: the message is printed with the command's usage and the process exits with status 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What was wrong with the command line, as one sentence without the program name.
    public var description: String

    /// A usage error saying `message`.
    public init(_ message: String) {
        self.description = message
    }
}

extension Command {
    /// Runs `body`, turning a `UsageError` into the message plus the usage and exit status 2, and any other error
    /// into its description and exit status 1.
    public func withUsage(io: CommandIO, _ body: () throws -> Int32) -> Int32 {
        do {
            return try body()
        } catch let error as UsageError {
            io.err("cardistry \(name): \(error.description)\n\n\(usage)")
            return 2
        } catch {
            io.err("cardistry \(name): \(error)\n")
            return 1
        }
    }
}
