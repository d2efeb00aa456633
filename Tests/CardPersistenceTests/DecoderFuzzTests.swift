import CardJSON
import CardModels
import CardPersistence
import Foundation
import Testing

/// Seeded fuzzing of the fast decoder: every malformed input gives a typed error with an offset inside the input,
/// never a crash, and every accepted input is one Foundation's `JSONDecoder` agrees on.
@Suite struct DecoderFuzzTests {
    static let document = DeckFastEncoder.encode(DeckDocument(deck: awkwardDeck(count: 12, seed: 11), revision: 2))

    @Test func everyTruncatedPrefixIsATypedError() {
        let bytes = Self.document
        var failures = 0
        for length in 0..<bytes.count {
            do {
                _ = try DeckFastDecoder.decodeDocument(Array(bytes[0..<length]))
                Issue.record("a prefix of \(length) bytes was accepted")
            } catch {
                failures += 1
                #expect(error.offset <= length)
            }
        }
        #expect(failures == bytes.count)
    }

    @Test func randomByteFlipsNeverCrashAndAgreeWithFoundation() throws {
        var random = SplitMix64(seed: 2024)
        let original = Self.document
        var rejected = 0
        for _ in 0..<4000 {
            var bytes = original
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let index = Int(random.next() % UInt64(bytes.count))
                bytes[index] ^= UInt8(truncatingIfNeeded: 1 << (random.next() % 8))
            }
            do {
                let decoded = try DeckFastDecoder.decodeDocument(bytes).document
                // Accepted: the bytes must be JSON Foundation's parser accepts too (the fast decoder follows RFC
                // 8259, which JSONSerialization also implements: there is no input the RFC allows that
                // JSONSerialization rejects among these flips), and Foundation's Codable path must read the very
                // same document from them (a flip inside a string changes a value on both paths alike).
                let parsed = Result {
                    try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
                }
                if case .failure(let error) = parsed {
                    Issue.record(
                        "the fast decoder accepted bytes JSONSerialization rejects (\(error)): \(Self.show(bytes))")
                    continue
                }
                let foundation = Result { try JSONDecoder().decode(DeckDocument.self, from: Data(bytes)) }
                #expect(
                    (try? foundation.get()) == decoded,
                    "fast and Foundation disagree: \(foundation) for \(Self.show(bytes))")
            } catch {
                rejected += 1
                #expect(error.offset >= 0 && error.offset <= bytes.count)
                #expect(!error.reason.isEmpty)
            }
        }
        #expect(rejected > 1000)
    }

    /// The bytes as text, for a failure message.
    static func show(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func invalidUTF8InsideStringsIsRejected() {
        let base = Array(
            ##"{"format":"cardistry.deck","schemaVersion":3,"revision":1,"deck":{"cards":[{"id":"1","title":"AB","color":"#000000","sortOrder":0,"payload":{"kind":"plain"}}]}}"##
                .utf8)
        let titleOffset = base.indices.first { base[$0] == UInt8(ascii: "A") && base[$0 + 1] == UInt8(ascii: "B") }!
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xB0], [0xFF, 0x41], [0xF8, 0x88], [0xE2, 0x28]] {
            var bytes = base
            bytes[titleOffset] = bad[0]
            bytes[titleOffset + 1] = bad[1]
            do {
                _ = try DeckFastDecoder.decodeDocument(bytes)
                Issue.record("accepted \(bad)")
            } catch {
                #expect(error.offset == titleOffset || error.offset == titleOffset + 1, "\(error)")
                #expect(error.reason.contains("UTF-8"))
            }
        }
    }

    @Test func nestingInUnknownKeysIsLimited() throws {
        func document(depth: Int) -> [UInt8] {
            Array(
                (##"{"format":"cardistry.deck","schemaVersion":3,"revision":1,"x":"##
                    + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
                    + ##","deck":{"cards":[]}}"##).utf8)
        }
        // The document object is level 1, so 511 more levels reach the limit of 512.
        _ = try DeckFastDecoder.decodeDocument(document(depth: 511))
        #expect(throws: JSONDecodeError.self) { try DeckFastDecoder.decodeDocument(document(depth: 512)) }
        #expect(throws: JSONDecodeError.self) { try DeckFastDecoder.decodeDocument(document(depth: 100_000)) }
        let bare = String(repeating: "{\"a\":", count: 100_000)
        #expect(throws: JSONDecodeError.self) { try DeckFastDecoder.decodeDocument(Array(bare.utf8)) }
    }

    @Test func hugeNumbersAreTypedErrors() {
        for number in ["1e999999999999", "99999999999999999999999999", "-1e400", "1.0000000000000000000001"] {
            let text =
                ##"{"format":"cardistry.deck","schemaVersion":3,"revision":1,"deck":{"cards":[{"id":"1","title":"a","color":"#000000","sortOrder":"##
                + number + ##","payload":{"kind":"plain"}}]}}"##
            #expect(throws: JSONDecodeError.self, "\(number)") { try DeckFastDecoder.decodeDocument(Array(text.utf8)) }
        }
        let revision = ##"{"format":"cardistry.deck","schemaVersion":1e99999,"revision":1,"deck":{"cards":[]}}"##
        #expect(throws: JSONDecodeError.self) { try DeckFastDecoder.decodeDocument(Array(revision.utf8)) }
    }

    @Test func wrongTypesAtEveryFieldAreTypedErrors() throws {
        let fields = [
            "format", "schemaVersion", "revision", "deck", "cards", "id", "title", "color", "sortOrder",
            "payload", "kind",
        ]
        let replacements = ["null", "true", "[]", "{}", "\"s\"", "1", "-1.5"]
        let text =
            ##"{"format":"cardistry.deck","schemaVersion":3,"revision":1,"deck":{"cards":[{"id":"1","title":"t","color":"#000000","sortOrder":0,"payload":{"kind":"plain"}}]}}"##
        var errors = 0
        for field in fields {
            for replacement in replacements {
                // Replace the value after "field": with the replacement by re-serialising a tree.
                var tree = try JSONValue(parsing: Array(text.utf8))
                tree = replaced(tree, field: field, with: try JSONValue(parsing: Array(replacement.utf8)))
                if (try? DeckFastDecoder.decodeDocument(tree.jsonBytes)) == nil { errors += 1 }
                let foundationAccepts =
                    (try? JSONDecoder().decode(DeckDocument.self, from: Data(tree.jsonBytes))) != nil
                let fastAccepts = (try? DeckFastDecoder.decodeDocument(tree.jsonBytes)) != nil
                if field != "format" && field != "kind" {
                    #expect(fastAccepts == foundationAccepts || !fastAccepts, "\(field) = \(replacement)")
                }
            }
        }
        #expect(errors >= 60)
    }

    private func replaced(_ value: JSONValue, field: String, with replacement: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(
                members.map {
                    JSONValue.Member(
                        $0.key, $0.key == field ? replacement : replaced($0.value, field: field, with: replacement))
                })
        case .array(let elements):
            return .array(elements.map { replaced($0, field: field, with: replacement) })
        default:
            return value
        }
    }
}
