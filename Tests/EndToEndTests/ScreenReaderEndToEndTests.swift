import Foundation
import Testing

/// `cardistry tui --screen-reader` through the built executable in tmux: what a screen reader hears is the lines
/// the pane shows, and the bytes the program writes hold no escape sequence.
@Suite(.serialized) struct ScreenReaderEndToEndTests {
    /// The bytes the pane's program writes from now on, collected in a file of the store directory.
    static func capture(_ tmux: TmuxHarness) throws -> String {
        let path = tmux.storeDirectory + "/pane.out"
        try tmux.run(["pipe-pane", "-o", "-t", tmux.session, "cat >> '\(path)'"])
        return path
    }

    /// The program's own output in `path`: from its first line (`first`) to the shell's `EXIT=`.
    static func programOutput(_ path: String, from first: String) throws -> [UInt8] {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let text = String(decoding: bytes, as: UTF8.self)
        guard let start = text.range(of: first)?.lowerBound, let end = text.range(of: "EXIT=")?.lowerBound,
            start < end
        else { return bytes }
        return Array(text[start..<end].utf8)
    }

    @Test func aFlashcardsSessionIsReadLineByLine() throws {
        try withTmux(columns: 120, rows: 40) { tmux in
            let path = try Self.capture(tmux)
            try tmux.type(try tmux.command("tui --screen-reader --scene flashcards"))
            #expect(try tmux.waitFor { $0.contains("card 1 of 12, answer hidden") })
            #expect(try tmux.format("#{alternate_on}") == "0")
            try tmux.key("Space")
            #expect(try tmux.waitFor { $0.contains("card 1 of 12, answer shown") })
            try tmux.key("Right")
            #expect(try tmux.waitFor { $0.contains("card 1 of 11, answer hidden") })
            // One key at a time, as a listener does: keys that arrive together are said as their end state.
            for left in (1...10).reversed() {
                try tmux.key("Left")
                #expect(try tmux.waitFor { $0.contains("card 1 of \(left), answer hidden") })
            }
            try tmux.key("Left")
            #expect(try tmux.waitFor { $0.contains("Start Again, button") })
            try tmux.send("r")
            #expect(try tmux.waitFor { $0.components(separatedBy: "card 1 of 12, answer hidden").count == 3 })
            try tmux.send("q")
            #expect(try tmux.waitFor { $0.contains("Cardistry. Scenes:") })
            try tmux.send("q")
            #expect(try tmux.waitFor { $0.contains("EXIT=0") })

            let lines = try tmux.run(["capture-pane", "-p", "-J", "-S", "-200", "-t", tmux.session])
                .split(separator: "\n").map(String.init)
            let said = lines.drop { !$0.hasPrefix("Flashcards.") }.prefix { !$0.hasPrefix("EXIT=") }
            #expect(said.first == "Flashcards. swipe-away flashcards.")
            #expect(said.contains("Start Again, button"))
            // Each change is said once: 12 cards, the revealed one again, the button, the 12 cards again.
            #expect(said.filter { $0.contains(", card 1 of ") }.count == 14)
            let output = try Self.programOutput(path, from: "Flashcards.")
            #expect(!output.isEmpty)
            #expect(!output.contains(0x1B), "an escape sequence in the screen-reader output")
        }
    }

    @Test func aDeckReorderIsReadAsSentencesOnATerminalWithoutCursorAddressing() throws {
        try withTmux(columns: 120, rows: 40) { tmux in
            let path = try Self.capture(tmux)
            try tmux.type("TERM=dumb CARDISTRY_SCREEN_READER=1 " + (try tmux.command("tui --scene deck")))
            #expect(try tmux.waitFor { $0.contains("Inbox, card 1 of 12, collapsed") })
            for _ in 0..<3 { try tmux.key("Down") }
            #expect(try tmux.waitFor { $0.contains("Travel, card 4 of 12, collapsed") })
            try tmux.key("S-Up")
            #expect(try tmux.waitFor { $0.contains("Travel, card 3 of 12, collapsed") })
            try tmux.key("Enter")
            #expect(try tmux.waitFor { $0.contains("dialog, expanded") })
            try tmux.key("Escape")
            #expect(try tmux.waitFor { $0.components(separatedBy: "Travel, card 3 of 12, collapsed").count == 3 })
            try tmux.send("q")
            try tmux.send("q")
            #expect(try tmux.waitFor { $0.contains("EXIT=0") })
            let output = try Self.programOutput(path, from: "Card Deck.")
            #expect(!output.contains(0x1B), "an escape sequence in the screen-reader output")
        }
    }

    /// In the full-screen mode the terminal's cursor rests on the focused item (screen readers and braille displays
    /// follow it): inside the focused card's box, following the focus; on the home screen, on the highlighted scene's label.
    @Test func theCursorRestsOnTheFocusedItem() throws {
        try withTmux(columns: 100, rows: 30) { tmux in
            try tmux.type(try tmux.command("tui --scene deck"))
            #expect(try tmux.waitFor { $0.contains("Reading List") })
            _ = try tmux.waitForStillScreen()
            let lines = try tmux.lines()
            let inbox = try #require(lines.firstIndex { $0.contains("Inbox") })
            let column = try #require(lines[inbox].firstIndex(of: "I")).utf16Offset(in: lines[inbox])
            // The row of the card's title, one column inside its border (the title sits one further in).
            #expect(try tmux.format("#{cursor_x},#{cursor_y}") == "\(column - 1),\(inbox)")
            try tmux.key("Down")
            let reading = try #require(lines.firstIndex { $0.contains("Reading List") })
            #expect(try tmux.waitFor { _ in (try? tmux.format("#{cursor_y}")) == "\(reading)" })
            try tmux.send("q")
            #expect(try tmux.waitFor { $0.contains("choose a scene") })
            _ = try tmux.waitForStillScreen()
            let home = try tmux.lines()
            // The scene just left is highlighted ("> 5 deck").
            let highlighted = try #require(home.firstIndex { $0.contains("> ") && $0.contains("deck") })
            #expect(try tmux.format("#{cursor_y}") == "\(highlighted)")
            try tmux.send("q")
            #expect(try tmux.waitFor { $0.contains("EXIT=0") })
        }
    }

    /// `--show-cursor` (or `CARDISTRY_SHOW_CURSOR=1`) shows the cursor that rests on the focused item, for a braille
    /// display that follows it; without either it stays hidden (DECTCEM as tmux reads it: `cursor_flag`).
    @Test(arguments: ["tui --scene deck --show-cursor", "tui --scene deck"])
    func theCursorIsShownOnRequest(command: String) throws {
        let shown = command.contains("--show-cursor")
        for environment in shown ? ["", "CARDISTRY_SHOW_CURSOR=1 "] : [""] {
            try withTmux(columns: 100, rows: 30) { tmux in
                let line = environment.isEmpty ? command : "tui --scene deck"
                try tmux.type(environment + (try tmux.command(line)))
                #expect(try tmux.waitFor { $0.contains("Reading List") })
                _ = try tmux.waitForStillScreen()
                let visible = shown ? "1" : "0"
                #expect(try tmux.format("#{cursor_flag}") == visible, "\(environment)\(command)")
                let lines = try tmux.lines()
                let inbox = try #require(lines.firstIndex { $0.contains("Inbox") })
                #expect(try tmux.format("#{cursor_y}") == "\(inbox)")
                try tmux.key("Down")
                let reading = try #require(lines.firstIndex { $0.contains("Reading List") })
                #expect(try tmux.waitFor { _ in (try? tmux.format("#{cursor_y}")) == "\(reading)" })
                #expect(try tmux.format("#{cursor_flag}") == visible)
                try tmux.send("q")
                try tmux.send("q")
                #expect(try tmux.waitFor { $0.contains("EXIT=0") })
                #expect(try tmux.format("#{cursor_flag}") == "1", "the cursor is back after the TUI")
            }
        }
    }
}
