import CardGeometry
import Foundation
import Testing

/// A cell of a captured tmux screen: its character and its 24-bit colours (nil: the terminal's default).
struct StyledCell {
    var character: Character
    var foreground: RGBA?
    var background: RGBA?
}

extension TmuxHarness {
    /// The screen as rows of styled cells, from `capture-pane -e` (SGR 0, 38;2 / 48;2, 39 and 49 are followed;
    /// other attributes are skipped). A wide character takes one entry.
    func styledCells() throws -> [[StyledCell]] {
        try styledScreen().split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var cells: [StyledCell] = []
            var foreground: RGBA?
            var background: RGBA?
            var characters = line[...]
            while let character = characters.first {
                characters = characters.dropFirst()
                guard character == "\u{1B}", characters.first == "[" else {
                    cells.append(StyledCell(character: character, foreground: foreground, background: background))
                    continue
                }
                let body = characters.dropFirst().prefix { !$0.isLetter }
                characters = characters.dropFirst(1 + body.count)
                guard characters.first == "m" else {
                    characters = characters.dropFirst()
                    continue
                }
                characters = characters.dropFirst()
                let parameters = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
                var index = 0
                while index < parameters.count {
                    let code = parameters[index]
                    if code == 38 || code == 48, index + 4 < parameters.count, parameters[index + 1] == 2 {
                        let colour = RGBA(
                            red: Double(parameters[index + 2]) / 255, green: Double(parameters[index + 3]) / 255,
                            blue: Double(parameters[index + 4]) / 255)
                        if code == 38 { foreground = colour } else { background = colour }
                        index += 5
                        continue
                    }
                    if code == 0 { (foreground, background) = (nil, nil) }
                    if code == 39 { foreground = nil }
                    if code == 49 { background = nil }
                    index += 1
                }
            }
            return cells
        }
    }
}

/// The focus ring seen through a real terminal (issue 28): tabbing through all 12 cards of the deck in tmux, the
/// focused card's heavy outline has at least 3:1 contrast (WCAG 2.2, 1.4.11) with the card colour it is drawn on,
/// on every card colour, at every tour size. It was always yellow: 1.00:1 on the yellow Recipes card.
@Suite struct TUIFocusRingEndToEndTests {
    static let heavy: Set<Character> = ["━", "┃", "┏", "┓", "┗", "┛"]

    @Test(arguments: [(60, 20), (80, 24), (120, 40), (200, 60)])
    func theDecksFocusRingIsVisibleOnEveryCard(columns: Int, rows: Int) throws {
        try withTmux(columns: columns, rows: rows) { tmux in
            try tmux.type(try tmux.command("tui --scene deck"))
            #expect(try tmux.waitFor { $0.contains("12 cards") })
            var colours: Set<String> = []
            for stop in 0..<12 {
                if stop > 0 { try tmux.key("Tab") }
                #expect(try tmux.waitForStillScreen(quiet: 0.2))
                var ring = 0
                for (row, cells) in try tmux.styledCells().enumerated() {
                    for cell in cells where Self.heavy.contains(cell.character) {
                        guard let foreground = cell.foreground, let background = cell.background else { continue }
                        ring += 1
                        colours.insert("\(background)")
                        let ratio = foreground.contrastRatio(with: background)
                        #expect(
                            ratio >= 3,
                            "\(columns)x\(rows) stop \(stop) row \(row): ring \(foreground) on \(background) \(ratio):1"
                        )
                    }
                }
                let screen = try tmux.screen()
                #expect(ring > 0, "\(columns)x\(rows) stop \(stop): no focus ring\n\(screen)")
            }
            #expect(colours.count >= 10, "the ring was seen on \(colours.count) card colours")
            try tmux.send("q")
        }
    }
}
