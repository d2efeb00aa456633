import CardEngine
import CardGeometry
import CardModels
import CardScenes
import Testing

/// The standard measurer on a grid: what a terminal front end hands a scene, without the terminal.
struct GridMeasurer: TextMeasurer {
    var grid: LayoutGrid
    let base = StandardTextMeasurer()

    func width(of text: Substring, style: TextStyle, weight: TextWeight) -> Double {
        base.width(of: text, style: style, weight: weight)
    }

    func lineHeight(of style: TextStyle) -> Double { grid.height(base.lineHeight(of: style)) }

    var layoutGrid: LayoutGrid { grid }
}

/// Scenes laid out on a grid keep their rhythm (issue 28): seeded viewports and grids, thousands of cases; on any
/// grid, equal siblings are equally spaced and every card's top and height are whole pixels, and the continuous
/// grid changes nothing (a graphical host's frames stay as they were).
@Suite struct GridLayoutPropertyTests {
    static func isWhole(_ value: Double, of unit: Double) -> Bool {
        guard unit > 0 else { return true }
        let units = value / unit
        return abs(units - units.rounded()) < 1e-6
    }

    @Test func theGridRoundsToTheNearestPixelAndTheContinuousGridIsTheIdentity() {
        var random = SplitMix64(seed: 0x6_21D)
        for _ in 0..<5_000 {
            let value = Double.random(in: -2_000...2_000, using: &random)
            #expect(LayoutGrid.continuous.x(value) == value)
            #expect(LayoutGrid.continuous.height(value) == value)
            #expect(LayoutGrid.continuous.width(value, rounded: .down) == value)
            let unit = Double.random(in: 1...40, using: &random)
            let grid = LayoutGrid(columnWidth: unit, rowHeight: unit * 2)
            let x = grid.x(value)
            #expect(Self.isWhole(x, of: unit) && abs(x - value) <= unit / 2 + 1e-9)
            #expect(grid.x(x) == x, "rounding twice changes nothing")
            let height = grid.height(abs(value))
            #expect(Self.isWhole(height, of: unit * 2))
            #expect(value == 0 || height > 0, "a length that is not zero keeps a pixel")
            #expect(grid.height(abs(value), rounded: .up) >= abs(value) - 1e-9)
            #expect(grid.width(abs(value), rounded: .down) <= abs(value) + 1e-9)
        }
        #expect(LayoutGrid(columnWidth: .nan, rowHeight: -1).isContinuous)
    }

    /// The cards' tops, top first, of the nodes with role `.card`.
    static func cardTops(_ nodes: [FrameNode]) -> [Double] {
        nodes.filter { $0.role == .card }.map(\.rect.minY).sorted()
    }

    @Test func cardsOnAGridAreEquallySpacedWholePixels() throws {
        var random = SplitMix64(seed: 0x6_21E)
        let scenes: [(String, any Scene)] = [
            ("deck", try DeckScene(options: SceneOptions(cardCount: 12))), ("scores", try ScoresScene()),
            ("wallet", try WalletScene()),
        ]
        for _ in 0..<1_000 {
            let viewport = Size(
                width: Double.random(in: 320...1_800, using: &random),
                height: Double.random(in: 300...1_200, using: &random))
            let column = Double.random(in: 6...24, using: &random)
            let grid = LayoutGrid(columnWidth: column, rowHeight: column * 2)
            for (name, scene) in scenes {
                // Through the engine, at rest after the scene's appearance (the wallet's cards slide in).
                var engine = Engine(scene: scene, viewport: viewport, textMeasurer: GridMeasurer(grid: grid))
                let nodes = engine.frame(at: 10).nodes
                let cards = nodes.filter { $0.role == .card }
                #expect(cards.count >= 5, "\(name)")
                for card in cards {
                    #expect(
                        Self.isWhole(card.rect.minY, of: grid.rowHeight)
                            && Self.isWhole(card.rect.height, of: grid.rowHeight)
                            && Self.isWhole(card.rect.minX, of: grid.columnWidth),
                        "\(name) \(viewport) grid \(column): \(card.id) at \(card.rect)")
                }
                let tops = Self.cardTops(nodes)
                let steps = Set(zip(tops.dropFirst(), tops).map { (($0 - $1) / grid.rowHeight).rounded() })
                #expect(steps.count == 1, "\(name) \(viewport) grid \(column): steps \(steps)")
            }
        }
    }

    @Test func theContinuousGridLeavesEveryLayoutAsItWas() throws {
        let scenes: [any Scene] = [
            try DeckScene(options: SceneOptions(cardCount: 12)), try ScoresScene(), try WalletScene(), try HeroScene(),
            try FlashcardsScene(),
        ]
        var random = SplitMix64(seed: 0x6_21F)
        for _ in 0..<200 {
            let viewport = Size(
                width: Double.random(in: 320...1_800, using: &random),
                height: Double.random(in: 300...1_200, using: &random))
            for scene in scenes {
                let continuous = scene.layout(in: viewport, text: GridMeasurer(grid: .continuous))
                #expect(continuous == scene.layout(in: viewport, text: StandardTextMeasurer()))
            }
        }
    }
}
