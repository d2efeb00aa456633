import CardModels
import CardPersistence
import Foundation

extension DeckFile {
    /// A deck file as a front end opens it (`cardistry tui --deck FILE`, `scene.open {deckFile}`): the deck, all or
    /// nothing, and the identity its state is kept under — the file's content (`StateKey.file(contents:)`), so the
    /// same file has the same progress in the terminal UI and in any host. O(n) in the file's bytes.
    public static func open(path: String) -> Result<(deck: Deck, identity: String), Problem> {
        contents(path: path).flatMap { bytes in
            parse(bytes, pathExtension: URL(fileURLWithPath: path).pathExtension).map {
                (deck: $0, identity: StateKey.file(contents: bytes))
            }
        }
    }
}
