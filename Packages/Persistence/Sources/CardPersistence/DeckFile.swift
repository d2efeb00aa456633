import CardModels
import Foundation

/// A user's deck file — JSON (a deck document of any schema version, or a bare `{"cards": [...]}`) or TSV
/// (flashcards: prompt<TAB>answer per line) — read all or nothing, with errors that point at the line.
///
/// The one reader for every front end: `cardistry deck import`, `cardistry tui --deck FILE` and the stdio server.
public enum DeckFile {
    /// The file's format.
    public enum Format: Sendable, Hashable {
        /// A JSON deck document of any schema version, or a bare `{"cards": [...]}`.
        case json
        /// Tab-separated flashcards: one `prompt<TAB>answer` per line.
        case tsv
    }

    /// Why a deck file could not be read; `description(file:)` is the message to show.
    public enum Problem: Error, Sendable, Hashable {
        /// The file could not be read at all.
        case unreadable(String)
        /// Malformed JSON: where and why.
        case json(line: Int, column: Int, offset: Int, reason: String)
        /// Bad TSV rows, by line number.
        case tsv(FlashcardTSV.Problems)

        /// The message for a user, naming `file`.
        public func description(file: String) -> String {
            switch self {
            case .unreadable(let reason): "cannot read \(file): \(reason)\n"
            case .json(let line, let column, let offset, let reason):
                "\(file):\(line):\(column): \(reason) (at byte \(offset)); nothing was read\n"
            case .tsv(let problems): problems.description(file: file)
            }
        }
    }

    /// By extension (`.json`; `.tsv`/`.txt`), else by the first non-blank byte (`{` or `[` means JSON).
    public static func format(of bytes: [UInt8], pathExtension: String) -> Format {
        switch pathExtension.lowercased() {
        case "json": return .json
        case "tsv", "txt": return .tsv
        default:
            let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
            return first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .json : .tsv
        }
    }

    /// Parses a deck from `bytes`, all or nothing. O(n) in the bytes.
    public static func parse(_ bytes: [UInt8], pathExtension: String = "") -> Result<Deck, Problem> {
        switch format(of: bytes, pathExtension: pathExtension) {
        case .json:
            do {
                return .success(try DeckFastDecoder.decodeDocumentOrDeck(bytes))
            } catch {
                let (line, column) = lineAndColumn(of: error.offset, in: bytes)
                return .failure(.json(line: line, column: column, offset: error.offset, reason: error.reason))
            }
        case .tsv:
            return FlashcardTSV.parse(bytes).mapError { .tsv($0) }
        }
    }

    /// Reads and parses the file at `path`.
    public static func read(path: String) -> Result<Deck, Problem> {
        contents(path: path).flatMap { parse($0, pathExtension: URL(fileURLWithPath: path).pathExtension) }
    }

    /// The bytes of the file at `path` (for a caller that parses them and also needs them, to fingerprint the
    /// deck, say), or why it cannot be read.
    public static func contents(path: String) -> Result<[UInt8], Problem> {
        do {
            return .success(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        } catch {
            return .failure(.unreadable(error.localizedDescription))
        }
    }

    /// The 1-based line and column (in bytes) of a byte offset. O(offset).
    public static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }
}
