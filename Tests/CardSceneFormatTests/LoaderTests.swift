import CardJSON
import CardSceneFormat
import Foundation
import Testing

@Suite struct LoaderTests {
    static let board: JSONValue = {
        let bytes = (try? Data(contentsOf: repositoryRoot.appendingPathComponent("scenes/board.json"))) ?? Data()
        return (try? JSONValue(parsing: Array(bytes))) ?? .null
    }()

    /// The board with `edit` applied to its JSON text.
    func refusal(_ edit: (inout JSONValue) -> Void) -> SceneFormatError? {
        var document = Self.board
        edit(&document)
        do {
            _ = try SceneDescription.load(document)
            return nil
        } catch {
            return error
        }
    }

    func set(_ document: inout JSONValue, _ path: [String], _ value: JSONValue) {
        guard let first = path.first else {
            document = value
            return
        }
        switch document {
        case .object:
            var child = document[first] ?? .null
            set(&child, Array(path.dropFirst()), value)
            document.set(first, child)
        case .array(var items):
            let index = Int(first)!
            set(&items[index], Array(path.dropFirst()), value)
            document = .array(items)
        default:
            break
        }
    }

    @Test func theBoardLoads() throws {
        let description = try SceneDescription.load(Self.board)
        #expect(description.descriptor.name == "board")
        #expect(description.cards.count == 9)
    }

    @Test func aFaultyExpressionIsRefusedWithItsPointerAndColumn() throws {
        let error = try #require(refusal { set(&$0, ["layouts", "0", "y"], .string("48 + nope")) })
        #expect(error.pointer == "/layouts/0/y")
        #expect(error.column == 6)
        #expect(error.message.contains("unknown variable 'nope'"))
        #expect(error.description == "/layouts/0/y (column 6): unknown variable 'nope'")
    }

    @Test func typeErrorsNameTheirPlace() throws {
        let error = try #require(refusal { set(&$0, ["gestures", "2", "onEnd", "0", "when"], .string("vx + 1")) })
        #expect(error.pointer == "/gestures/2/onEnd/0/when")
        #expect(error.message.contains("boolean"))
        let assignment = try #require(
            refusal { set(&$0, ["gestures", "0", "onEnd", "0", "set", "expanded"], .string("1")) })
        #expect(assignment.pointer == "/gestures/0/onEnd/0/set/expanded")
    }

    @Test func missingAndUnknownMembersAreNamed() throws {
        let missing = try #require(refusal { $0.remove("card") })
        #expect(missing.pointer == "/card")
        #expect(missing.message == "missing")
        let unknown = try #require(refusal { set(&$0, ["card", "colour"], .string("#ffffff")) })
        #expect(unknown.pointer == "/card/colour")
        #expect(unknown.message.contains("unknown member"))
    }

    @Test func selfReferencesInInitialValuesAreRefused() throws {
        let global = try #require(refusal { set(&$0, ["state", "expanded", "initial"], .string("expanded")) })
        #expect(global.pointer == "/state/expanded/initial")
        #expect(global.message.contains("unknown variable 'expanded'"))
        let card = try #require(refusal { set(&$0, ["cardState", "column", "initial"], .string("card.column + 1")) })
        #expect(card.pointer == "/cardState/column/initial")
    }

    @Test func namesOfOtherPartsAreChecked() throws {
        let key = try #require(refusal { set(&$0, ["keys", "0", "action"], .string("fly")) })
        #expect(key.pointer == "/keys/0/action")
        let node = try #require(refusal { set(&$0, ["gestures", "0", "on"], .string("nowhere")) })
        #expect(node.pointer == "/gestures/0/on")
        let duplicate = try #require(refusal { set(&$0, ["cards", "1", "id"], .number("1")) })
        #expect(duplicate.pointer == "/cards/1/id")
        #expect(duplicate.message.contains("twice"))
        let huge = try #require(refusal { set(&$0, ["layouts", "1", "spacing"], .number("1e999")) })
        #expect(huge.pointer == "/layouts/1/spacing")
    }

    @Test func malformedJSONIsRefusedWithItsOffset() {
        #expect(throws: SceneFormatError.self) { try SceneDescription.load(bytes: Array("{\"format\": 1,".utf8)) }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: SceneFormatError.self) { try SceneDescription.load(bytes: Array(deep.utf8)) }
    }

    /// 2,000 seeded mutations in the unit tests (`cardistry scene fuzz` runs 100,000): each refused with a pointer
    /// into the mutated document, or played with finite frames that settle.
    @Test func loaderFuzzRefusesWithAPointerOrPlaysFinitely() {
        let report = LoaderFuzz(bases: [Self.board]).run(count: 2000, seed: 50)
        #expect(report.mutations == 2000)
        #expect(report.refused + report.played == 2000)
        #expect(report.refused > 100 && report.played > 100, "\(report.refused) refused, \(report.played) played")
        #expect(report.badPointers.isEmpty, "\(report.badPointers)")
        #expect(report.problems.isEmpty, "\(report.problems)")
    }

    @Test func aPointerResolvesOnlyToPlacesInTheDocument() {
        #expect(LoaderFuzz.resolves("/layouts/0/y", in: Self.board))
        #expect(LoaderFuzz.resolves("/card/colour", in: Self.board))
        #expect(!LoaderFuzz.resolves("/layouts/9/y", in: Self.board))
        #expect(!LoaderFuzz.resolves("/nowhere/at/all", in: Self.board))
    }

    @Test func sessionsOfTheBoardFindNoProblem() throws {
        let description = try SceneDescription.load(Self.board)
        let problems = ScenePlayer(description).play(sessions: 40, seed: 7)
        #expect(problems.isEmpty, "\(problems)")
    }
}
