import CardFrontend
import CardPhysics
import Foundation

/// `cardistry spring`: a playground for tuning a spring. Prints the spring in every parameterisation and its
/// settling duration, then plots x(t) in braille, or prints samples as CSV.
struct SpringCommand: Command {
    let name = "spring"
    let summary = "tune a spring: derived parameters and a plot (or CSV) of its motion"
    let usage = """
        Usage: cardistry spring --response R [--damping-fraction Z] [options]
               cardistry spring --duration D [--bounce B] [options]
               cardistry spring --mass M --stiffness K --damping C [--allow-over-damping] [options]

        Prints mass, stiffness, damping, damping ratio, response, bounce and settling duration (ε = 0.001), then
        plots the position x(t) from --from to --to (a braille plot, 60 × 15 cells, with the target dashed).

        Spring (exactly one form):
          --response R            period of the undamped oscillation in seconds (> 0)
          --damping-fraction Z    damping ratio (≥ 0; default 0.825, SwiftUI's)
          --duration D            perceptual duration in seconds (> 0)
          --bounce B              -1 < B ≤ 1 (default 0)
          --mass M --stiffness K --damping C
                                  physical constants (M > 0, K > 0, C ≥ 0); over-damping is treated as
                                  critical unless --allow-over-damping is given

        Motion:
          --from A                start value (default 0)
          --to B                  target value (default 1)
          --velocity V            initial velocity in units per second (default 0)

        Output:
          --csv                   print 't,value,velocity' and one sample per line instead of the plot
          --step S                CSV sample spacing in seconds (default 0.01)
          --until T               CSV end time in seconds (default: the settling duration)

        """

    private static let options: Set<String> = [
        "response", "damping-fraction", "duration", "bounce", "mass", "stiffness", "damping", "from", "to", "velocity",
        "step", "until",
    ]

    func run(arguments: [String], environment: [String: String], io: CommandIO) -> Int32 {
        withUsage(io: io) {
            let parsed = try ParsedArguments(arguments, options: Self.options, flags: ["csv", "allow-over-damping"])
            guard parsed.positionals.isEmpty else {
                throw UsageError("unexpected argument '\(parsed.positionals[0])'")
            }
            let spring = try Self.spring(from: parsed)
            let from = try parsed.double("from") ?? 0
            let to = try parsed.double("to") ?? 1
            let velocity = try parsed.double("velocity") ?? 0
            if parsed.flags.contains("csv") {
                io.out(try Self.csv(spring, from: from, to: to, velocity: velocity, parsed: parsed))
            } else {
                for option in ["step", "until"] where parsed.value(option) != nil {
                    throw UsageError("option '--\(option)' needs --csv")
                }
                io.out(Self.report(spring, from: from, to: to, velocity: velocity))
            }
            return 0
        }
    }

    /// The spring the options describe; a usage error for missing, conflicting or invalid values.
    static func spring(from parsed: ParsedArguments) throws -> Spring {
        let groups: [(name: String, options: [String])] = [
            ("--response", ["response", "damping-fraction"]), ("--duration", ["duration", "bounce"]),
            ("--mass/--stiffness/--damping", ["mass", "stiffness", "damping", "allow-over-damping"]),
        ]
        let used = groups.filter { group in
            group.options.contains { parsed.value($0) != nil || parsed.flags.contains($0) }
        }
        guard used.count == 1, let group = used.first else {
            if used.isEmpty {
                throw UsageError("choose a spring: --response, --duration, or --mass/--stiffness/--damping")
            }
            throw UsageError("conflicting spring options: \(used.map(\.name).joined(separator: " and ")); use one form")
        }
        do {
            switch group.name {
            case "--response":
                guard let response = try parsed.double("response") else {
                    throw UsageError("option '--damping-fraction' needs --response")
                }
                return try Spring(response: response, dampingRatio: try parsed.double("damping-fraction") ?? 0.825)
            case "--duration":
                guard let duration = try parsed.double("duration") else {
                    throw UsageError("option '--bounce' needs --duration")
                }
                return try Spring(duration: duration, bounce: try parsed.double("bounce") ?? 0)
            default:
                guard let stiffness = try parsed.double("stiffness"), let damping = try parsed.double("damping") else {
                    throw UsageError("the physical form needs both --stiffness and --damping (and optionally --mass)")
                }
                return try Spring(
                    mass: try parsed.double("mass") ?? 1, stiffness: stiffness, damping: damping,
                    allowOverDamping: parsed.flags.contains("allow-over-damping"))
            }
        } catch let error as PhysicsError {
            throw UsageError("invalid spring: \(error.description)")
        }
    }

    /// How long to show: the settling duration, or five responses for a spring that never settles.
    static func shownDuration(_ spring: Spring) -> Double {
        let settling = spring.settlingDuration
        return settling.isFinite ? max(settling, 1e-6) : 5 * spring.response
    }

    /// A number for people: six significant digits.
    static func number(_ value: Double) -> String {
        String(format: "%.6g", value)
    }

    /// A number for machines: the shortest text that reads back as the same `Double` (whole values without a
    /// fraction; Swift's `description` is the shortest round-trip form otherwise, as in the stdio protocol).
    static func exact(_ value: Double) -> String {
        if value == value.rounded(.towardZero) && abs(value) < 9_007_199_254_740_992 {
            return value == 0 ? "0" : String(Int64(value))
        }
        return value.description
    }

    /// The derived parameters and the plot.
    static func report(_ spring: Spring, from: Double, to: Double, velocity: Double) -> String {
        let settling = spring.settlingDuration
        let rows: [(String, String)] = [
            ("mass", number(spring.mass)),
            ("stiffness", number(spring.stiffness)),
            ("damping", number(spring.damping)),
            ("damping ratio", number(spring.dampingRatio)),
            ("response", number(spring.response) + " s"),
            ("bounce", number(spring.bounce)),
            ("settling duration", settling.isFinite ? number(settling) + " s" : "never (undamped)"),
        ]
        var text = ""
        for (label, value) in rows {
            text += label.padding(toLength: 19, withPad: " ", startingAt: 0) + value + "\n"
        }
        text += "\nx(t) from \(number(from)) to \(number(to)), initial velocity \(number(velocity)) per second\n\n"
        text += SpringPlot(spring: spring, from: from, to: to, velocity: velocity, duration: shownDuration(spring))
            .render()
        return text
    }

    /// The CSV samples.
    static func csv(_ spring: Spring, from: Double, to: Double, velocity: Double, parsed: ParsedArguments) throws
        -> String
    {
        let step = try parsed.double("step") ?? 0.01
        let until = try parsed.double("until") ?? shownDuration(spring)
        guard step > 0 else { throw UsageError("option '--step' must be greater than 0, got \(number(step))") }
        guard until >= 0 else { throw UsageError("option '--until' must not be negative, got \(number(until))") }
        let count = (until / step).rounded(.down)
        guard count <= 1_000_000 else {
            throw UsageError("--until / --step asks for \(number(count)) samples; at most 1000000")
        }
        var text = "t,value,velocity\n"
        for index in 0...Int(count) {
            let time = Double(index) * step
            let map = spring.transition(at: time)
            let value = to + map.offset(from: from - to, velocity: velocity)
            let speed = map.velocity(from: from - to, velocity: velocity)
            text += "\(exact(time)),\(exact(value)),\(exact(speed))\n"
        }
        return text
    }
}

/// A braille plot of a spring's x(t): each cell holds 2 × 4 dots; the target is a dashed line.
struct SpringPlot {
    let spring: Spring
    let from: Double
    let to: Double
    let velocity: Double
    let duration: Double
    var columns = 60
    var rows = 15

    func render() -> String {
        let dotColumns = columns * 2
        let dotRows = rows * 4
        let values = (0..<dotColumns).map { column -> Double in
            let time = duration * Double(column) / Double(dotColumns - 1)
            return to + spring.transition(at: time).offset(from: from - to, velocity: velocity)
        }
        var low = min(values.min() ?? from, from, to)
        var high = max(values.max() ?? to, from, to)
        if high - low < 1e-12 {
            low -= 0.5
            high += 0.5
        }
        func dotRow(_ value: Double) -> Int {
            let fraction = (high - value) / (high - low)
            return min(dotRows - 1, max(0, Int((fraction * Double(dotRows - 1)).rounded())))
        }
        var cells = [[UInt8]](repeating: [UInt8](repeating: 0, count: columns), count: rows)
        func setDot(_ column: Int, _ row: Int) {
            // Braille dot bits by (column in cell, row in cell).
            let bits: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]
            cells[row / 4][column / 2] |= bits[column % 2][row % 4]
        }
        let targetRow = dotRow(to)
        for column in stride(from: 0, to: dotColumns, by: 3) { setDot(column, targetRow) }
        var previousRow = dotRow(values[0])
        for (column, value) in values.enumerated() {
            let row = dotRow(value)
            // Join to the previous column so steep segments stay connected.
            let range = column == 0 ? row...row : min(row, previousRow)...max(row, previousRow)
            for fill in range { setDot(column, fill) }
            previousRow = row
        }
        // The target's label wins when it shares a row with the range's ends.
        var labels: [Int: String] = [:]
        labels[0] = SpringCommand.number(high)
        labels[rows - 1] = SpringCommand.number(low)
        labels[targetRow / 4] = SpringCommand.number(to) + " →"
        let labelWidth = max(10, (labels.values.map(\.count).max() ?? 0) + 1)
        var text = ""
        for (index, line) in cells.enumerated() {
            let label = labels[index] ?? ""
            text += String(repeating: " ", count: labelWidth - label.count) + label + " ┤"
            for cell in line {
                text.unicodeScalars.append(Unicode.Scalar(0x2800 + UInt32(cell)) ?? " ")
            }
            text += "\n"
        }
        text += String(repeating: " ", count: labelWidth) + " └" + String(repeating: "─", count: columns) + "\n"
        let end = SpringCommand.number(duration) + " s"
        let start = "0 s"
        text +=
            String(repeating: " ", count: labelWidth + 2) + start
            + String(repeating: " ", count: max(1, columns - start.count - end.count)) + end + "\n"
        return text
    }
}
