import CardEngine
import CardJSON
import CardModels
import CardScenes
import Testing

@testable import CardStdio

@Suite struct ServerLifecycleTests {
    @Test func requestsBeforeInitializeAreRefusedUnknownMethodsAreNot() {
        var harness = Harness()
        #expect(harness.request(1, "scene.list").response?.errorCode == -32002)
        #expect(harness.request(2, "no.such").response?.errorCode == -32601)
        harness.initialize()
        #expect(harness.server.phase == .running)
        #expect(harness.request(3, "scene.list").response?[path: "result", "open"] == .null)
        #expect(
            harness.request(4, "initialize", "{\"protocolVersion\":\"1.0\",\"viewport\":{\"width\":1,\"height\":1}}")
                .response?.errorCode == -32012)
    }

    @Test func initializeReportsScenesAndCapabilities() throws {
        var harness = Harness()
        let response = try #require(
            harness.request(
                1, "initialize",
                "{\"protocolVersion\":\"1.0\",\"clientInfo\":{\"name\":\"t\"},\"viewport\":{\"width\":390,\"height\":844}}"
            ).response)
        #expect(response[path: "result", "protocolVersion"] == .string("1.0"))
        #expect(response[path: "result", "serverInfo", "version"] == .string("test"))
        #expect(response[path: "result", "scenes"]?.arrayValue?.contains(.string("scores")) == true)
        #expect(response[path: "result", "capabilities", "maxLineBytes"]?.integerValue == Server.defaultMaxLineBytes)
    }

    @Test func shutdownThenExitEndsWithStatusZeroExitAloneWithOne() {
        var harness = Harness()
        harness.initialize()
        #expect(harness.request(1, "shutdown").response?["result"] == .object([]))
        #expect(harness.request(2, "scene.list").response?.errorCode == -32012)
        #expect(harness.send("{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}").isEmpty)
        #expect(harness.server.exitStatus == 0)
        #expect(harness.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"scene.list\"}").isEmpty)

        var abrupt = Harness()
        abrupt.initialize()
        _ = abrupt.send("{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}")
        #expect(abrupt.server.exitStatus == 1)
    }
}

@Suite struct ServerErrorTests {
    @Test func malformedInputGetsTheStandardCodes() {
        var harness = Harness()
        harness.initialize()
        #expect(harness.send("not json").first?.errorCode == -32700)
        #expect(harness.send("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"x\"").first?["id"] == .number("7"))
        #expect(harness.send(bytes: [0x7B, 0xFF, 0x7D]).first?.errorCode == -32700)
        #expect(harness.send("42").first?.errorCode == -32600)
        #expect(harness.send("[]").first?.errorCode == -32600)
        #expect(harness.send("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"scene.list\"}").first?.errorCode == -32600)
        #expect(harness.send("{\"jsonrpc\":\"2.0\",\"id\":1}").first?.errorCode == -32600)
        #expect(harness.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}").first?.errorCode == -32600)
        #expect(harness.send("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"scene.list\"}").first?["id"] == .null)
        #expect(
            harness.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"scene.list\",\"params\":3}").first?.errorCode
                == -32600)
        #expect(
            harness.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"scene.list\",\"extra\":3}").first?.errorCode
                == -32600)
        #expect(harness.send("   ").isEmpty)
        #expect(harness.server.receiveOversizedLine(length: 9 << 20).count == 1)
    }

    @Test func invalidParamsNameTheField() throws {
        var harness = Harness()
        harness.initialize()
        _ = harness.request(1, "scene.open", "{\"scene\":\"scores\"}")
        let cases: [(String, String, String)] = [
            ("input.pointer", "{\"phase\":\"down\",\"x\":\"1\",\"y\":2,\"t\":0}", "'x'"),
            ("input.pointer", "{\"phase\":\"jump\",\"x\":1,\"y\":2,\"t\":0}", "'phase'"),
            ("input.pointer", "{\"phase\":\"down\",\"x\":1,\"t\":0}", "'y'"),
            ("input.pointer", "{\"phase\":\"down\",\"x\":1,\"y\":1,\"t\":\"0\"}", "'t'"),
            ("input.pointer", "{\"phase\":\"down\",\"x\":1e999,\"y\":1,\"t\":0}", "'x'"),
            ("input.key", "{\"key\":\"F13\",\"t\":0}", "'key'"),
            ("input.key", "{\"key\":\"a\",\"t\":0,\"modifiers\":[\"hyper\"]}", "'modifiers[0]'"),
            ("clock.advance", "{}", "'to'"),
            ("clock.advance", "{\"to\":1,\"by\":1}", "'by'"),
            ("clock.advance", "{\"by\":-1}", "'by'"),
            ("deck.move", "{\"card\":\"x\",\"to\":0}", "'card'"),
            ("deck.move", "{\"card\":\"1\",\"to\":99}", "'to'"),
            ("deck.sort", "{\"by\":\"colour\"}", "'by'"),
            ("deck.diff", "{\"old\":[1,1],\"new\":[]}", "'old'"),
            ("deck.diff", "{\"old\":[1],\"new\":[true]}", "'new[0]'"),
            ("scene.action", "{\"name\":\"select\",\"test\":[1]}", "'test'"),
            ("scene.action", "{\"name\":\"select\",\"test\":99}", "'test'"),
            ("scene.action", "{\"name\":\"fly\"}", "'name'"),
            ("scene.open", "{\"scene\":\"scores\",\"options\":{\"cardCount\":-1}}", "'options.cardCount'"),
            ("scene.list", "{\"verbose\":true}", "'verbose'"),
            ("scene.list", "[1]", "'params'"),
        ]
        for (index, (method, params, field)) in cases.enumerated() {
            let response = try #require(harness.request(10 + index, method, params).response)
            #expect(response.errorCode == -32602, "\(method) \(params)")
            #expect(response["id"]?.integerValue == 10 + index)
            let message = response[path: "error", "message"]?.stringValue ?? ""
            #expect(message.contains(field), "\(method) \(params): \(message)")
        }
    }

    @Test func serverCodesForUnknownSceneCardStateAndStore() {
        var harness = Harness(store: nil)
        harness.initialize()
        #expect(harness.request(1, "deck.get").response?.errorCode == -32012)
        #expect(harness.request(2, "scene.open", "{\"scene\":\"nowhere\"}").response?.errorCode == -32010)
        _ = harness.request(3, "scene.open", "{\"scene\":\"scores\"}")
        #expect(harness.request(4, "deck.move", "{\"card\":\"424242\",\"to\":0}").response?.errorCode == -32011)
        #expect(
            harness.request(5, "scene.action", "{\"name\":\"toggle\",\"card\":\"424242\"}").response?.errorCode
                == -32011)
        #expect(harness.request(6, "deck.save").response?.errorCode == -32013)
        var stored = Harness()
        stored.initialize()
        _ = stored.request(1, "scene.open", "{\"scene\":\"scores\"}")
        #expect(stored.request(2, "deck.load", "{\"name\":\"missing\"}").response?.errorCode == -32013)
    }

    @Test func notificationsNeverGetAResponseEvenWhenTheyFail() {
        var harness = Harness()
        harness.initialize()
        #expect(harness.send("{\"jsonrpc\":\"2.0\",\"method\":\"no.such\"}").isEmpty)
        #expect(harness.send("{\"jsonrpc\":\"2.0\",\"method\":\"clock.advance\",\"params\":{}}").isEmpty)
        #expect(harness.send("[{\"jsonrpc\":\"2.0\",\"method\":\"scene.list\"}]").isEmpty)
        #expect(!harness.server.logs.isEmpty)
    }
}

@Suite struct ServerMethodTests {
    @Test func batchesAnswerInOrderWithErrorsInPlace() throws {
        var harness = Harness()
        harness.initialize()
        let lines = harness.send(
            "[{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"scene.list\"},1,"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"scene.list\"},{\"jsonrpc\":\"2.0\",\"id\":\"b\",\"method\":\"nope\"}]"
        )
        let batch = try #require(lines.last?.arrayValue)
        #expect(batch.count == 3)
        #expect(batch[0]["id"] == .string("a"))
        #expect(batch[1].errorCode == -32600)
        #expect(batch[2]["id"] == .string("b") && batch[2].errorCode == -32601)
    }

    @Test func actionNotificationsComeBeforeTheResponseWithRisingSeq() throws {
        var harness = Harness()
        harness.initialize()
        let open = try #require(harness.request(1, "scene.open", "{\"scene\":\"scores\"}").response)
        #expect(open[path: "result", "frame", "full"] == .bool(true))
        let firstSeq = try #require(open[path: "result", "frame", "seq"]?.integerValue)
        let (notes, response) = harness.request(2, "scene.action", "{\"name\":\"select\",\"test\":3}")
        #expect(response?[path: "result", "t"]?.doubleValue == 0)
        let methods = notes.compactMap { $0["method"]?.stringValue }
        #expect(methods.contains("deck.changed"))
        let seqs = notes.compactMap { $0[path: "params", "seq"]?.integerValue }
        #expect(seqs == Array((firstSeq + 1)...(firstSeq + seqs.count)))
        let advance = try #require(harness.request(3, "clock.advance", "{\"by\":0.1}").response)
        #expect(advance[path: "result", "frame", "t"]?.doubleValue == 0.1)
        #expect(advance[path: "result", "frame", "animating"] == .bool(true))
        #expect((advance[path: "result", "frame", "seq"]?.integerValue ?? 0) > (seqs.last ?? 0))
        let settled = try #require(harness.request(4, "clock.advance", "{\"to\":5}").response)
        #expect(settled[path: "result", "frame", "animating"] == .bool(false))
        #expect(harness.request(5, "clock.advance", "{\"to\":1}").response?.errorCode == -32602)
    }

    @Test func aHostAskingForWholeOrdersGetsThemBesideTheDiff() throws {
        var harness = Harness()
        _ = harness.request(
            0, "initialize",
            "{\"protocolVersion\":\"1.0\",\"viewport\":{\"width\":390,\"height\":844},\"deckOrder\":\"full\"}")
        let opened = harness.request(1, "scene.open", "{\"scene\":\"deck\"}").response
        let ids = try #require(opened?[path: "result", "order", "deck"]?.arrayValue)
        #expect(opened?[path: "result", "order", "revision"] == .number("0"))
        let card = try #require(ids[3].stringValue)
        let (notes, moved) = harness.request(2, "deck.move", "{\"card\":\"\(card)\",\"to\":0}")
        #expect(moved?[path: "result", "order", "deck"]?.arrayValue?.first == ids[3])
        #expect(notes.first { $0["method"] == .string("deck.changed") }?[path: "params", "deck"] != nil)
    }

    @Test func aSceneActionThatReordersReportsTheOrder() throws {
        var harness = Harness()
        harness.initialize()
        _ = harness.request(1, "scene.open", "{\"scene\":\"deck\"}")
        let (notes, result) = harness.request(2, "scene.action", "{\"name\":\"sort\",\"by\":\"title\"}")
        #expect(result?[path: "result", "order", "revision"] == .number("1"))
        // The diff travels once, in the notification; the result says which revision the request made.
        let change = notes.first { $0["method"] == .string("deck.changed") }
        #expect(change?[path: "params", "diff", "moves"]?.arrayValue?.isEmpty == false)
        #expect(change?[path: "params", "checksum"] == result?[path: "result", "order", "checksum"])
        #expect(result?[path: "result", "order", "diff"] == nil)
        let idle = harness.request(3, "scene.action", "{\"name\":\"pull\",\"distance\":0}").response
        #expect(idle?[path: "result", "order"] == nil)
    }

    @Test func deckMethodsReorderAndReportTheDiff() throws {
        var harness = Harness()
        harness.initialize()
        _ = harness.request(0, "scene.open", "{\"scene\":\"scores\"}")
        #expect(harness.request(1, "deck.move", "{\"card\":\"1\",\"to\":0}").response?.errorCode == -32012)
        _ = harness.request(1, "scene.open", "{\"scene\":\"flashcards\"}")
        let cards = try #require(harness.request(2, "deck.get").response?[path: "result", "cards"]?.arrayValue)
        let ids = cards.compactMap { $0["id"]?.stringValue }
        #expect(ids.count >= 3)
        let last = try #require(ids.last)
        // The host keeps its own order by applying each deck.changed diff, and checks the checksum of the result.
        var order = ids.compactMap(CardID.init)
        func apply(_ reply: (notes: [JSONValue], response: JSONValue?)) throws {
            for change in reply.notes where change["method"] == .string("deck.changed") {
                order = try HostOrder.applying(try #require(change[path: "params", "diff"]), to: order)
                #expect(change[path: "params", "checksum"] == .number(String(OrderChecksum.of(order))))
            }
            let result = try #require(reply.response?["result"])
            #expect((result["order"] ?? result)["checksum"] == .number(String(OrderChecksum.of(order))))
        }
        let moved = harness.request(3, "deck.move", "{\"card\":\"\(last)\",\"to\":0}")
        #expect(moved.response?[path: "result", "deck"] == nil)
        #expect(moved.response?[path: "result", "order", "revision"] == .number("1"))
        #expect(moved.response?[path: "result", "order", "diff"] == nil)
        let change = try #require(moved.notes.first { $0["method"] == .string("deck.changed") })
        #expect(change[path: "params", "diff", "moves"] == .array([.array([.integer(ids.count - 1), .number("0")])]))
        #expect(change[path: "params", "revision"] == .number("1"))
        #expect(change[path: "params", "deck"] == nil)
        try apply(moved)
        #expect(order.first?.description == last)
        let sorted = harness.request(4, "deck.sort", "{\"by\":\"id\",\"order\":\"descending\"}")
        #expect(sorted.response?[path: "result", "order", "revision"] == .number("2"))
        try apply(sorted)
        #expect(order == order.sorted(by: >))
        let got = harness.request(44, "deck.get").response
        #expect(got?[path: "result", "order"]?["checksum"] == .number(String(OrderChecksum.of(order))))
        #expect(got?[path: "result", "order"]?["revision"] == .number("2"))
        #expect(
            harness.request(5, "deck.save", "{\"name\":\"mine\"}").response?[path: "result", "revision"] == .number("1")
        )
        try apply(harness.request(6, "deck.sort", "{\"by\":\"id\"}"))
        let loaded = harness.request(7, "deck.load", "{\"name\":\"mine\"}")
        #expect(loaded.response?[path: "result", "revision"] == .number("1"))
        try apply(loaded)
        #expect(order == order.sorted(by: >))
        let diff = harness.request(8, "deck.diff", "{\"old\":[\"1\",\"2\",\"3\",\"4\"],\"new\":[4,\"1\",\"2\",\"5\"]}")
            .response
        #expect(
            diff?["result"]
                == (try? JSONValue(parsing: Array("{\"removals\":[2],\"insertions\":[3],\"moves\":[[3,0]]}".utf8))))
        #expect(harness.request(9, "scene.close").response?[path: "result", "closed"] == .string("flashcards"))
        #expect(harness.request(10, "deck.get").response?.errorCode == -32012)
    }

    /// A reorder of most of a large deck travels as the base64 source slots (smaller than its moves as JSON), a
    /// one-card move as its move; a host applying either keeps the server's order and checksum.
    @Test func aLargeReorderTravelsAsSourceSlots() throws {
        var harness = Harness()
        harness.initialize()
        _ = harness.request(1, "scene.open", "{\"scene\":\"deck\",\"options\":{\"cardCount\":3000}}")
        var order: [CardID] = []
        while order.count < 3000 {
            let page = harness.request(2, "deck.get", "{\"offset\":\(order.count),\"limit\":1000}").response
            let cards = try #require(page?[path: "result", "cards"]?.arrayValue)
            order += cards.compactMap { $0["id"]?.stringValue.flatMap(CardID.init) }
        }
        for (id, request) in [
            (3, "{\"by\":\"id\",\"order\":\"descending\"}"), (4, "{\"by\":\"title\"}"), (5, "{\"by\":\"color\"}"),
        ] {
            let (notes, response) = harness.request(id, "deck.sort", request)
            let change = try #require(notes.first { $0["method"] == .string("deck.changed") })
            let diff = try #require(change[path: "params", "diff"])
            #expect(diff["sources"]?.stringValue?.utf8.count == 4000 * 4, "\(request)")
            #expect(diff["moved"]?.integerValue ?? 0 > 1000)
            #expect(diff["moves"] == nil)
            order = try HostOrder.applying(diff, to: order)
            #expect(change[path: "params", "checksum"] == .number(String(OrderChecksum.of(order))))
            #expect(response?[path: "result", "order", "checksum"] == change[path: "params", "checksum"])
        }
        let card = order[2999]
        let (notes, _) = harness.request(6, "deck.move", "{\"card\":\"\(card)\",\"to\":0}")
        let diff = try #require(notes.first { $0["method"] == .string("deck.changed") }?[path: "params", "diff"])
        #expect(diff["moves"] == .array([.array([.number("2999"), .number("0")])]))
        order = try HostOrder.applying(diff, to: order)
        let got = harness.request(7, "deck.get", "{\"offset\":0,\"limit\":1}").response
        #expect(got?[path: "result", "cards"]?.arrayValue?.first?["id"] == .string(card.description))
        #expect(got?[path: "result", "order", "checksum"] == .number(String(OrderChecksum.of(order))))
    }

    @Test func sceneStatePersistsOnlyWhenAsked() throws {
        var harness = Harness()
        harness.initialize()
        func count(_ harness: inout Harness) -> Int? {
            harness.request(90, "deck.get").response?[path: "result", "cards"]?.arrayValue?.count
        }
        _ = harness.request(1, "scene.open", "{\"scene\":\"flashcards\",\"options\":{\"persistState\":true}}")
        let full = try #require(count(&harness))
        let swipe = harness.request(2, "scene.action", "{\"name\":\"swipe\",\"direction\":\"left\"}").response
        #expect(swipe?["result"] != nil)
        #expect(count(&harness) == full - 1)
        _ = harness.request(3, "scene.open", "{\"scene\":\"flashcards\",\"options\":{\"persistState\":true}}")
        #expect(count(&harness) == full - 1)
        _ = harness.request(4, "scene.open", "{\"scene\":\"flashcards\"}")
        #expect(count(&harness) == full)
    }

    @Test func realtimeFramesStreamWhileAnimatingAndStopWhenSettled() throws {
        var harness = Harness()
        harness.initialize(clock: "realtime", frames: "delta")
        #expect(harness.request(1, "clock.advance", "{\"by\":1}").response?.errorCode == -32012)
        _ = harness.request(2, "scene.open", "{\"scene\":\"scores\"}")
        #expect(harness.server.nextTickTime == nil)
        harness.now = 0.5
        let (notes, _) = harness.request(3, "scene.action", "{\"name\":\"select\",\"test\":4}")
        #expect(notes.contains { $0["method"] == .string("frame") })
        var frames = 0
        var lastSeq = 0
        while let due = harness.server.nextTickTime, frames < 1000 {
            #expect(due > harness.now - 1e-9)
            harness.now = due
            for line in harness.encode(harness.server.tick(now: harness.now)) where line["method"] == .string("frame") {
                frames += 1
                let seq = line[path: "params", "seq"]?.integerValue ?? 0
                #expect(seq > lastSeq)
                lastSeq = seq
                #expect(line[path: "params", "full"] == .bool(false))
            }
        }
        #expect(frames > 10 && frames < 1000)
        #expect(harness.server.nextTickTime == nil)
        #expect(harness.server.tick(now: harness.now + 10).isEmpty)
    }

    @Test func lineSeparatorsInsideStringsAreEscapedOnOutput() throws {
        var harness = Harness()
        harness.initialize()
        let bytes = harness.encoder.encode(
            harness.server.receive(
                line: Array("{\"jsonrpc\":\"2.0\",\"id\":\"a\u{2028}b\",\"method\":\"scene.list\"}".utf8), now: 0)[0])
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"a\\u2028b\""))
        #expect(!text.contains("\u{2028}"))
    }
}
