import CardEngine
import CardFrontend
import CardScenes
import CardStdio
import CardTUI

/// The `cardistry` command line: global `--help` / `--version`, and dispatch to the registered front ends.
///
/// This is the registration point: the one place that names front ends and hands them the scene catalogue. Adding
/// a front end is one new target and one line in `frontends`.
public enum CLI {
    /// Every front end, in the order `--help` lists them: the tools first, then the interactive front ends.
    public static let frontends: [any Frontend] = [
        SpringCommand(),
        DeckCommand(),
        ReplayCommand(catalog: .standard),
        StdioFrontend(catalog: .standard),
        TUIFrontend(catalog: .standard),
    ]

    /// The front end `cardistry` runs without arguments on a terminal.
    static let defaultFrontend = "tui"

    /// Runs the command line `arguments` (without the program name) with `environment` and returns the exit
    /// status, dispatching to `frontends` (the registered ones unless a test passes its own).
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], io: FrontendIO,
        frontends: [any Frontend] = CLI.frontends
    ) -> Int32 {
        let usage = usage(of: frontends)
        guard let first = arguments.first else {
            if io.isTerminal, let tui = frontends.first(where: { $0.name == defaultFrontend }) {
                return tui.run(arguments: [], environment: environment, io: io)
            }
            io.err(usage)
            return 2
        }
        switch first {
        case "--help", "-h", "help":
            if arguments.count > 1, first == "help" {
                guard let frontend = frontends.first(where: { $0.name == arguments[1] }) else {
                    io.err("cardistry: unknown command '\(arguments[1])'\n\n" + usage)
                    return 2
                }
                io.out(frontend.usage)
                return 0
            }
            io.out(usage)
            return 0
        case "--version", "-V", "version":
            io.out("\(CardistryInfo.name) \(CardistryInfo.version)\n")
            return 0
        default:
            guard let frontend = frontends.first(where: { $0.name == first }) else {
                io.err("cardistry: unknown command '\(first)'\n\n" + usage)
                return 2
            }
            let rest = Array(arguments.dropFirst())
            if rest.contains("--help") || rest.contains("-h") {
                io.out(frontend.usage)
                return 0
            }
            return frontend.run(arguments: rest, environment: environment, io: io)
        }
    }

    /// The top-level usage text for the registered front ends.
    public static var usage: String { usage(of: frontends) }

    /// The top-level usage text listing `frontends`.
    static func usage(of frontends: [any Frontend]) -> String {
        var text = """
            cardistry \(CardistryInfo.version) — a headless card-deck interaction engine.

            Usage: cardistry <command> [options]
                   cardistry --help | --version

            Commands:

            """
        let width = (frontends.map(\.name.count).max() ?? 0) + 2
        for frontend in frontends {
            text += "  " + frontend.name.padding(toLength: width, withPad: " ", startingAt: 0) + frontend.summary + "\n"
        }
        text += "\nRun 'cardistry help <command>' for a command's options.\n"
        return text
    }
}
