import CardFrontend
import CardModels
import CardPersistence
import Foundation

/// `cardistry deck`: list, import, export, remove and check the decks in the store.
///
/// Exit status 0 on success, 1 on a data error (unreadable file, bad rows, conflict, missing deck), 2 on a usage
/// error. Import is all-or-nothing: a file with any bad row imports nothing.
struct DeckCommand: Command {
    let name = "deck"
    let summary = "list, import, export, remove and check the stored decks"
    var usage: String {
        """
        Usage: cardistry deck list [--store DIR]
               cardistry deck import FILE [--name NAME] [--replace] [--store DIR]
               cardistry deck export NAME [--format json|tsv] [--store DIR]
               cardistry deck remove NAME [--store DIR]
               cardistry deck check [NAME] [--store DIR]

          list             the names of the stored decks, one per line
          import FILE      a deck from JSON (a deck document or {"cards": [...]}) or TSV (flashcards:
                           prompt<TAB>answer per line); the name defaults to the file's name without extension;
                           bad rows are reported by line number and nothing is imported
          export NAME      the deck as a JSON document (default) or as TSV (flashcard decks only)
          remove NAME      deletes the deck (the store keeps it as NAME.json.bak)
          check [NAME]     reads every document (or one deck) completely and names what is wrong

          --store DIR      the store directory (default: $CARDISTRY_HOME, else $XDG_DATA_HOME/cardistry,
                           else ~/.local/share/cardistry)
          --name NAME      the deck's name for import (letters, digits, '-', '_', '.'; at most 64)
          --replace        import over an existing deck of that name
          --format F       export format: json (default) or tsv

        Exit status: 0 success, 1 data error, 2 usage error.

        """
    }

    func run(arguments: [String], environment: [String: String], io: CommandIO) -> Int32 {
        withUsage(io: io) {
            let parsed = try ParsedArguments(arguments, options: ["store", "name", "format"], flags: ["replace"])
            guard let action = parsed.positionals.first else {
                throw UsageError("missing a subcommand: list, import, export, remove or check")
            }
            let operands = Array(parsed.positionals.dropFirst())
            try checkOptions(parsed, for: action)
            let store = try JSONFileStore(explicit: parsed.value("store"), environment: environment)
            switch action {
            case "list":
                try expect(operands, count: 0...0, "list takes no operand")
                let names = try store.deckNames()
                io.out(names.map { $0 + "\n" }.joined())
                return 0
            case "import":
                try expect(operands, count: 1...1, "import needs exactly one FILE")
                return try importDeck(
                    from: operands[0], name: parsed.value("name"), replace: parsed.flags.contains("replace"),
                    store: store, io: io)
            case "export":
                try expect(operands, count: 1...1, "export needs exactly one NAME")
                return try exportDeck(operands[0], format: parsed.value("format") ?? "json", store: store, io: io)
            case "remove":
                try expect(operands, count: 1...1, "remove needs exactly one NAME")
                try StoreName.validate(operands[0])
                try store.deleteDeck(named: operands[0], expectedRevision: nil)
                io.out("removed deck \"\(operands[0])\" (kept as \(store.backupPath(.deck, operands[0])))\n")
                return 0
            case "check":
                try expect(operands, count: 0...1, "check takes at most one NAME")
                return try check(operands.first, store: store, io: io)
            default:
                throw UsageError("unknown subcommand '\(action)' (list, import, export, remove, check)")
            }
        }
    }

    private func checkOptions(_ parsed: ParsedArguments, for action: String) throws {
        if action != "import" {
            if parsed.value("name") != nil { throw UsageError("--name is only for import") }
            if parsed.flags.contains("replace") { throw UsageError("--replace is only for import") }
        }
        if let format = parsed.value("format") {
            guard action == "export" else { throw UsageError("--format is only for export") }
            guard format == "json" || format == "tsv" else {
                throw UsageError("--format must be json or tsv, got '\(format)'")
            }
        }
        if let name = parsed.value("name") {
            do {
                try StoreName.validate(name)
            } catch {
                throw UsageError("--name: \(error)")
            }
        }
    }

    private func expect(_ operands: [String], count: ClosedRange<Int>, _ message: String) throws {
        guard count.contains(operands.count) else { throw UsageError(message) }
    }

    // MARK: Import

    private func importDeck(
        from file: String, name explicitName: String?, replace: Bool, store: JSONFileStore, io: CommandIO
    ) throws -> Int32 {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        } catch {
            io.err("cardistry deck: cannot read \(file): \(error.localizedDescription)\n")
            return 1
        }
        let url = URL(fileURLWithPath: file)
        let name = explicitName ?? url.deletingPathExtension().lastPathComponent
        do {
            try StoreName.validate(name)
        } catch {
            io.err("cardistry deck: \(error); choose one with --name\n")
            return 1
        }
        let deck: Deck
        switch DeckFile.parse(bytes, pathExtension: url.pathExtension) {
        case .success(let parsed): deck = parsed
        case .failure(let problem):
            io.err("cardistry deck: " + problem.description(file: file))
            return 1
        }
        do {
            let revision = try store.saveDeck(deck, named: name, expectedRevision: replace ? nil : 0)
            io.out("imported \(deck.count) cards into deck \"\(name)\" (revision \(revision))\n")
            return 0
        } catch {
            guard Self.isAlreadyExists(error) else { throw error }
            io.err("cardistry deck: a deck named \"\(name)\" already exists; use --replace to overwrite it\n")
            return 1
        }
    }

    private static func isAlreadyExists(_ error: any Error) -> Bool {
        guard let storeError = error as? StoreError, case .conflict(_, _, let expected, _) = storeError else {
            return false
        }
        return expected == 0
    }

    // MARK: Export

    private func exportDeck(_ name: String, format: String, store: JSONFileStore, io: CommandIO) throws -> Int32 {
        try StoreName.validate(name)
        let stored = try store.loadDeck(named: name)
        if format == "json" {
            var bytes = DeckFastEncoder.encode(DeckDocument(deck: stored.deck, revision: stored.revision))
            bytes.append(UInt8(ascii: "\n"))
            io.out(String(decoding: bytes, as: UTF8.self))
            return 0
        }
        var text = ""
        for card in stored.deck {
            guard case .flashcard(let flashcard) = card.payload else {
                io.err(
                    "cardistry deck: card \(card.id) (\"\(card.title)\") is not a flashcard; TSV holds flashcards only\n"
                )
                return 1
            }
            let unsafe = [flashcard.prompt, flashcard.answer].contains { field in
                field.contains { $0 == "\t" || $0.isNewline }
            }
            if unsafe {
                io.err("cardistry deck: card \(card.id) has a tab or line break, which TSV cannot hold; use JSON\n")
                return 1
            }
            text += flashcard.prompt + "\t" + flashcard.answer + "\n"
        }
        io.out(text)
        return 0
    }

    // MARK: Check

    private func check(_ name: String?, store: JSONFileStore, io: CommandIO) throws -> Int32 {
        let results = try store.check(deck: name)
        if results.isEmpty { io.out("the store at \(store.root) holds no documents\n") }
        var bad = 0
        for result in results {
            let label = "\(result.kind.rawValue) \"\(result.name)\""
            if let problem = result.problem {
                bad += 1
                io.out("BAD  \(label): \(problem)\n")
            } else {
                var line = "ok   \(label): revision \(result.revision ?? 0)"
                if let cards = result.cardCount { line += ", \(cards) cards" }
                if let version = result.schemaVersion {
                    let current =
                        result.kind == .deck ? DeckDocument.currentSchemaVersion : StateDocument.currentSchemaVersion
                    if version > current { line += ", read-only (schema \(version) is newer than \(current))" }
                }
                io.out(line + "\n")
            }
        }
        if bad > 0 { io.err("cardistry deck: \(bad) of \(results.count) documents are unreadable\n") }
        return bad == 0 ? 0 : 1
    }
}
