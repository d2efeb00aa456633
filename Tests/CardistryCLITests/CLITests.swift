import CardEngine
import CardFrontend
import CardScenes
import CardistryCLI
import Testing

@Suite struct CLITests {
    @Test func noArgumentsPrintsUsageAndExitsTwo() {
        let (io, output) = FrontendIO.capture()
        #expect(CLI.run([], io: io) == 2)
        #expect(output.stderr.contains("Usage: cardistry"))
        #expect(output.stdout.isEmpty)
    }

    @Test func versionPrintsNameAndVersion() {
        let (io, output) = FrontendIO.capture()
        #expect(CLI.run(["--version"], io: io) == 0)
        #expect(output.stdout == "cardistry \(CardistryInfo.version)\n")
    }

    @Test func helpGoesToStandardOutput() {
        let (io, output) = FrontendIO.capture()
        #expect(CLI.run(["--help"], io: io) == 0)
        #expect(output.stdout.contains("Usage: cardistry"))
    }

    @Test func unknownCommandIsAUsageError() {
        let (io, output) = FrontendIO.capture()
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
}
