import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension TmuxHarness {
    /// Presses a key by its tmux name ("Right", "Enter", "Escape", "C-z", "q").
    func key(_ name: String) throws {
        try run(["send-keys", "-t", session, name])
    }

    /// Writes `text` to a file in the store directory and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        let path = storeDirectory + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// Whole graphemes and the modes a terminal user expects, through the built executable in tmux.
@Suite(.serialized) struct TUIModesEndToEndTests {
    /// Deck titles with a combining accent, a flag and VS16 emoji, a ZWJ sequence and precomposed accents.
    static let deck = """
        Cafe\u{301} cre\u{300}me\tanswer one
        🇫🇷 France ❤️\tanswer two
        Family 👨‍👩‍👧 end\tanswer three
        énd naïve\tanswer four

        """

    /// Today combining marks and joiners were stripped ("Cafe creme") and `--ascii` printed "?nd na?ve".
    @Test func deckTitlesKeepTheirWholeGraphemes() throws {
        try withTmux { tmux in
            let path = try tmux.file("deck.tsv", Self.deck)
            try tmux.type(try tmux.command("tui --scene deck --deck '\(path)'"))
            #expect(try tmux.waitFor { $0.contains("énd naïve") })
            let screen = try tmux.screen()
            #expect(screen.unicodeScalars.contains("\u{301}"), "the combining acute accent reaches the terminal")
            #expect(screen.contains("Cafe\u{301} cre\u{300}me"))
            #expect(screen.contains("🇫🇷 France \u{2764}\u{FE0F}"))
            #expect(screen.contains("Family 👨‍👩‍👧 end"))
            try tmux.send("q")
            try tmux.send("q")
            #expect(try tmux.waitFor { $0.contains("EXIT=0") })
            // --ascii: the decoration is ASCII, the text is the user's.
            try tmux.type("clear; " + (try tmux.command("tui --ascii --scene deck --deck '\(path)'")))
            #expect(try tmux.waitFor { $0.contains("énd naïve") && $0.contains("+---") })
            #expect(try tmux.screen().contains("Cafe\u{301} cre\u{300}me"))
            #expect(!(try tmux.screen().contains("╭")))
            try tmux.send("q")
            try tmux.send("q")
            #expect(try tmux.waitFor { $0.contains("EXIT=0") })
            // A terminal that shows only ASCII (the C locale): transliterated, "?" only for what remains.
            try tmux.type("clear; LC_ALL=C " + (try tmux.command("tui --scene deck --deck '\(path)'")))
            #expect(try tmux.waitFor { $0.contains("end naive") && $0.contains("Cafe creme") })
            #expect(try tmux.screen().contains("? France ?"))
            try tmux.send("q")
            try tmux.send("q")
            #expect(try tmux.waitFor { $0.contains("EXIT=0") })
        }
    }

    /// Today TERM=dumb got the full colour UI, escape sequences and all.
    @Test(arguments: ["TERM=dumb", "env -u TERM"])
    func aTerminalWithoutCursorAddressingIsRefused(prefix: String) throws {
        try withTmux { tmux in
            try tmux.type("\(prefix) " + (try tmux.command("tui --scene scores")))
            #expect(try tmux.waitFor { $0.contains("EXIT=2") })
            let screen = try tmux.screen()
            #expect(screen.contains("cannot show the terminal UI"))
            #expect(!screen.contains("Test 1"))
            #expect(try tmux.format("#{alternate_on}") == "0")
        }
    }

    /// Today the screen kept the old size after `fg` until the next real resize.
    @Test func resizedWhileSuspendedRedrawsAtTheNewSizeOnResume() throws {
        try withTmux { tmux in
            try tmux.type(try tmux.command("tui --scene scores"))
            #expect(try tmux.waitFor { $0.contains("Test 1") && $0.contains("q back") })
            try tmux.key("C-z")
            #expect(try tmux.waitFor { $0.contains("Stopped") })
            try tmux.run(["resize-window", "-t", tmux.session, "-x", "120", "-y", "40"])
            #expect(try tmux.waitFor { $0.split(separator: "\n", omittingEmptySubsequences: false).count >= 40 })
            try tmux.type("fg")
            #expect(
                try tmux.waitFor { screen in
                    let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
                    return lines.count >= 40 && lines[39].hasSuffix("q back") && lines[39].count >= 110
                        && lines.contains { $0.contains("╭") && $0.count >= 110 }
                })
            try tmux.send("q")
            try tmux.send("q")
            #expect(try tmux.waitForExit())
        }
    }

    /// Today, under NO_COLOR, the focus was invisible and the status line was not set apart.
    @Test func withoutColourTheFocusShows() throws {
        try withTmux { tmux in
            try tmux.type("NO_COLOR=1 " + (try tmux.command("tui --scene scores")))
            #expect(try tmux.waitFor { $0.contains("Test 1") })
            try tmux.key("Down")
            #expect(try tmux.waitFor { $0.contains("┏") && $0.contains("┛") })
            let styled = try tmux.styledScreen()
            #expect(!styled.contains("38;2;") && !styled.contains("48;2;"), "no colour at all")
            #expect(styled.contains("\u{1B}[7m") || styled.contains(";7m") || styled.contains("[7;"))
            try tmux.send("q")
            try tmux.send("q")
            #expect(try tmux.waitFor { $0.contains("EXIT=0") })
        }
    }

    /// Clicking "q quit" on the status line quits.
    @Test func clickingQuitOnTheStatusLineQuits() throws {
        try withTmux { tmux in
            try tmux.type(try tmux.command("tui"))
            #expect(try tmux.waitFor { $0.contains("choose a scene") })
            let lines = try tmux.lines()
            let status = try #require(lines.lastIndex { $0.contains("q quit") })
            let column = try #require(lines[status].range(of: "q quit")).lowerBound.utf16Offset(in: lines[status])
            try tmux.click(column: column + 2, row: status)
            #expect(try tmux.waitFor { $0.contains("EXIT=0") })
        }
    }
}
