import CardEngine
import CardFrontend
import CardGeometry
import CardGestures
import CardScenes
import CardistryCLI
import Testing

@Suite struct CLITests {
    @Test func noArgumentsPrintsUsageAndExitsTwo() {
        let (io, output) = CommandIO.capture()
        #expect(CLI.run([], io: io) == 2)
        #expect(output.stderr.contains("Usage: cardistry"))
        #expect(output.stdout.isEmpty)
    }

    @Test func versionPrintsNameAndVersion() {
        let (io, output) = CommandIO.capture()
        #expect(CLI.run(["--version"], io: io) == 0)
        #expect(output.stdout == "cardistry \(CardistryInfo.version)\n")
    }

    @Test func helpGoesToStandardOutput() {
        let (io, output) = CommandIO.capture()
        #expect(CLI.run(["--help"], io: io) == 0)
        #expect(output.stdout.contains("Usage: cardistry"))
    }

    @Test func unknownCommandIsAUsageError() {
        let (io, output) = CommandIO.capture()
        #expect(CLI.run(["frobnicate"], io: io) == 2)
        #expect(output.stderr.contains("unknown command 'frobnicate'"))
    }

    @Test func parserRejectsUnknownOptionsAndMissingValues() throws {
        #expect(throws: UsageError.self) { try ParsedArguments(["--nope"], options: [], flags: []) }
        #expect(throws: UsageError.self) { try ParsedArguments(["--to"], options: ["to"], flags: []) }
        let parsed = try ParsedArguments(
            ["--to=3", "--velocity", "-2.5", "--csv", "x"], options: ["to", "velocity"], flags: ["csv"])
        #expect(try parsed.double("to") == 3)
        #expect(try parsed.double("velocity") == -2.5)
        #expect(parsed.flags.contains("csv"))
        #expect(parsed.positionals == ["x"])
        let bad = try ParsedArguments(["--to", "abc"], options: ["to"], flags: [])
        #expect(throws: UsageError.self) { try bad.double("to") }
    }

    /// The command line is built from the registered commands: a third front end is one value in the list, listed
    /// with the front ends. This one opens a scene from the catalogue it is handed, taps it headlessly and prints
    /// the deck's size.
    @Test func aRegisteredFrontendIsListedHelpedAndRun() {
        let commands: [any Command] = CLI.commands + [EchoFrontend(catalog: .standard)]
        let (help, helpOutput) = CommandIO.capture()
        #expect(CLI.run(["--help"], io: help, commands: commands) == 0)
        #expect(helpOutput.stdout.contains("  echo    open a scene and report its deck"))
        let listing = helpOutput.stdout
        let frontEnds = listing.range(of: "Front ends")!.lowerBound
        let tools = listing.range(of: "Tools:")!.lowerBound
        #expect(
            listing.range(of: "  echo ")!.lowerBound > frontEnds && listing.range(of: "  echo ")!.lowerBound < tools)
        #expect(listing.range(of: "  deck ")!.lowerBound > tools)
        let (usage, usageOutput) = CommandIO.capture()
        #expect(CLI.run(["help", "echo"], io: usage, commands: commands) == 0)
        #expect(usageOutput.stdout == "Usage: cardistry echo SCENE\n")
        let (io, output) = CommandIO.capture()
        #expect(CLI.run(["echo", "wallet"], environment: ["GREETING": "hi"], io: io, commands: commands) == 0)
        #expect(output.stdout == "hi: Wallet has 5 cards\n")
        let (bad, badOutput) = CommandIO.capture()
        #expect(CLI.run(["echo", "nope"], io: bad, commands: commands) == 2)
        #expect(badOutput.stderr.hasPrefix("cardistry echo: unknown scene 'nope'"))
        // Without the registration, the command does not exist.
        let (missing, _) = CommandIO.capture()
        #expect(CLI.run(["echo", "wallet"], io: missing) == 2)
    }
}

/// A small front end for the registration test.
private struct EchoFrontend: Frontend {
    let catalog: SceneCatalog
    var name: String { "echo" }
    var summary: String { "open a scene and report its deck" }
    var usage: String { "Usage: cardistry echo SCENE\n" }

    func run(arguments: [String], environment: [String: String], io: CommandIO) -> Int32 {
        withUsage(io: io) {
            guard let name = arguments.first, catalog.names.contains(name) else {
                throw UsageError("unknown scene '\(arguments.first ?? "")'")
            }
            var engine = Engine(scene: try catalog.make(name), viewport: Size(width: 390, height: 844))
            engine.handle(.pointer(PointerEvent(.down, at: Point(x: 195, y: 400), time: 1)))
            engine.handle(.pointer(PointerEvent(.up, at: Point(x: 195, y: 400), time: 1.05)))
            let title = engine.scene.descriptor.title
            io.out("\(environment["GREETING"] ?? "?"): \(title) has \(engine.deck.count) cards\n")
            return 0
        }
    }
}
