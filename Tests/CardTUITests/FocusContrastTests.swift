import CardEngine
import CardGeometry
import CardScenes
import Testing

@testable import CardCells
@testable import CardTUI

/// The focus ring is always visible (issue 28): in every scene with cards, at every tour size, the focused card's
/// outline is drawn heavy, and its colour has at least 3:1 contrast (WCAG 2.2, 1.4.11) with the card under it and
/// the page around it. It was always yellow: 1.00:1 on the yellow Recipes card, 1.45:1 on orange, 1.51:1 on white.
@Suite struct FocusContrastTests {
    static let sizes = [(60, 20), (80, 24), (120, 40), (200, 60)]
    static let heavy: Set<Glyph> = ["━", "┃", "┏", "┓", "┗", "┛"]

    /// Tabs through every card of `scene` and checks the ring on each; returns how many distinct card colours the
    /// ring was checked on.
    static func check(scene: String, columns: Int, rows: Int, stops: Int) -> Set<RGBA> {
        var app = TUIApp(columns: columns, rows: rows, configuration: TUIApp.Configuration(catalog: .standard))
        app.open(scene, at: 0)
        var buffer = CellBuffer(width: columns, height: rows)
        var time = 1.0
        var checked: Set<RGBA> = []
        for stop in 0..<stops {
            // Focus starts on the first card in every scene.
            if stop > 0 { _ = app.handle(.key(KeyInput("tab")), at: time) }
            time += 3
            _ = app.draw(at: time, into: &buffer)
            var ring = 0
            for row in 0..<rows {
                for column in 0..<columns where heavy.contains(buffer[column, row].character) {
                    let cell = buffer[column, row]
                    guard let foreground = ContrastLint.rgba(cell.foreground),
                        let background = ContrastLint.rgba(cell.background)
                    else {
                        continue
                    }
                    ring += 1
                    checked.insert(background)
                    let againstCard = foreground.contrastRatio(with: background)
                    #expect(
                        againstCard >= 3,
                        "\(scene) \(columns)x\(rows) stop \(stop): ring \(foreground) on \(background) is \(againstCard):1"
                    )
                    // The page is the scene's own background (the wallet's is white, the others' grouped grey).
                    let page = app.lastFrame?.nodes.first { $0.role == .background }?.fill ?? .white
                    let againstPage = foreground.contrastRatio(with: page)
                    #expect(againstPage >= 3, "\(scene): ring \(foreground) on the page \(page)")
                }
            }
            #expect(ring > 0, "\(scene) \(columns)x\(rows) stop \(stop): no heavy focus ring drawn\n\(buffer.text)")
        }
        return checked
    }

    @Test(arguments: sizes)
    func theDecksFocusRingIsVisibleOnEveryCardColour(columns: Int, rows: Int) {
        let colours = Self.check(scene: "deck", columns: columns, rows: rows, stops: 12)
        #expect(colours.count >= 10, "the ring was seen on \(colours.count) card colours")
    }

    @Test(arguments: ["scores", "wallet", "hero"])
    func everySceneWithCardsDrawsAVisibleRing(scene: String) {
        for (columns, rows) in Self.sizes { _ = Self.check(scene: scene, columns: columns, rows: rows, stops: 5) }
    }
}
