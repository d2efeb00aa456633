import CardEngine
import CardGeometry
import CardJSON
import CardScenes
import Testing

@testable import CardStdio

private let initialize =
    "{\"protocolVersion\":\"1.0\",\"viewport\":{\"width\":390,\"height\":844},\"accessibility\":true}"

private func method(_ line: JSONValue) -> String? { line["method"]?.stringValue }

/// The host's copy of a tree: nodes by id and the focus, kept by applying `a11y.update`s as a host would.
private struct HostTree: Equatable {
    var nodes: [String: JSONValue] = [:]
    var focus: JSONValue = .null

    init(_ tree: JSONValue) {
        for node in tree["nodes"]?.arrayValue ?? [] { nodes[node["id"]?.stringValue ?? ""] = node }
        focus = tree["focus"] ?? .null
    }

    mutating func apply(_ params: JSONValue) {
        for id in params["removed"]?.arrayValue ?? [] { nodes[id.stringValue ?? ""] = nil }
        for node in params["nodes"]?.arrayValue ?? [] { nodes[node["id"]?.stringValue ?? ""] = node }
        focus = params["focus"] ?? .null
    }
}

/// The tree an engine shows, as the protocol writes it.
private func written(_ engine: Engine) throws -> JSONValue {
    var out = JSONOutput()
    AccessibilityJSON.tree(engine.accessibilityTree(), into: &out)
    return try JSONValue(parsing: out.bytes)
}

@Suite struct AccessibilityProtocolTests {
    /// A host that does not opt in sees nothing of accessibility: no capability, method, member or notification,
    /// and `a11y.action` does not exist for it.
    @Test func aHostThatDoesNotOptInSeesNothingOfIt() throws {
        var harness = Harness()
        let reply = try #require(
            harness.request(
                1, "initialize", "{\"protocolVersion\":\"1.0\",\"viewport\":{\"width\":390,\"height\":844}}"
            )
            .response)
        #expect(reply[path: "result", "capabilities", "accessibility"] == nil)
        #expect(reply[path: "result", "capabilities", "methods"]?.arrayValue?.contains(.string("a11y.action")) == false)
        #expect(
            reply[path: "result", "capabilities", "notifications"]?.arrayValue?.contains(.string("a11y.update"))
                == false)
        let open = try #require(harness.request(2, "scene.open", "{\"scene\":\"deck\"}").response)
        #expect(open[path: "result", "accessibility"] == nil)
        let key = harness.request(3, "input.key", "{\"key\":\"down\",\"t\":1}")
        #expect(!key.notes.contains { method($0) == "a11y.update" })
        #expect(
            harness.request(4, "a11y.action", "{\"node\":\"card.401\",\"action\":\"focus\"}").response?.errorCode
                == -32601)
        #expect(harness.server.session?.accessibilityTree == nil)
    }

    @Test func sceneOpenCarriesTheTreeAndChangesFollowAsUpdates() throws {
        var harness = Harness()
        let reply = try #require(harness.request(1, "initialize", initialize).response)
        #expect(reply[path: "result", "capabilities", "accessibility"] == .bool(true))
        #expect(reply[path: "result", "capabilities", "methods"]?.arrayValue?.last == .string("a11y.action"))
        #expect(reply[path: "result", "capabilities", "notifications"]?.arrayValue?.last == .string("a11y.update"))

        let open = try #require(harness.request(2, "scene.open", "{\"scene\":\"deck\"}").response)
        let tree = try #require(open[path: "result", "accessibility"])
        var engine = Engine(scene: try DeckScene(), viewport: Size(width: 390, height: 844))
        #expect(tree == (try written(engine)))
        #expect(tree["focus"] == .string("card.401"))
        var host = HostTree(tree)
        #expect(host.nodes["column"]?["role"] == .string("listBox"))
        #expect(host.nodes["column"]?["sizeOfSet"]?.integerValue == 12)
        #expect(host.nodes["card.404"]?["customActions"]?.arrayValue?.first?["description"] == .string("move up"))

        // A key moves the focus: the update names the new focus and no node changed.
        let key = harness.request(3, "input.key", "{\"key\":\"down\",\"t\":1}")
        let focusUpdate = try #require(key.notes.first { method($0) == "a11y.update" })
        #expect(focusUpdate[path: "params", "focus"] == .string("card.402"))
        host.apply(try #require(focusUpdate["params"]))
        _ = engine.handle(.key(KeyInput("down"), time: 1))

        // A custom action moves a card: deck.changed, then the update of the two cards and the column.
        let move = harness.request(
            4, "a11y.action", "{\"node\":\"card.404\",\"action\":\"customAction\",\"customAction\":0,\"t\":2}")
        #expect(move.response?[path: "result", "order", "revision"]?.integerValue == 1)
        #expect(move.notes.contains { method($0) == "deck.changed" })
        let update = try #require(move.notes.first { method($0) == "a11y.update" })
        #expect(
            Set(update[path: "params", "nodes"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
                == ["column", "card.403", "card.404"])
        #expect(update[path: "params", "removed"] == .array([]))
        host.apply(try #require(update["params"]))
        try engine.performAccessibilityAction(.customAction, on: "card.404", customAction: 0, at: 2)
        #expect(host == HostTree(try written(engine)))

        // The moved card took the focus; focusing it again changes nothing and sends no update.
        #expect(host.focus == .string("card.404"))
        let again = harness.request(5, "a11y.action", "{\"node\":\"card.404\",\"action\":\"focus\",\"t\":3}")
        #expect(again.response?[path: "result", "t"]?.doubleValue == 3)
        #expect(!again.notes.contains { method($0) == "a11y.update" })
    }

    @Test func badRequestsNameWhatIsWrong() throws {
        var harness = Harness()
        _ = harness.request(1, "initialize", initialize)
        // No scene open: the state error of every scene method.
        #expect(
            harness.request(2, "a11y.action", "{\"node\":\"card.401\",\"action\":\"focus\"}").response?.errorCode
                == -32012)
        _ = harness.request(3, "scene.open", "{\"scene\":\"deck\"}")
        let cases: [(String, String)] = [
            ("{\"node\":\"card.999\",\"action\":\"default\"}", "names no node ('card.999')"),
            ("{\"node\":\"card.401\",\"action\":\"increment\"}", "'increment' is not offered by node 'card.401'"),
            ("{\"node\":\"card.401\",\"action\":\"jump\"}", "must be one of default, focus, expand"),
            ("{\"node\":\"card.401\",\"action\":\"customAction\"}", "is required with action \"customAction\""),
            ("{\"node\":\"card.401\",\"action\":\"default\",\"customAction\":0}", "is taken only with action"),
            ("{\"node\":\"card.401\",\"action\":\"customAction\",\"customAction\":9}", "custom actions"),
            ("{\"node\":\"card.401\",\"action\":\"focus\",\"extra\":1}", "extra"),
        ]
        for (index, (params, fragment)) in cases.enumerated() {
            let response = harness.request(10 + index, "a11y.action", params).response
            #expect(response?.errorCode == -32602, "\(params)")
            #expect(
                response?[path: "error", "message"]?.stringValue?.contains(fragment) == true,
                "\(params): \(response?[path: "error", "message"]?.stringValue ?? "")")
        }
    }
}

@Suite struct ReduceMotionProtocolTests {
    /// `reduceMotion: true`: a moved card is at its new place in the very next frame, faded, then opaque; the
    /// capability says so. Without it, the card is still on its way.
    @Test(arguments: [true, false])
    func aMovedCardFadesInAtItsNewPlace(reduceMotion: Bool) throws {
        var harness = Harness()
        let reply = try #require(
            harness.request(
                1, "initialize",
                "{\"protocolVersion\":\"1.0\",\"viewport\":{\"width\":390,\"height\":844},\"reduceMotion\":\(reduceMotion)}"
            ).response)
        #expect(reply[path: "result", "capabilities", "reduceMotion"] == (reduceMotion ? .bool(true) : nil))
        _ = harness.request(2, "scene.open", "{\"scene\":\"deck\"}")
        _ = harness.request(3, "scene.action", "{\"name\":\"move\",\"card\":\"401\",\"to\":3,\"t\":1}")
        func card(_ response: JSONValue?) -> JSONValue? {
            response?[path: "result", "frame", "nodes"]?.arrayValue?.first { $0["id"] == .string("card.401") }
        }
        let soon = try #require(card(harness.request(4, "clock.advance", "{\"to\":1.02}").response))
        let settled = try #require(card(harness.request(5, "clock.advance", "{\"to\":5}").response))
        if reduceMotion {
            #expect(soon["y"] == settled["y"])
            #expect((soon["opacity"]?.doubleValue ?? 1) < 0.2)
        } else {
            #expect(soon["y"] != settled["y"])
        }
    }
}
