/// A front end of Cardistry: something that runs as a `cardistry` subcommand and turns the outside world (a
/// terminal, a pipe, a file) into engine input and engine output into something the outside world reads.
///
/// Front ends are plugins. Each lives in its own target, imports the engine (never another front end), knows no
/// concrete scene (it is handed a scene catalogue when it is registered) and is listed once, by value, in the
/// command line's registration point (`CardistryCLI.CLI.frontends`). The command line builds its subcommand list,
/// `--help` and dispatch from that list, so adding a front end is one new target plus one registration line.
public protocol Frontend: Sendable {
    /// The word that selects the front end on the command line (`tui`, `stdio`, …).
    var name: String { get }
    /// One line for the list in `cardistry --help`.
    var summary: String { get }
    /// The full usage text printed by `cardistry help NAME` and on a usage error.
    var usage: String { get }
    /// Runs the front end with the arguments after its name and the process environment; returns the exit status
    /// (0 success, 1 data or runtime error, 2 usage error).
    func run(arguments: [String], environment: [String: String], io: FrontendIO) -> Int32
}

/// A usage error: the message is printed with the front end's usage and the process exits with status 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What was wrong with the command line, as one sentence without the program name.
    public var description: String

    /// A usage error saying `message`.
    public init(_ message: String) {
        self.description = message
    }
}

extension Frontend {
    /// Runs `body`, turning a `UsageError` into the message plus the usage and exit status 2, and any other error
    /// into its description and exit status 1.
    public func withUsage(io: FrontendIO, _ body: () throws -> Int32) -> Int32 {
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
