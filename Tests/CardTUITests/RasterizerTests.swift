import CardEngine
import CardGeometry
import CardScenes
import Testing

@testable import CardCells
@testable import CardTUI

@Suite struct RasterizerTests {
    typealias F = TestFrames

    @Test func aCardIsARoundedBoxInItsFillColourWithItsText() {
        // 80 × 48 points at (16, 16): columns 2..<12, rows 1..<4.
        let buffer = F.render([
            F.node("a", x: 16, y: 16, width: 80, height: 48, text: [F.run("Hi", alignment: .center)])
        ])
        #expect(buffer[2, 1].character == "╭")
        #expect(buffer[11, 1].character == "╮")
        #expect(buffer[2, 3].character == "╰")
        #expect(buffer[11, 3].character == "╯")
        #expect(buffer[5, 1].character == "─")
        #expect(buffer[2, 2].character == "│")
        #expect(buffer[6, 2].character == "H" && buffer[7, 2].character == "i")
        #expect(buffer[4, 2].background == .rgb(255, 0, 0))
        #expect(buffer[6, 2].foreground == .rgb(255, 255, 255))
        // Outside the card: the page.
        #expect(buffer[1, 1].background == .rgb(255, 255, 255))
        #expect(buffer[12, 2].background == .rgb(255, 255, 255))
        #expect(buffer[5, 4].background == .rgb(255, 255, 255))
    }

    /// `--ascii`: decoration (boxes, typographic punctuation) in ASCII; the user's letters kept.
    @Test func asciiModeDrawsDecorationInAsciiAndKeepsTheText() {
        let buffer = F.render(
            [F.node("a", x: 16, y: 16, width: 80, height: 48, text: [F.run("naïve…", alignment: .center)])],
            ascii: true)
        #expect(buffer[2, 1].character == "+")
        #expect(buffer[5, 1].character == "-")
        #expect(buffer[2, 2].character == "|")
        #expect(buffer.text.contains("naïve."))
        #expect(buffer.cells.allSatisfy { $0.character.isASCII || $0.character == "ï" })
    }

    @Test func opacityBlendsTowardsWhatIsBelow() {
        let buffer = F.render([F.node("a", x: 0, y: 0, width: 80, height: 48, opacity: 0.5, cornerRadius: 0)])
        // Half red over white, and the role is a card so the inside is plain fill.
        let inside = buffer[4, 1].background.components
        #expect(inside?.0 == 255)
        #expect(inside.map { abs($0.1 - 128) <= 1 && abs($0.2 - 128) <= 1 } == true)
    }

    @Test func laterNodesPaintOverEarlierOnes() {
        let buffer = F.render([
            F.node("under", role: .bar, x: 0, y: 0, width: 160, height: 64, fill: RGBA(red: 0, green: 0, blue: 1)),
            F.node("over", role: .bar, x: 40, y: 16, width: 40, height: 16, fill: RGBA(red: 0, green: 1, blue: 0)),
        ])
        #expect(buffer[6, 1].background == .rgb(0, 255, 0))
        #expect(buffer[2, 1].background == .rgb(0, 0, 255))
    }

    @Test func shadowsDimTheCellsBelowAndRight() {
        let shadow = Shadow(
            color: RGBA(red: 0, green: 0, blue: 0, alpha: 0.5), radius: 10, offset: Vector(dx: 0, dy: 5))
        let buffer = F.render([F.node("a", x: 16, y: 16, width: 80, height: 48, shadow: shadow)])
        // The card covers columns 2..<12 and rows 1..<4; its shadow shows at column 12 and row 4.
        #expect(buffer[12, 2].background.components.map { $0.0 < 200 } == true)
        #expect(buffer[6, 4].background.components.map { $0.0 < 200 } == true)
        #expect(buffer[1, 2].background == .rgb(255, 255, 255))
    }

    @Test func rotationShearsRowsTheRightWay() {
        // A tall node rotated clockwise leans right at the top and left at the bottom.
        let buffer = F.render(
            [F.node("a", role: .bar, x: 120, y: 0, width: 16, height: 160, rotation: 20, cornerRadius: 0)],
            columns: 40, rows: 10)
        func firstFilled(_ row: Int) -> Int? {
            (0..<40).first { buffer[$0, row].background == .rgb(255, 0, 0) }
        }
        let top = firstFilled(0)
        let bottom = firstFilled(9)
        #expect(top != nil && bottom != nil)
        #expect((top ?? 0) > (bottom ?? 0))
    }

    @Test func scaleAppliesAboutTheCentre() {
        let buffer = F.render([
            F.node("a", role: .bar, x: 80, y: 32, width: 80, height: 64, scale: 0.5, cornerRadius: 0)
        ])
        // 80 × 64 at (80, 32), halved about its centre (120, 64): 40 × 32 at (100, 48): columns 13..<17, rows 3..<4.
        #expect(buffer[14, 3].background == .rgb(255, 0, 0))
        #expect(buffer[10, 3].background == .rgb(255, 255, 255))
        #expect(buffer[14, 2].background == .rgb(255, 255, 255))
    }

    @Test func thinNodesBecomeLines() {
        let buffer = F.render([
            F.node("track", role: .bar, x: 16, y: 70, width: 200, height: 4, fill: .black),
            F.node("rule", role: .hairline, x: 300, y: 0, width: 1, height: 120, fill: .black),
        ])
        #expect(buffer[5, 4].character == "─")
        #expect(buffer[37, 2].character == "│")
        #expect(buffer[5, 4].background == .rgb(255, 255, 255))
    }

    @Test func textAlignsAndTruncates() {
        let buffer = F.render([
            F.node(
                "row", role: .row, x: 0, y: 0, width: 160, height: 16, fill: nil,
                text: [F.run("left", color: .black), F.run("right", alignment: .trailing, color: .black)]),
            F.node(
                "long", role: .text, x: 0, y: 32, width: 48, height: 16, fill: nil,
                text: [F.run("truncated text", color: .black)]),
        ])
        #expect(buffer.text(row: 0).hasPrefix("left"))
        #expect(buffer.text(row: 0).prefix(20).hasSuffix("right"))
        #expect(buffer.text(row: 2).hasPrefix("trunc…"))
    }

    @Test func runsEndingInASpaceJoinOnOneLine() {
        let header = F.node(
            "header", role: .title, x: 0, y: 0, width: 160, height: 48, fill: nil,
            text: [F.run("Test ", color: .black), F.run("3", color: .black)])
        let buffer = F.render([header])
        #expect(buffer.text.contains("Test 3"))
    }

    /// Rolling digits roll inside their cells in the direction of the change (issue 27: they swapped at half-way,
    /// dimmed): 85 → 90 grows, so each changed digit leaves upwards (superscript) and the new one enters from below
    /// (subscript); 90 → 85 the other way round. ASCII-only output swaps at half-way, dim mid-roll.
    @Test func rollingDigitsRollInTheDirectionOfTheChange() {
        func shown(_ from: String, _ to: String, _ progress: Double, ascii: Bool = false) -> String {
            let text = FrameText(
                run: TextRun(to, color: .black, isNumeric: true), rollingFrom: from,
                digitProgress: Array(repeating: progress, count: to.count))
            let buffer = F.render(
                [F.node("score", role: .text, x: 0, y: 0, width: 80, height: 16, fill: nil, text: [text])],
                ascii: ascii)
            return String(buffer.text(row: 0).prefix(to.count))
        }
        #expect(shown("85", "90", 0) == "85")
        #expect(shown("85", "90", 0.3) == "⁸⁵")
        #expect(shown("85", "90", 0.6) == "₉₀")
        #expect(shown("85", "90", 0.8) == "90")
        #expect(shown("90", "85", 0.3) == "₉₀")
        #expect(shown("90", "85", 0.6) == "⁸⁵")
        // Unchanged digits stay put: 91 → 95 rolls the last digit only.
        #expect(shown("91", "95", 0.3) == "9¹")
        // A number that gains a digit: the new one enters from below beside the rolling one.
        #expect(shown("9", "10", 0.6) == "₁₀")
        #expect(shown("85", "90", 0.3, ascii: true) == "85")
        #expect(shown("85", "90", 0.7, ascii: true) == "90")
        let mid = FrameText(run: TextRun("90", isNumeric: true), rollingFrom: "85", digitProgress: [0.5, 0.5])
        let buffer = F.render(
            [F.node("s", role: .text, x: 0, y: 0, width: 80, height: 16, fill: nil, text: [mid])], ascii: true)
        #expect(buffer[0, 0].attributes.contains(.dim))
    }

    @Test func clippingAndNonsenseNeverTrap() {
        let nodes = [
            F.node("off", x: -500, y: -500, width: 2_000, height: 2_000),
            F.node("nan", x: .nan, y: 0, width: 10, height: 10),
            F.node("inf", x: 0, y: 0, width: .infinity, height: 10),
            F.node("negative", x: 50, y: 50, width: -40, height: -30),
            F.node("huge", x: 1e300, y: 0, width: 1e300, height: 1),
            F.node("rotated", x: 0, y: 0, width: 100, height: 100, rotation: .nan, scale: .infinity),
        ]
        let buffer = F.render(nodes, columns: 20, rows: 5)
        #expect(buffer.width == 20 && buffer.height == 5)
        #expect(buffer[0, 0].background != .terminalDefault)
    }

    @Test func rowsBeyondTheLimitAreLeftAlone() {
        var buffer = CellBuffer(width: 10, height: 4)
        buffer[0, 3] = Cell("S")
        Rasterizer().render(F.frame([F.node("a", x: 0, y: 0, width: 80, height: 64)]), into: &buffer, rows: 3)
        #expect(buffer[0, 3].character == "S")
        #expect(buffer[0, 2].character == "│", "the box's bottom edge (row 3) is clipped away")
    }

    @Test func pulsesBrightenTheirNode() {
        var plain = CellBuffer(width: 20, height: 5)
        var pulsed = plain
        let frame = F.frame([
            F.node("a", x: 0, y: 0, width: 80, height: 64, fill: RGBA(red: 0.2, green: 0.2, blue: 0.6))
        ])
        Rasterizer().render(frame, into: &plain)
        Rasterizer().render(frame, into: &pulsed, pulses: ["a": 1])
        let before = plain[3, 2].background.components ?? (0, 0, 0)
        let after = pulsed[3, 2].background.components ?? (0, 0, 0)
        #expect(after.0 + after.1 + after.2 > before.0 + before.1 + before.2 + 100)
    }
}

@Suite struct ColorDepthTests {
    @Test func detectionFromTheEnvironment() {
        #expect(ColorDepth.detect(environment: ["COLORTERM": "truecolor", "TERM": "xterm-256color"]) == .trueColor)
        #expect(ColorDepth.detect(environment: ["COLORTERM": "24bit"]) == .trueColor)
        #expect(ColorDepth.detect(environment: ["TERM": "screen-256color"]) == .palette256)
        #expect(ColorDepth.detect(environment: ["TERM": "xterm"]) == .basic16)
        #expect(ColorDepth.detect(environment: [:]) == .basic16)
        #expect(ColorDepth.detect(environment: ["NO_COLOR": "1", "COLORTERM": "truecolor"]) == .none)
        #expect(ColorDepth.detect(environment: ["NO_COLOR": "", "COLORTERM": "truecolor"]) == .trueColor)
    }

    @Test func nearestPaletteEntries() {
        #expect(Palette.nearest256(255, 0, 0) == 196)
        #expect(Palette.nearest256(0, 0, 0) == 16)
        #expect(Palette.nearest256(255, 255, 255) == 231)
        #expect(Palette.nearest256(95, 135, 175) == 67)
        #expect(Palette.nearest256(128, 128, 128) == 244)
        #expect(Palette.nearest256(8, 8, 8) == 232)
        #expect(Palette.nearest16(250, 10, 10) == 9)
        #expect(Palette.nearest16(0, 0, 0) == 0)
        #expect(Palette.nearest16(200, 200, 200) == 7)
    }

    /// Every palette entry's own RGB value maps back to an entry of exactly that colour.
    @Test func paletteRoundTrip() {
        for index in 16...255 {
            let (red, green, blue) = Palette.rgb(of: UInt8(index))
            let back = Palette.rgb(of: Palette.nearest256(red, green, blue))
            #expect(back == (red, green, blue))
        }
    }

    @Test func conversionKeepsDefaultsAndDropsColourForNoColor() {
        #expect(ColorDepth.palette256.convert(.terminalDefault) == .terminalDefault)
        #expect(ColorDepth.none.convert(.rgb(1, 2, 3)) == .terminalDefault)
        #expect(ColorDepth.basic16.convert(.indexed(196)) == .indexed(9))
        #expect(ColorDepth.trueColor.convert(.rgb(1, 2, 3)) == .rgb(1, 2, 3))
    }
}

@Suite struct CellScaleTests {
    @Test func pointsAndCellsRoundTrip() {
        let scale = CellScale()
        for column in 0..<50 {
            for row in 0..<20 {
                let cell = scale.cell(at: scale.point(column: column, row: row))
                #expect(cell.column == column && cell.row == row)
            }
        }
        #expect(scale.viewport(columns: 80, rows: 23) == Size(width: 640, height: 368))
    }

    @Test func fittingGrowsTheScaleOnlyWhenNeededAndKeepsTheAspect() {
        let small = CellScale.fitting(height: 500, rows: 23)
        #expect(small.viewport(columns: 80, rows: 23).height >= 500)
        #expect(small.pointsPerRow == 2 * small.pointsPerColumn)
        #expect(CellScale.fitting(height: 500, rows: 59) == CellScale())
        #expect(CellScale.fitting(height: .nan, rows: 10) == CellScale())
    }
}

@Suite struct CapabilityProbeTests {
    @Test func supportReportedThenDeviceAttributesFinishes() {
        var probe = CapabilityProbe(startedAt: 0)
        probe.handle([.modeReport(mode: 2026, status: 2), .key(KeyInput("a"))], at: 0.01)
        #expect(!probe.isFinished)
        probe.handle([.deviceAttributes], at: 0.02)
        #expect(probe.supportsSynchronizedOutput)
        #expect(probe.otherInput == [.key(KeyInput("a"))])
        #expect(probe.remaining(at: 0.02) == nil)
    }

    @Test func unrecognisedModeMeansNoSupport() {
        var probe = CapabilityProbe(startedAt: 0)
        probe.handle([.modeReport(mode: 2026, status: 0), .deviceAttributes], at: 0.01)
        #expect(probe.isFinished && !probe.supportsSynchronizedOutput)
    }

    @Test func silenceTimesOutWithoutSupport() {
        var probe = CapabilityProbe(startedAt: 1, timeout: 0.1)
        #expect(abs((probe.remaining(at: 1.05) ?? 0) - 0.05) < 1e-9)
        probe.timeout(at: 1.1)
        #expect(probe.isFinished && !probe.supportsSynchronizedOutput)
    }
}
