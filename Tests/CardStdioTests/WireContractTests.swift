import CardEngine
import CardGeometry
import CardJSON
import CardModels
import CardScenes
import CardTestScenes
import Testing

@testable import CardStdio

/// Places where a host that follows the documents was surprised (issue 26).
@Suite struct WireContractTests {
    /// A line that is not JSON is answered with its id only when the id is a top-level member of the object the
    /// line starts; an `"id"` inside `params`, or a broken batch, gets `null` (one error for the whole batch).
    @Test(arguments: [
        (#"{"jsonrpc":"2.0","id":7,"method":"deck.list""#, JSONValue.number("7")),
        (#"{"jsonrpc":"2.0","method":"x","id":"a\"b","params":{"#, .string("a\"b")),
        (#" { "id" : 12 , "jsonrpc":"2.0","method":"#, .number("12")),
        (#"{"jsonrpc":"2.0","method":"deck.list","params":{"id":5},"#, .null),
        (#"{"jsonrpc":"2.0","params":{"x":"}","id":5},"id":6,"method""#, .number("6")),
        (#"[{"jsonrpc":"2.0","id":1,"method":"deck.list"},{"jsonrpc":"2.0","id":2"#, .null),
        (#"{"jsonrpc":"2.0","id":{"a":1},"method""#, .null),
        (#"{"jsonrpc":"2.0","id":tru"#, .null),
    ])
    func parseErrorsAnswerOnlyTheirOwnID(line: String, id: JSONValue) {
        var harness = Harness()
        let replies = harness.send(line)
        #expect(replies.count == 1, "\(replies)")
        #expect(replies.first?.errorCode == -32700)
        #expect(replies.first?["id"] == id, "\(line)")
    }

    /// Any 1.x is served, "1" included; another major version is refused naming the version spoken.
    @Test(arguments: ["1", "1.0", "1.7"])
    func everyOneDotXIsServed(version: String) {
        var harness = Harness()
        let reply = harness.request(
            0, "initialize", #"{"protocolVersion":"\#(version)","viewport":{"width":390,"height":844}}"#
        ).response
        #expect(reply?["result"]?["protocolVersion"] == .string("1.0"), "\(String(describing: reply))")
    }

    @Test(arguments: ["2.0", "2", "0.9", "1.x", "", "1.0.0"])
    func otherVersionsAreRefusedNamingTheOneSpoken(version: String) {
        var harness = Harness()
        let reply = harness.request(
            0, "initialize", #"{"protocolVersion":"\#(version)","viewport":{"width":390,"height":844}}"#
        ).response
        #expect(reply?.errorCode == -32602)
        #expect(reply?["error"]?["message"]?.stringValue?.contains("1.0") == true)
    }

    /// Every symbol a scene of the catalogue draws (`SceneSymbols`: at rest, after each key, after each action on
    /// each card) is in `capabilities.icons` with a fallback: the hero's `snowflake`, shown only in a line's
    /// details, was missing. Over the catalogue with the throwaway sixth scene, whose star is found like any other.
    @Test func everyIconTheScenesDrawIsDescribed() throws {
        var harness = Harness(catalog: .testing)
        let reply = harness.request(
            0, "initialize", #"{"protocolVersion":"1.0","viewport":{"width":390,"height":844}}"#
        ).response
        guard case .object(let icons)? = reply?[path: "result", "capabilities", "icons"] else {
            Issue.record("no capabilities.icons: \(String(describing: reply))")
            return
        }
        let described = Set(icons.map(\.key))
        #expect(described == Set(Symbols.all.map(\.name)))
        var everyScene: Set<String> = []
        for name in SceneCatalog.testing.names {
            let drawn = try SceneSymbols.drawn(by: name, in: .testing)
            #expect(
                drawn.subtracting(described).isEmpty, "\(name) draws \(drawn.subtracting(described)), not described")
            everyScene.formUnion(drawn)
        }
        #expect(everyScene.isSuperset(of: ["snowflake", "star.fill"]))
    }

    /// With the host clock, `t` is optional on every input, as the schema says (it was refused with "'t' is
    /// required" on input.pointer, input.wheel, input.key and viewport.resize): an input without it is processed
    /// at the clock's time.
    @Test func inputWithoutATimeIsProcessedAtTheClocksTime() {
        var harness = Harness()
        harness.initialize()
        _ = harness.request(1, "scene.open", #"{"scene":"flashcards"}"#)
        _ = harness.request(2, "clock.advance", #"{"to":3}"#)
        for (id, method, params) in [
            (3, "input.pointer", #"{"phase":"down","x":10,"y":10}"#),
            (4, "input.pointer", #"{"phase":"up","x":10,"y":10}"#),
            (5, "input.wheel", #"{"dx":0,"dy":1,"x":10,"y":10}"#), (6, "input.key", #"{"key":"right"}"#),
            (7, "viewport.resize", #"{"width":400,"height":800}"#),
        ] {
            let reply = harness.request(id, method, params).response
            #expect(reply?["result"]?["t"]?.doubleValue == 3, "\(method): \(String(describing: reply))")
        }
    }

    /// A card id is one spelling: the schema's `^(0|[1-9][0-9]*)$`, on `deck.move` and in action arguments alike
    /// ("00401" was accepted as 401, and action schemas used another pattern); the `pull` action's schema carries
    /// the range the scene enforces (0…10000 was refused beyond 10000 with no maximum in the schema).
    @Test func cardIDsAndActionRangesAreWhatTheSchemaSays() throws {
        var harness = Harness()
        harness.initialize()
        let opened = harness.request(1, "scene.open", #"{"scene":"deck"}"#).response
        guard case .array(let cards)? = harness.request(2, "deck.get", #"{"limit":1}"#).response?["result"]?["cards"]
        else {
            Issue.record("no cards")
            return
        }
        let id = try #require(cards.first?["id"]?.stringValue)
        #expect(harness.request(3, "deck.move", #"{"card":"0\#(id)","to":3}"#).response?.errorCode == -32602)
        #expect(harness.request(4, "deck.move", #"{"card":"+\#(id)","to":3}"#).response?.errorCode == -32602)
        #expect(harness.request(5, "deck.move", #"{"card":"\#(id)","to":3}"#).response?["result"] != nil)
        guard case .array(let actions)? = opened?["result"]?["actions"] else {
            Issue.record("no actions")
            return
        }
        let pull = try #require(actions.first { $0["name"]?.stringValue == "pull" })
        let distance = pull["schema"]?["properties"]?["distance"]
        #expect(distance?["minimum"]?.doubleValue == 0 && distance?["maximum"]?.doubleValue == 10_000)
        let refused = harness.request(6, "scene.action", #"{"name":"pull","distance":10001}"#).response
        #expect(refused?.errorCode == -32602)
        #expect(CardID.canonical("0") == CardID(0) && CardID.canonical("00") == nil && CardID.canonical("") == nil)
    }

    /// `move`'s `to` carries the deck's own bound in the schema `scene.open` sends (it was only in a description), in
    /// the wallet (5 cards), the deck (12) and a deck of 1,000,000; the server refuses one past it.
    @Test(arguments: [("wallet", "", 4), ("deck", "", 11), ("deck", #","options":{"cardCount":1000000}"#, 999_999)])
    func theMoveActionsSchemaCarriesTheDecksBound(scene: String, options: String, maximum: Int) throws {
        var harness = Harness()
        harness.initialize()
        let opened = harness.request(1, "scene.open", #"{"scene":"\#(scene)"\#(options)}"#).response
        guard case .array(let actions)? = opened?["result"]?["actions"] else {
            Issue.record("no actions: \(String(describing: opened))")
            return
        }
        let move = try #require(actions.first { $0["name"]?.stringValue == "move" })
        let to = move["schema"]?["properties"]?["to"]
        #expect(
            to?["minimum"]?.integerValue == 0 && to?["maximum"]?.integerValue == maximum, "\(String(describing: to))")
        guard case .array(let cards)? = harness.request(2, "deck.get", #"{"limit":1}"#).response?["result"]?["cards"],
            let id = cards.first?["id"]?.stringValue
        else {
            Issue.record("no cards")
            return
        }
        let past = harness.request(3, "scene.action", #"{"name":"move","card":"\#(id)","to":\#(maximum + 1)}"#)
        #expect(past.response?.errorCode == -32602)
        let last = harness.request(4, "scene.action", #"{"name":"move","card":"\#(id)","to":\#(maximum)}"#)
        #expect(last.response?["result"] != nil, "\(String(describing: last.response))")
    }

    /// A field's bad value is −32602 before what the state decides, as "Which error wins" says (the schema fuzz found
    /// `deck.move` answering −32011 for an unknown card with `to: -1`, and `scene.open` −32010 for an unknown scene
    /// with a `deck` that is not a name); every action's `t` carries the range the server enforces; a card id may be
    /// any JSON spelling of a whole number (`4e2` was refused although JSON Schema calls it an integer).
    @Test func fieldsAreCheckedBeforeTheStateAndTheSchemaSaysEveryRange() throws {
        var harness = Harness()
        harness.initialize()
        let opened = harness.request(1, "scene.open", #"{"scene":"wallet"}"#).response
        #expect(harness.request(2, "deck.move", #"{"card":"999","to":-1}"#).response?.errorCode == -32602)
        #expect(harness.request(3, "deck.move", #"{"card":"999","to":5}"#).response?.errorCode == -32602)
        #expect(harness.request(4, "deck.move", #"{"card":"999","to":1}"#).response?.errorCode == -32011)
        #expect(harness.request(5, "scene.open", #"{"scene":"nope","deck":[1]}"#).response?.errorCode == -32602)
        #expect(harness.request(6, "scene.open", #"{"scene":"nope"}"#).response?.errorCode == -32010)
        guard case .array(let cards)? = harness.request(7, "deck.get", #"{"limit":1}"#).response?["result"]?["cards"],
            let id = cards.first?["id"]?.stringValue, let number = Int(id)
        else {
            Issue.record("no cards")
            return
        }
        let spelled = "\(Double(number) / 100)e2"
        #expect(
            harness.request(8, "deck.move", #"{"card":\#(spelled),"to":1}"#).response?["result"] != nil, "\(spelled)")
        guard case .array(let actions)? = opened?["result"]?["actions"] else {
            Issue.record("no actions")
            return
        }
        for action in actions {
            let t = action["schema"]?["properties"]?["t"]
            #expect(t?["minimum"]?.integerValue == 0 && t?["maximum"]?.integerValue == 1_000_000_000, "\(action)")
        }
    }

    /// Every run of an icon node travels as a symbol (`symbol: true`, no `lines`), as the document says: the hero's
    /// chips sent `"lines":["cloud.fill"]`, which a host drawing lines printed as text.
    @Test func iconRunsTravelAsSymbolsWithoutLines() throws {
        var harness = Harness()
        harness.initialize()
        var icons = 0
        for (index, scene) in ["hero", "wallet"].enumerated() {
            let opened = harness.request(1 + index, "scene.open", #"{"scene":"\#(scene)"}"#).response
            guard case .array(let nodes)? = opened?["result"]?["frame"]?["nodes"] else {
                Issue.record("no nodes")
                return
            }
            for node in nodes where node["role"]?.stringValue == "icon" {
                guard case .array(let runs)? = node["runs"] else { continue }
                for run in runs {
                    icons += 1
                    #expect(run["symbol"] == .bool(true), "\(run)")
                    #expect(run["lines"] == nil, "\(run)")
                    #expect(Symbols.named(run["text"]?.stringValue ?? "") != nil, "\(run)")
                }
            }
        }
        #expect(icons >= 12)
    }

    /// A change that inserts cards (restarting the flashcards) carries their ids, so a host can apply it without
    /// fetching the order again: the order built from the previous one and the change alone is the server's.
    @Test func aChangeThatInsertsCardsCarriesThem() throws {
        var harness = Harness()
        harness.initialize()
        _ = harness.request(1, "scene.open", #"{"scene":"flashcards"}"#)
        func order(_ id: Int) -> [JSONValue] {
            guard case .array(let cards)? = harness.request(id, "deck.get", "{}").response?["result"]?["cards"] else {
                return []
            }
            return cards.compactMap { $0["id"] }
        }
        _ = harness.request(2, "scene.action", #"{"name":"swipe","direction":"left"}"#)
        _ = harness.request(3, "scene.action", #"{"name":"swipe","direction":"right"}"#)
        let before = order(4)
        let notes = harness.request(5, "scene.action", #"{"name":"restart"}"#).notes
        let change = try #require(notes.first { $0["method"]?.stringValue == "deck.changed" }?["params"])
        guard case .array(let insertions)? = change["diff"]?["insertions"],
            case .array(let inserted)? = change["inserted"], case .array(let removals)? = change["diff"]?["removals"]
        else {
            Issue.record("no insertions with their cards: \(change)")
            return
        }
        #expect(insertions.count == 2 && inserted.count == 2 && removals.isEmpty)
        // Apply: the inserted cards at their slots, the others in their order in the free slots (no moves here).
        let after = order(6)
        var rebuilt: [JSONValue?] = Array(repeating: nil, count: before.count + inserted.count)
        for (slot, card) in zip(insertions.compactMap(\.integerValue), inserted) { rebuilt[slot] = card }
        var rest = before.makeIterator()
        for slot in rebuilt.indices where rebuilt[slot] == nil { rebuilt[slot] = rest.next() }
        #expect(rebuilt.compactMap { $0 } == after)
    }

    /// An unknown method is −32601 even when its params are wrong (it was −32602: params were read first).
    @Test func anUnknownMethodWinsOverBadParams() {
        var harness = Harness()
        harness.initialize()
        #expect(harness.request(1, "nope", "[1]").response?.errorCode == -32601)
        #expect(harness.request(2, "deck.list", "[1]").response?.errorCode == -32602)
    }
}
