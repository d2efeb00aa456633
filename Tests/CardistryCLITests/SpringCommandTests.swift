import CardFrontend
import CardPhysics
import CardistryCLI
import Testing

@Suite struct SpringCommandTests {
    func run(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        let (io, output) = CommandIO.capture()
        let status = CLI.run(["spring"] + arguments, io: io)
        return (status, output.stdout, output.stderr)
    }

    @Test func printsApplesDocumentedSpringInEveryForm() {
        let result = run(["--duration", "0.5", "--bounce", "0.3"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.contains("stiffness          157.914\n"))
        #expect(result.stdout.contains("damping            17.5929\n"))
        #expect(result.stdout.contains("damping ratio      0.7\n"))
        #expect(result.stdout.contains("bounce             0.3\n"))
        #expect(result.stdout.contains("settling duration  0.818"))
        let physical = run(["--mass", "1", "--stiffness", "100", "--damping", "10"])
        #expect(physical.stdout.contains("response           0.628319 s\n"))
        #expect(physical.stdout.contains("bounce             0.5\n"))
    }

    @Test func drawsABraillePlotWithTargetAndAxes() {
        let result = run(["--response", "0.4", "--damping-fraction", "0.5", "--from", "10", "--to", "110"])
        #expect(result.status == 0)
        let plotLines = result.stdout.split(separator: "\n").filter { $0.contains("┤") }
        #expect(plotLines.count == 15)
        for line in plotLines {
            let cells = line.unicodeScalars.filter { (0x2800...0x28FF).contains($0.value) }
            #expect(cells.count == 60)
        }
        #expect(result.stdout.contains("110 → ┤"))
        #expect(result.stdout.contains("└" + String(repeating: "─", count: 60)))
        #expect(result.stdout.contains("0 s"))
        // The curve overshoots 110, so the top label is above the target.
        let top = plotLines[0].split(separator: "┤")[0].trimmingCharacters(in: .whitespaces)
        #expect((Double(top) ?? 0) > 110)
    }

    @Test func csvPrintsHeaderAndSamples() throws {
        let result = run([
            "--mass", "1", "--stiffness", "100", "--damping", "20", "--csv", "--step", "0.25", "--until", "1",
        ])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "t,value,velocity")
        #expect(lines.count == 6)
        #expect(lines[1] == "0,0,0")
        // Critically damped, ω = 10: x(0.25) = 1 − e^(−2.5)(1 + 2.5) = 0.712703.
        let fields = lines[2].split(separator: ",")
        #expect(fields[0] == "0.25")
        #expect(abs((Double(fields[1]) ?? 0) - 0.712_703) < 1e-6)
    }

    /// Every CSV number reads back as exactly the value the spring computes (no rounding to six digits).
    @Test func csvNumbersRoundTrip() throws {
        let result = run(["--duration", "0.7", "--bounce", "0.3", "--csv", "--step", "0.013", "--until", "2"])
        #expect(result.status == 0)
        let spring = try Spring(duration: 0.7, bounce: 0.3)
        let lines = result.stdout.split(separator: "\n").dropFirst()
        #expect(lines.count == 154)
        var inexact = 0
        for (index, line) in lines.enumerated() {
            let fields = line.split(separator: ",").map { Double($0) }
            let time = Double(index) * 0.013
            let map = spring.transition(at: time)
            let expected = [time, 1 + map.offset(from: -1, velocity: 0), map.velocity(from: -1, velocity: 0)]
            if fields != expected.map(Optional.some) { inexact += 1 }
        }
        #expect(inexact == 0)
    }

    @Test func csvDefaultsToTheSettlingDuration() {
        let result = run(["--duration", "0.5", "--csv"])
        let lines = result.stdout.split(separator: "\n")
        // Settling duration of a critically damped 0.5 s spring: 9.2335 / 4π ≈ 0.7348 s → 74 samples + header.
        #expect(lines.count == 75)
        #expect(lines.last?.hasPrefix("0.73,") == true)
    }

    @Test(arguments: [
        (["--response", "0"], "response must be greater than 0"),
        (["--response", "-1"], "response must be greater than 0"),
        (["--response", "1", "--duration", "1"], "conflicting spring options"),
        (["--bounce", "0.2"], "needs --duration"),
        (["--duration", "0.5", "--bounce", "2"], "bounce must satisfy"),
        (["--stiffness", "10"], "needs both --stiffness and --damping"),
        (["--mass", "0", "--stiffness", "10", "--damping", "1"], "mass must be greater than 0"),
        (["--mass", "1", "--stiffness", "-10", "--damping", "1"], "stiffness must be greater than 0"),
        (["--response", "nan"], "needs a finite number"),
        (["--response", "inf"], "needs a finite number"),
        ([], "choose a spring"),
        (["--response", "1", "--csv", "--step", "0"], "'--step' must be greater than 0"),
        (["--response", "1", "--csv", "--step", "1e-9", "--until", "10"], "at most 1000000"),
        (["--response", "1", "--until", "3"], "needs --csv"),
        (["--response", "1", "extra"], "unexpected argument"),
    ])
    func invalidOptionsExitTwoWithAClearMessage(arguments: [String], message: String) {
        let result = run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.contains("Usage: cardistry spring"))
    }

    @Test func isListedInTheHelp() {
        let (io, output) = CommandIO.capture()
        #expect(CLI.run(["--help"], io: io) == 0)
        #expect(output.stdout.contains("spring"))
    }
}
