import CardEngine
import CardModels
import CardScenes
import Testing

@testable import CardTUI

/// The screen-reader mode's lines, headless: the app driven by keys, the announcer saying what changed.
private struct Reader {
    var app = TUIApp(columns: 100, rows: 40, configuration: TUIApp.Configuration(catalog: .standard))
    var announcer = ScreenReaderAnnouncer()
    var time = 0.0

    /// The lines said after pressing `keys` in turn (each key's lines, joined).
    mutating func press(_ keys: String..., shift: Bool = false) -> [String] {
        var lines: [String] = []
        for key in keys {
            time += 0.5
            _ = app.handle(.key(KeyInput(key, shift: shift)), at: time)
            lines += announcer.announce(app)
        }
        return lines
    }

    mutating func start() -> [String] { announcer.announce(app) }
}

@Suite struct ScreenReaderTests {
    @Test func aFlashcardsSessionReadsAsSentences() {
        var reader = Reader()
        let home = reader.start()
        #expect(home.first?.hasPrefix("Cardistry. Scenes: 1 ") == true)
        #expect(home.last == "Scores, 1 of 5, " + SceneCatalog.standard.descriptors[0].summary)
        #expect(reader.press("down") == ["Flashcards, 2 of 5, swipe-away flashcards"])
        let opened = reader.press("enter")
        #expect(opened[0] == "Flashcards. swipe-away flashcards.")
        #expect(opened[1].hasPrefix("Keys: space enter reveal or hide the answer; left right swipe the top card away"))
        #expect(opened[2] == "\(Self.prompt(0)), card 1 of 12, answer hidden")
        #expect(reader.press("space") == ["\(Self.prompt(0)) \(Self.answer(0)), card 1 of 12, answer shown"])
        #expect(reader.press("right") == ["\(Self.prompt(1)), card 1 of 11, answer hidden"])
        // Through the rest of the stack, each card said once as it comes to the top.
        var said: [String] = []
        for _ in 0..<11 { said += reader.press("left") }
        #expect(said.count == 11)
        #expect(said.last == "Start Again, button")
        #expect(reader.press("r") == ["\(Self.prompt(0)), card 1 of 12, answer hidden"])
        let help = reader.press("?")
        #expect(help.first == "Help.")
        #expect(help.contains("space enter: reveal or hide the answer."))
        // Closing the help says the scene again, and where the focus is.
        let back = reader.press("x")
        #expect(back.first == "Flashcards. swipe-away flashcards.")
        #expect(back.last == "\(Self.prompt(0)), card 1 of 12, answer hidden")
        #expect(reader.press("q").first?.hasPrefix("Cardistry. Scenes:") == true)
        // No line holds an escape sequence or any other control character.
        for line in home + opened + said + help + back {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(line)")
        }
    }

    @Test func aDeckReorderReadsAsSentences() {
        var reader = Reader()
        _ = reader.start()
        let opened = reader.press("5")
        #expect(opened.first == "Card Deck. stacked cards: fan, expand, reorder, bounce; up to 1M cards.")
        #expect(opened.last == "Inbox, card 1 of 12, collapsed")
        #expect(
            reader.press("down", "down", "down") == [
                "Reading List, card 2 of 12, collapsed", "Recipes, card 3 of 12, collapsed",
                "Travel, card 4 of 12, collapsed",
            ])
        #expect(reader.press("up", shift: true) == ["Travel, card 3 of 12, collapsed"])
        #expect(reader.press("up", shift: true) == ["Travel, card 2 of 12, collapsed"])
        #expect(
            reader.press("enter") == [
                "Travel Card 2 of 12 · your order: 2 Drag down or tap outside to close, dialog, expanded"
            ])
        #expect(reader.press("escape") == ["Travel, card 2 of 12, collapsed"])
        // A sort says so through the title, then where the focused card went.
        #expect(reader.press("s") == ["Cards 12 cards · by title ↑, heading", "Travel, card 11 of 12, collapsed"])
    }

    @Test func aSceneWithoutFocusIsReadLinearly() {
        var reader = Reader()
        _ = reader.start()
        let opened = reader.press("1")
        #expect(opened.count > 2)
        #expect(!opened.contains("Nothing focused."))
    }

    static func prompt(_ index: Int) -> String {
        let cards = Array(SeedData.flashcards.reversed())
        guard case .flashcard(let card) = cards[index].payload else { return "" }
        return card.prompt
    }

    static func answer(_ index: Int) -> String {
        let cards = Array(SeedData.flashcards.reversed())
        guard case .flashcard(let card) = cards[index].payload else { return "" }
        return card.answer
    }
}

@Suite struct ReduceMotionOptionTests {
    /// `--reduce-motion` reaches every scene's engine the app opens, and the command line takes the flag.
    @Test func theOptionReachesTheEngine() throws {
        var configuration = TUIApp.Configuration(catalog: .standard)
        configuration.sceneOptions.reducesMotion = true
        var app = TUIApp(columns: 80, rows: 24, configuration: configuration)
        let opened = app.open("deck", at: 0)
        #expect(opened)
        #expect(app.engine?.reducesMotion == true)
        var plain = TUIApp(columns: 80, rows: 24, configuration: TUIApp.Configuration(catalog: .standard))
        let openedPlain = plain.open("deck", at: 0)
        #expect(openedPlain)
        #expect(plain.engine?.reducesMotion == false)
        #expect(try TUIFrontend.Request(["--reduce-motion", "deck"], catalog: .standard).reducesMotion)
        #expect(try TUIFrontend.Request(["--screen-reader"], catalog: .standard).screenReader)
        #expect(try !TUIFrontend.Request(["deck"], catalog: .standard).reducesMotion)
    }
}
