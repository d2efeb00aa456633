import CardModels

/// A deck document as stored: the envelope (`format`, `schemaVersion`, `revision`) around the deck.
///
/// In JSON: `{"format":"cardistry.deck","schemaVersion":3,"revision":7,"deck":{"cards":[...]}}`. This type is the
/// Foundation Codable reference; `DeckFastEncoder` and `DeckFastDecoder` read and write the same documents.
public struct DeckDocument: Sendable, Hashable, Codable {
    /// The `format` of every deck document.
    public static let formatName = "cardistry.deck"
    /// The schema version this build writes. Older versions are migrated on load (`DocumentMigrations`);
    /// newer ones open read-only.
    public static let currentSchemaVersion = 3

    /// The document's format name; formatName for every deck document.
    public var format: String
    /// The schema version the document was written with.
    public var schemaVersion: Int
    /// The document's revision: 1 when first saved, one more on every save.
    public var revision: Int
    /// The deck itself.
    public var deck: Deck

    /// A document around `deck` at `revision`, by default in the current schema and format.
    public init(
        deck: Deck, revision: Int, schemaVersion: Int = DeckDocument.currentSchemaVersion,
        format: String = DeckDocument.formatName
    ) {
        self.format = format
        self.schemaVersion = schemaVersion
        self.revision = revision
        self.deck = deck
    }
}

/// A scene-state document as stored: `{"format":"cardistry.state","schemaVersion":1,"revision":3,"state":{...}}`.
/// The `state` value is the scene's own Codable type.
public enum StateDocument {
    /// The `format` of every state document.
    public static let formatName = "cardistry.state"
    /// The envelope version this build writes.
    public static let currentSchemaVersion = 1
}
