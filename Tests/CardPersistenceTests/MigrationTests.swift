import CardJSON
import CardPersistence
import Foundation
import Testing

/// The migration chain against the committed fixtures of every older schema version.
@Suite struct MigrationTests {
    @Test(arguments: [("deck-v1.json", 1, 1), ("deck-v2.json", 2, 4)])
    func olderFixturesMigrateToTheSameDeck(_ file: String, _ version: Int, _ revision: Int) throws {
        let result = try DeckFastDecoder.decodeDocument(try fixture(file))
        #expect(result.migratedFrom == version)
        #expect(result.document.schemaVersion == DeckDocument.currentSchemaVersion)
        #expect(result.document.revision == revision)
        #expect(result.document.deck == (try fixtureDeck()))
    }

    @Test func currentFixtureReadsWithBothPaths() throws {
        let bytes = try fixture("deck-v3.json")
        let fast = try DeckFastDecoder.decodeDocument(bytes)
        #expect(fast.migratedFrom == nil)
        #expect(fast.document.deck == (try fixtureDeck()))
        #expect(try JSONDecoder().decode(DeckDocument.self, from: Data(bytes)) == fast.document)
    }

    @Test func everyOlderVersionHasAFixtureAndAStep() throws {
        for version in 1..<DeckDocument.currentSchemaVersion {
            #expect(DocumentMigrations.deckSteps[version] != nil)
            _ = try fixture("deck-v\(version).json")
        }
    }

    @Test func stepsArePureAndValidateTheirInput() throws {
        let v1 = try JSONValue(parsing: try fixture("deck-v1.json"))
        let once = try DocumentMigrations.deckV1ToV2(v1)
        #expect(try DocumentMigrations.deckV1ToV2(v1) == once)
        #expect(once["revision"] == .integer(1))
        #expect(throws: MigrationError.self) { try DocumentMigrations.deckV1ToV2(.object([])) }
        var badID = try JSONValue(parsing: try fixture("deck-v2.json"))
        badID.set("cards", .array([.object([JSONValue.Member("id", .string("x"))])]))
        #expect(throws: MigrationError.self) { try DocumentMigrations.deckV2ToV3(badID) }
        // A broken old document is a typed decode error through the decoder.
        let broken = Array(##"{"format":"cardistry.deck","schemaVersion":1,"cards":7}"##.utf8)
        #expect(throws: JSONDecodeError.self) { try DeckFastDecoder.decodeDocument(broken) }
    }

    @Test func newerFixtureReadsWithItsOwnVersion() throws {
        let result = try DeckFastDecoder.decodeDocument(try fixture("deck-v4-newer.json"))
        #expect(result.document.schemaVersion == 4)
        #expect(result.document.deck.count == 1)
    }
}
