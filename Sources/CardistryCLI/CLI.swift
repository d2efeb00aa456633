import CardEngine

/// The `cardistry` command line: global `--help` / `--version`, and dispatch to subcommands.
public enum CLI {
    /// Every subcommand, in the order `--help` lists them.
    public static let commands: [any Command] = [
        SpringCommand(), DeckCommand(), ReplayCommand(), StdioCommand(), TUICommand(),
    ]

    /// Runs the command line `arguments` (without the program name) and returns the exit status.
    public static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        guard let first = arguments.first else {
            if io.isTerminal, let tui = commands.first(where: { $0.name == "tui" }) { return tui.run([], io: io) }
            io.err(usage)
            return 2
        }
        switch first {
        case "--help", "-h", "help":
            if arguments.count > 1, first == "help" {
                guard let command = commands.first(where: { $0.name == arguments[1] }) else {
                    io.err("cardistry: unknown command '\(arguments[1])'\n\n" + usage)
                    return 2
                }
                io.out(command.usage)
                return 0
            }
            io.out(usage)
            return 0
        case "--version", "-V", "version":
            io.out("\(CardistryInfo.name) \(CardistryInfo.version)\n")
            return 0
        default:
            guard let command = commands.first(where: { $0.name == first }) else {
                io.err("cardistry: unknown command '\(first)'\n\n" + usage)
                return 2
            }
            let rest = Array(arguments.dropFirst())
            if rest.contains("--help") || rest.contains("-h") {
                io.out(command.usage)
                return 0
            }
            return command.run(rest, io: io)
        }
    }

    /// The top-level usage text.
    public static var usage: String {
        var text = """
            cardistry \(CardistryInfo.version) — a headless card-deck interaction engine.

            Usage: cardistry <command> [options]
                   cardistry --help | --version

            Commands:

            """
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        for command in commands {
            text += "  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        if commands.isEmpty {
            text += "  (none yet: the terminal UI and the other subcommands arrive with their issues)\n"
        }
        text += "\nRun 'cardistry help <command>' for a command's options.\n"
        return text
    }
}

/// Runs `body`, turning a `UsageError` into the message plus the command's usage and exit status 2.
func withUsage(_ command: any Command, io: CommandIO, _ body: () throws -> Int32) -> Int32 {
    do {
        return try body()
    } catch let error as UsageError {
        io.err("cardistry \(command.name): \(error.description)\n\n\(command.usage)")
        return 2
    } catch {
        io.err("cardistry \(command.name): \(error)\n")
        return 1
    }
}
