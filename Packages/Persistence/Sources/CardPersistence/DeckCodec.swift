import CardJSON
import Foundation

/// How a `JSONFileStore` turns decks into bytes and back: the streaming fast path (the default) or Foundation's
/// `JSONEncoder`/`JSONDecoder`, kept as the reference for tests and the benchmark. Both read each other's files.
public enum DeckCodec: String, Sendable, Hashable, CaseIterable {
    /// The streaming encoder and decoder over `CardJSON` (the default; no Foundation on the hot path).
    case fast
    /// Foundation's `JSONEncoder` and `JSONDecoder` through DeckDocument's `Codable` conformance.
    case foundation

    /// The document as UTF-8 JSON.
    public func encode(_ document: DeckDocument) throws(StoreError) -> [UInt8] {
        switch self {
        case .fast:
            return DeckFastEncoder.encode(document)
        case .foundation:
            do {
                return Array(try JSONEncoder().encode(document))
            } catch {
                throw .coding(name: "deck", reason: "JSONEncoder failed: \(error)")
            }
        }
    }

    /// Reads a document. Foundation's errors carry no byte offset, so they report offset 0.
    public func decode(_ bytes: [UInt8]) throws(JSONDecodeError) -> DeckFastDecoder.Result {
        switch self {
        case .fast:
            return try DeckFastDecoder.decodeDocument(bytes)
        case .foundation:
            let document: DeckDocument
            do {
                document = try JSONDecoder().decode(DeckDocument.self, from: Data(bytes))
            } catch {
                // Older schemas are migrated on the fast path (the Codable type is the current schema only).
                if let header = try? DocumentHeader.scan(bytes, format: DeckDocument.formatName),
                    header.schemaVersion < DeckDocument.currentSchemaVersion
                {
                    return try DeckFastDecoder.decodeDocument(bytes)
                }
                throw JSONDecodeError(offset: 0, reason: "JSONDecoder: \(error)")
            }
            guard document.format == DeckDocument.formatName else {
                throw JSONDecodeError(offset: 0, reason: "not a Cardistry deck document")
            }
            return DeckFastDecoder.Result(document: document, migratedFrom: nil)
        }
    }
}
