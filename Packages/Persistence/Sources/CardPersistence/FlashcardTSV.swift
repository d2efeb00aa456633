import CardModels

/// Flashcards as tab-separated text: one `prompt<TAB>answer` per line (the flashcards scene's user decks).
///
/// Lines end in LF or CRLF; blank lines are skipped. A line with no tab or more than one, an empty prompt or
/// answer, or bytes that are not UTF-8 is a problem reported with its 1-based line number; parsing collects every
/// problem, and any problem means no deck (import is all-or-nothing). O(bytes).
public enum FlashcardTSV {
    /// One bad line.
    public struct Problem: Sendable, Hashable {
        /// The 1-based line number of the bad line.
        public var line: Int
        /// What is wrong with the line, in words.
        public var reason: String
    }

    /// Every bad line of a file (at least one).
    public struct Problems: Error, Sendable, Hashable {
        /// The bad lines, in file order.
        public var problems: [Problem]

        /// A report naming the file and each bad line (the first 20, then a count).
        public func description(file: String) -> String {
            var text = ""
            for problem in problems.prefix(20) { text += "\(file):\(problem.line): \(problem.reason)\n" }
            if problems.count > 20 { text += "\(file): … and \(problems.count - 20) more bad lines\n" }
            return text + "\(file): \(problems.count) bad line\(problems.count == 1 ? "" : "s"); nothing was imported\n"
        }
    }

    /// The deck of flashcards in `bytes`: ids 1…n in file order, titles the prompts, colours cycling through
    /// `DeckGenerator.palette`, `sortOrder` the position.
    public static func parse(_ bytes: [UInt8]) -> Result<Deck, Problems> {
        var cards: [Card] = []
        var problems: [Problem] = []
        var lineNumber = 0
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = rawLine
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            guard let text = String(validating: line, as: UTF8.self) else {
                problems.append(Problem(line: lineNumber, reason: "not valid UTF-8"))
                continue
            }
            let fields = text.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 2 else {
                let reason =
                    fields.count == 1
                    ? "expected prompt<TAB>answer, found no tab" : "expected one tab, found \(fields.count - 1)"
                problems.append(Problem(line: lineNumber, reason: reason))
                continue
            }
            let prompt = fields[0].trimmingSpaces
            let answer = fields[1].trimmingSpaces
            guard !prompt.isEmpty, !answer.isEmpty else {
                problems.append(Problem(line: lineNumber, reason: prompt.isEmpty ? "empty prompt" : "empty answer"))
                continue
            }
            let index = cards.count
            cards.append(
                Card(
                    id: CardID(UInt64(index + 1)), title: prompt,
                    color: DeckGenerator.palette[index % DeckGenerator.palette.count], sortOrder: index,
                    payload: .flashcard(Flashcard(prompt: prompt, answer: answer))))
        }
        if cards.isEmpty && problems.isEmpty { problems.append(Problem(line: max(1, lineNumber), reason: "no cards")) }
        guard problems.isEmpty else { return .failure(Problems(problems: problems)) }
        // Ids are 1…n, unique by construction.
        return .success((try? Deck(cards)) ?? Deck())
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
