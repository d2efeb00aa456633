import CardEngine
import CardGeometry
import CardGestures
import CardJSON
import CardModels
import CardPersistence
import Synchronization
import Testing

@testable import CardStdio

/// A `SceneDriver` whose answers the test sets: no engine, no scene. It records every call the server makes, and
/// refuses `perform`, `moveCard` and `sortDeck` with the error the test chose, so the tests below show that the
/// server drives any `SceneDriver` through the protocol alone (`SceneDriver`'s documentation promises this double).
struct ScriptedDriver: SceneDriver {
    /// What the server asked of the driver, in order, shared with the test (the driver is a value the server owns).
    final class Calls: Sendable {
        private let list = Mutex<[String]>([])
        func append(_ call: String) { list.withLock { $0.append(call) } }
        var all: [String] { list.withLock { $0 } }
    }

    let calls: Calls
    /// Thrown by `perform`, `moveCard` and `sortDeck` (nil: they succeed and change nothing).
    var refusal: SceneError?
    var sceneName = "scripted"
    var title = "Scripted"
    var actions = [ActionInfo("poke", "does nothing, or refuses")]
    var availableActions = ["poke"]
    var keyMap = [KeyHelp("p", "poke", names: ["p"])]
    var time = 0.0
    var deck = DeckGenerator.deck(count: 3)
    var deckIDs: [CardID] { deck.ids }
    var deckCount: Int { deck.count }
    var viewport = Size(width: 390, height: 844)

    func deckCards(_ range: Range<Int>) -> [Card] { Array(deck[range]) }

    mutating func pointer(_ event: PointerEvent) {
        calls.append("pointer \(event.kind) \(event.time)")
        time = event.time
    }
    mutating func key(_ key: KeyInput, at time: Double) -> Bool {
        calls.append("key \(key.key)")
        return key.key == "p"
    }
    mutating func resize(_ viewport: Size, at time: Double) { self.viewport = viewport }
    mutating func perform(_ action: SceneAction, at time: Double) throws(SceneError) {
        calls.append("perform \(action.name)")
        if let refusal { throw refusal }
    }
    mutating func replaceDeck(_ deck: Deck, at time: Double) throws(SceneError) {
        calls.append("replaceDeck")
        if let refusal { throw refusal }
    }
    mutating func moveCard(_ id: CardID, to position: Int, at time: Double) throws(SceneError) {
        calls.append("moveCard \(id) \(position)")
        if let refusal { throw refusal }
    }
    mutating func sortDeck(by key: DeckSortKey, descending: Bool, at time: Double) throws(SceneError) {
        calls.append("sortDeck")
        if let refusal { throw refusal }
    }
    mutating func frame(at time: Double) -> Frame {
        Frame(time: time, viewport: viewport, nodes: [], events: [], isAnimating: false)
    }
    mutating func takeEvents(at time: Double) -> [EngineEvent] { [] }
    mutating func startRecording(options: SceneOptions) {}
    mutating func takeRecording() -> [UInt8] { [] }
    func nextWakeTime() -> Double? { nil }
    mutating func takeStateChange() -> StateChange? { nil }
    mutating func requestStateSnapshot() {}
}

/// Opens a `ScriptedDriver` for its one scene name.
struct ScriptedProvider: SceneProvider {
    let driver: ScriptedDriver
    var names: [String] { [driver.sceneName] }
    var descriptors: [SceneDescriptor] {
        [
            SceneDescriptor(
                name: driver.sceneName, title: driver.title, summary: "a scripted double", seed: "none",
                keyHelp: driver.keyMap, actions: driver.actions)
        ]
    }

    func open(
        _ name: String, options: SceneOptions, persistState: Bool, viewport: Size, startTime: Double
    ) throws(SceneError) -> OpenedScene {
        OpenedScene(driver: driver)
    }
}

@Suite struct ScriptedDriverTests {
    static func harness(_ driver: ScriptedDriver) -> Harness {
        var harness = Harness(store: nil)
        harness.server = Server(
            configuration: Server.Configuration(
                provider: ScriptedProvider(driver: driver), store: nil, serverVersion: "test"))
        harness.initialize()
        return harness
    }

    /// The scene the server opens and describes is the driver's: its title, actions and keys, and its deck.
    @Test func theServerOpensAndDescribesAnyDriver() throws {
        let calls = ScriptedDriver.Calls()
        var harness = Self.harness(ScriptedDriver(calls: calls))
        let opened = try #require(harness.request(1, "scene.open", "{\"scene\":\"scripted\"}").response)
        #expect(opened[path: "result", "scene"] == .string("scripted"), "\(opened)")
        #expect(opened[path: "result", "title"] == .string("Scripted"), "\(opened)")
        #expect(opened[path: "result", "actions"]?.arrayValue?.count == 1, "\(opened)")
        let checksum = OrderChecksum.of(ScriptedDriver(calls: calls).deckIDs)
        #expect(opened[path: "result", "order", "checksum"]?.integerValue == Int(checksum), "\(opened)")
        let key = try #require(harness.request(2, "input.key", "{\"key\":\"p\"}").response)
        #expect(key[path: "result", "used"] == .bool(true), "\(key)")
        let action = try #require(harness.request(3, "scene.action", "{\"name\":\"poke\"}").response)
        #expect(action["error"] == nil, "\(action)")
        #expect(calls.all == ["key p", "perform poke"])
    }

    /// A driver's refusal reaches the host as the code docs/protocol.md gives it: −32012 for a state that does not
    /// allow the request (the driver's own words as the message), −32011 for an unknown card, −32602 for an
    /// unknown action; the driver was asked each time.
    @Test func aDriversRefusalBecomesTheDocumentedErrorCode() throws {
        let cases: [(SceneError, method: String, params: String, code: Int)] = [
            (.invalidState("the scripted stack is empty"), "scene.action", "{\"name\":\"poke\"}", -32012),
            (.invalidState("the scripted stack is empty"), "deck.move", "{\"card\":\"CARD\",\"to\":0}", -32012),
            (.unknownCard(CardID(999)), "deck.move", "{\"card\":\"CARD\",\"to\":0}", -32011),
            (.unknownAction("poke"), "scene.action", "{\"name\":\"poke\"}", -32602),
            (.invalidState("no sorting here"), "deck.sort", "{\"by\":\"title\"}", -32012),
        ]
        for (refusal, method, params, code) in cases {
            let calls = ScriptedDriver.Calls()
            let driver = ScriptedDriver(calls: calls, refusal: refusal)
            var harness = Self.harness(driver)
            _ = harness.request(1, "scene.open", "{\"scene\":\"scripted\"}")
            let card = driver.deck.ids[0].description
            let reply = try #require(
                harness.request(2, method, params.replacing("CARD", with: card)).response)
            #expect(reply.errorCode == code, "\(method) refused with \(refusal): \(reply)")
            if case .invalidState(let reason) = refusal {
                #expect(reply[path: "error", "message"] == .string(reason), "\(reply)")
            }
            #expect(calls.all.count == 1, "\(method): the driver was asked \(calls.all)")
        }
    }
}
