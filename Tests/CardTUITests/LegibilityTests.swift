import CardEngine
import CardGeometry
import CardModels
import CardScenes
import CardTestScenes
import Testing

@testable import CardCells
@testable import CardTUI

/// Nothing the terminal UI has to say is dropped (issue 28): the help overlay shows every key a scene declares at
/// every tour size (the deck's "home end" and the wallet's "] [" were cut off at 80x24), the status line shows a
/// scene's own keys (s, p, r were cut after the generic ones), and the deck speaks one vocabulary with readable
/// numbers.
@Suite struct LegibilityTests {
    static let sizes = [(60, 20), (80, 24), (120, 40), (200, 60)]

    /// The words of every page of the help overlay, turning pages with space.
    static func helpText(scene: String?, columns: Int, rows: Int) -> String {
        var driver = AppDriver(columns: columns, rows: rows, catalog: .testing)
        if let scene { driver.app.open(scene, at: 0) }
        driver.draw(at: 1)
        driver.key("?", at: 1)
        var text = ""
        var pages = 0
        while driver.app.showsHelp && pages < 20 {
            text += driver.draw(at: 1).text + "\n"
            driver.key("space", at: 1)
            pages += 1
        }
        return text
    }

    @Test(arguments: sizes)
    func theHelpShowsEveryKeyEveryScenesDeclares(columns: Int, rows: Int) {
        for descriptor in SceneCatalog.testing.descriptors {
            let text = Self.helpText(scene: descriptor.name, columns: columns, rows: rows)
            for help in descriptor.keyHelp {
                for token in help.keys.split(separator: " ") {
                    #expect(
                        text.contains(token), "\(descriptor.name) \(columns)x\(rows): '\(token)' missing from the help")
                }
                let lastWord = help.summary.split(separator: " ").last.map(String.init) ?? ""
                #expect(text.contains(lastWord), "\(descriptor.name) \(columns)x\(rows): '\(help.summary)' cut")
            }
            #expect(text.contains("Ctrl-Z"), "\(descriptor.name) \(columns)x\(rows): the last general key is cut")
        }
    }

    @Test func helpLinesWrapAtWordsAndBreakLongWords() {
        #expect(HelpLayout.wrap("pageup pagedown home end", width: 16) == ["pageup pagedown", "home end"])
        #expect(HelpLayout.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(HelpLayout.wrap("", width: 4).isEmpty)
        let layout = HelpLayout(
            entries: (0..<30).map { ("k\($0)", "does thing \($0)") }, columns: 80, rows: 12)
        #expect(layout.pages.count > 1)
        #expect(layout.pages.flatMap { $0 }.count == 30)
        #expect(layout.pages.allSatisfy { $0.count <= 12 - 2 })
    }

    @Test(arguments: sizes)
    func theStatusLineShowsTheScenesOwnKeys(columns: Int, rows: Int) {
        for (scene, keys) in [("deck", ["s ", "p "]), ("flashcards", ["r ", "←"]), ("scores", ["1–9"])] {
            var driver = AppDriver(columns: columns, rows: rows)
            driver.app.open(scene, at: 0)
            let buffer = driver.draw(at: 1)
            let status = buffer.text(row: rows - 1)
            for key in keys where columns >= 80 || key != "←" {
                #expect(status.contains(key), "\(scene) \(columns)x\(rows): '\(key)' missing from \(status)")
            }
        }
    }

    @Test func theDeckCountsWithSeparatorsAndNamesItsSortsAsTheHelpDoes() throws {
        var engine = Engine(
            scene: try DeckScene(options: SceneOptions(cardCount: 1_000_000)), viewport: Size(width: 390, height: 844))
        let header = engine.frame(at: 0).nodes.first { $0.id == "title" }
        #expect(header?.text.contains { $0.text == "1,000,000 cards" } == true, "\(String(describing: header))")
        engine = Engine(
            scene: try DeckScene(options: SceneOptions(cardCount: 12)), viewport: Size(width: 390, height: 844))
        let help = try #require(DeckScene.descriptor.keyHelp.first { $0.names == ["s"] })
        for _ in 0..<3 {
            _ = engine.handle(.key(KeyInput("s"), time: 1))
            let text = engine.frame(at: 2).nodes.first { $0.id == "title" }?.text.map(\.text).joined() ?? ""
            let name = text.components(separatedBy: " · by ").last?.dropLast(2) ?? ""
            #expect(help.summary.contains(name), "the header says '\(name)', the help '\(help.summary)'")
        }
    }
}

extension LegibilityTests {
    /// An error longer than the status line is readable in full, wrapped above it (a deck of the wrong kind was shown
    /// as "…needs a deck of students (cards…").
    @Test(arguments: sizes)
    func aLongErrorIsShownInFull(columns: Int, rows: Int) {
        var driver = AppDriver(columns: columns, rows: rows)
        driver.app = TUIApp(
            columns: columns, rows: rows,
            configuration: TUIApp.Configuration(
                catalog: .standard, sceneOptions: SceneOptions(deck: SeedData.flashcards)))
        let opened = driver.app.open("scores", at: 0)
        #expect(!opened)
        let message = driver.app.message ?? ""
        #expect(message.count > 40, "\(message)")
        let buffer = driver.draw(at: 1)
        let bottom = (0..<rows).map { buffer.text(row: $0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let shown = bottom.joined(separator: " ")
        #expect(shown.contains(message), "\(columns)x\(rows): '\(message)' not shown whole")
        driver.key("down", at: 2)
        let after = driver.draw(at: 3).text
        #expect(!after.contains("students"), "the message stays after the next input")
    }
}

extension LegibilityTests {
    /// Short labels are never cut (issue 28): the slider's "10" showed as "1…" and the wallet's expiry as "08/…"
    /// at 60x20. The expiry keeps its "Valid Thru" label wherever the line has room for it.
    @Test(arguments: sizes)
    func tickLabelsAndTheExpiryDateAreWhole(columns: Int, rows: Int) {
        var scores = AppDriver(columns: columns, rows: rows)
        scores.app.open("scores", at: 0)
        let slider = scores.draw(at: 2).text
        #expect(slider.contains(" 10"), "\(columns)x\(rows): the slider's 10 is cut")
        #expect(!slider.contains("1…"))
        var wallet = AppDriver(columns: columns, rows: rows)
        wallet.app.open("wallet", at: 0)
        wallet.draw(at: 2)
        wallet.key("enter", at: 2)
        let card = wallet.draw(at: 5).text
        #expect(card.contains("08/29"), "\(columns)x\(rows): the expiry is cut")
        if columns >= 80 { #expect(card.contains("Valid Thru 08/29")) }
    }
}

extension LegibilityTests {
    /// Focus starts on the first card in every scene with cards, so Enter acts at once (it did nothing in the
    /// scores, the wallet and the hero: focus started nowhere).
    @Test(arguments: ["scores", "wallet", "hero", "deck"])
    func enterRightAfterOpeningActsOnTheFirstCard(scene: String) {
        var driver = AppDriver(columns: 80, rows: 24)
        driver.app.open(scene, at: 0)
        let before = driver.draw(at: 2).text
        #expect(before.contains("┏"), "\(scene): no focused card at the start")
        driver.key("enter", at: 2)
        let after = driver.draw(at: 6).text
        #expect(after != before, "\(scene): Enter did nothing")
    }
}
