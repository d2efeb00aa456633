import CardJSON

/// The envelope of a stored document, read by validating the whole file (strict syntax and UTF-8) while keeping
/// only `format`, `schemaVersion`, `revision` and a state's `journal` (the last journal record its snapshot includes). The store reads it before replacing a file, so that a file that
/// is not well-formed is never overwritten. O(bytes), constant memory beyond the input.
struct DocumentHeader: Sendable, Hashable {
    var schemaVersion: Int
    var revision: Int
    /// A state document's `journal` (0: none, or not a state).
    var journal = 0

    /// Scans `bytes` as a document of `format`. A deck document of schema version 1 has no revision (it counts
    /// as revision 1, as its migration makes it).
    static func scan(_ bytes: [UInt8], format expectedFormat: String) throws(JSONDecodeError) -> DocumentHeader {
        try bytes.withBytes { (buffer) throws(JSONDecodeError) -> DocumentHeader in
            var scanner = JSONScanner(buffer)
            try scanner.expectStart()
            if try scanner.openObject("a document") {
                throw scanner.error("not a Cardistry document: the object is empty", at: 0)
            }
            var format: String?
            var schemaVersion: Int?
            var revision: Int?
            var journal: Int?
            repeat {
                scanner.skipWhitespace()
                let keyOffset = scanner.position
                let key = try scanner.readKey()
                if scanner.equals(key, "format") || scanner.equals(key, "schemaVersion")
                    || scanner.equals(key, "revision")
                {
                    let name = scanner.string(key)
                    let duplicate =
                        switch name {
                        case "format": format != nil
                        case "schemaVersion": schemaVersion != nil
                        default: revision != nil
                        }
                    if duplicate { throw scanner.error("duplicate key \"\(name)\"", at: keyOffset) }
                    switch name {
                    case "format": format = try scanner.readString("the format")
                    case "schemaVersion":
                        schemaVersion = try scanner.readInt("the schema version", in: 1...Int(Int32.max))
                    default: revision = try scanner.readInt("the revision", in: 1...Int.max)
                    }
                } else if scanner.equals(key, "journal") {
                    if journal != nil { throw scanner.error("duplicate key \"journal\"", at: keyOffset) }
                    journal = try scanner.readInt("the journal sequence", in: 0...Int.max)
                } else {
                    try scanner.skipValue(depth: 1)
                }
            } while try scanner.nextElement(close: UInt8(ascii: "}"), "the document")
            try scanner.expectEnd()
            guard let format, format == expectedFormat else {
                throw scanner.error(
                    "not a \(expectedFormat) document (format \(format.map { "\"\($0)\"" } ?? "missing"))", at: 0)
            }
            guard let schemaVersion else { throw scanner.error("no \"schemaVersion\"", at: 0) }
            if revision == nil && expectedFormat == DeckDocument.formatName && schemaVersion == 1 { revision = 1 }
            guard let revision else { throw scanner.error("no \"revision\"", at: 0) }
            return DocumentHeader(schemaVersion: schemaVersion, revision: revision, journal: journal ?? 0)
        }
    }
}
