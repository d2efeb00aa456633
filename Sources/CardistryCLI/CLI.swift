import CardEngine
import CardFrontend
import CardSceneFormat
import CardScenes
import CardStdio
import CardTUI

/// The `cardistry` command line: global `--help` / `--version`, and dispatch to the registered commands.
///
/// This is the registration point: the one place that names commands (the tools and the front ends) and hands the
/// front ends the scene catalogue. Adding a front end is one new target and one line in `commands`.
public enum CLI {
    /// Every command, in the order `--help` lists them within their group (the front ends, then the tools).
    public static let commands: [any Command] = [
        TUIFrontend(catalog: .standard, definer: .described),
        StdioFrontend(catalog: .standard, definer: .described),
        DeckCommand(),
        SceneCommand(),
        ReplayCommand(catalog: .standard),
        SpringCommand(),
    ]

    /// The front end `cardistry` runs without arguments on a terminal.
    static let defaultFrontend = "tui"

    /// Runs the command line `arguments` (without the program name) with `environment` and returns the exit
    /// status, dispatching to `commands` (the registered ones unless a test passes its own).
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], io: CommandIO,
        commands: [any Command] = CLI.commands
    ) -> Int32 {
        let usage = usage(of: commands)
        guard let first = arguments.first else {
            if io.isTerminal, let tui = commands.first(where: { $0 is any Frontend && $0.name == defaultFrontend }) {
                return tui.run(arguments: [], environment: environment, io: io)
            }
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
            return command.run(arguments: rest, environment: environment, io: io)
        }
    }

    /// The top-level usage text for the registered commands.
    public static var usage: String { usage(of: commands) }

    /// The top-level usage text listing `commands`: the front ends (sessions with the engine) apart from the tools.
    static func usage(of commands: [any Command]) -> String {
        var text = """
            cardistry \(CardistryInfo.version) — a headless card-deck interaction engine.

            Usage: cardistry <command> [options]
                   cardistry --help | --version

            """
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        let groups: [(String, [any Command])] = [
            ("Front ends (a session with the engine)", commands.filter { $0 is any Frontend }),
            ("Tools", commands.filter { !($0 is any Frontend) }),
        ]
        for (title, group) in groups where !group.isEmpty {
            text += "\n\(title):\n"
            for command in group {
                text +=
                    "  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + command.summary + "\n"
            }
        }
        text += "\nRun 'cardistry help <command>' for a command's options.\n"
        return text
    }
}
