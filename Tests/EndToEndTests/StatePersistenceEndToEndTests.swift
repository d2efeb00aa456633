import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Scene state through the real `cardistry stdio`: saved behind the interaction, per deck, and on disk before the
/// process ends however it ends.
@Suite(.serialized) struct StatePersistenceEndToEndTests {
    static func temporaryStore() -> String {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("cardistry-state-e2e-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
    }

    /// Opens the deck scene (a generated deck of `cards`, or the seed deck) with its state kept in `store`.
    static func open(_ server: StdioProcess, cards: Int?) throws {
        _ = try server.initialize()
        let options = cards.map { "{\"cardCount\":\($0),\"persistState\":true}" } ?? "{\"persistState\":true}"
        let opened = try server.request(1, "scene.open", "{\"scene\":\"deck\",\"options\":\(options)}").response
        #expect(opened["result"] != nil, "\(opened)")
    }

    /// The id of the card at `position`.
    static func card(_ server: StdioProcess, at position: Int, id: Int) throws -> String {
        let page = try server.request(id, "deck.get", "{\"offset\":\(position),\"limit\":1}").response
        guard case .array(let cards)? = page["result"]?["cards"], let first = cards.first,
            let card = first["id"]?.string
        else { throw CocoaError(.coderReadCorrupt) }
        return card
    }

    /// A change, then the end of the process right after its reply: by SIGTERM, SIGINT, SIGHUP, the end of input,
    /// or `shutdown` + `exit`. A new process on the same store has the change.
    @Test(arguments: ["SIGTERM", "SIGINT", "SIGHUP", "EOF", "shutdown"])
    func aChangeRightBeforeTheEndIsSaved(ending: String) throws {
        let store = Self.temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let server = try StdioProcess(["--store", store])
        try Self.open(server, cards: 20_000)
        let moved = try Self.card(server, at: 0, id: 2)
        let reply = try server.request(3, "deck.move", "{\"card\":\"\(moved)\",\"to\":19999}").response
        #expect(reply["result"] != nil, "\(reply)")
        switch ending {
        case "SIGTERM": kill(server.process.processIdentifier, SIGTERM)
        case "SIGINT": kill(server.process.processIdentifier, SIGINT)
        case "SIGHUP": kill(server.process.processIdentifier, SIGHUP)
        case "EOF": try server.closeInput()
        default:
            _ = try server.request(4, "shutdown")
            server.write("{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}")
        }
        #expect(server.waitForExit() == 0, "\(ending): \(server.stderrText())")
        let again = try StdioProcess(["--store", store])
        try Self.open(again, cards: 20_000)
        #expect(try Self.card(again, at: 19_999, id: 2) == moved, "\(ending)")
        try again.closeInput()
        _ = again.waitForExit()
    }

    /// Switching between the seed deck and a generated deck never loses the other's order.
    @Test func switchingDecksKeepsEachDecksOrder() throws {
        let store = Self.temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let server = try StdioProcess(["--store", store])
        try Self.open(server, cards: 20_000)
        let large = try Self.card(server, at: 0, id: 2)
        _ = try server.request(3, "deck.move", "{\"card\":\"\(large)\",\"to\":12345}")
        let seedOpen = try server.request(4, "scene.open", "{\"scene\":\"deck\",\"options\":{\"persistState\":true}}")
        #expect(seedOpen.response["result"] != nil)
        let seed = try Self.card(server, at: 0, id: 5)
        _ = try server.request(6, "deck.move", "{\"card\":\"\(seed)\",\"to\":7}")
        // Back to the large deck in the same session: its order is still there.
        let reopened = try server.request(
            7, "scene.open", "{\"scene\":\"deck\",\"options\":{\"cardCount\":20000,\"persistState\":true}}")
        #expect(reopened.response["result"] != nil)
        #expect(try Self.card(server, at: 12_345, id: 8) == large)
        try server.closeInput()
        #expect(server.waitForExit() == 0)
        // And in a new process, both.
        let again = try StdioProcess(["--store", store])
        try Self.open(again, cards: nil)
        #expect(try Self.card(again, at: 7, id: 2) == seed)
        _ = try again.request(
            3, "scene.open", "{\"scene\":\"deck\",\"options\":{\"cardCount\":20000,\"persistState\":true}}")
        #expect(try Self.card(again, at: 12_345, id: 4) == large)
        try again.closeInput()
        _ = again.waitForExit()
    }
}
