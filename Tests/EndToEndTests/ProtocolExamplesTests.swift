import Foundation
import Testing

// The examples of docs/protocol.md are a real session: this test plays it through the built executable and
// compares every block marked `<!-- example NAME -->` with what the server wrote. Run it with
// CARDISTRY_UPDATE_PROTOCOL_EXAMPLES=1 to rewrite the blocks after a deliberate change; otherwise a difference
// fails, so the document cannot drift from the server again.

/// One example: the lines a host sends, in order.
struct ProtocolExample {
    var name: String
    var lines: [String]
}

/// The session behind the examples, in order (each example continues the state of the ones before it).
let protocolExamples: [ProtocolExample] = {
    var id = 0
    func request(_ method: String, _ params: String? = nil) -> String {
        id += 1
        let tail = params.map { ",\"params\":\($0)" } ?? ""
        return "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"\(method)\"\(tail)}"
    }
    func pointer(_ phase: String, _ x: Int, _ y: Int, _ t: String) -> String {
        request("input.pointer", "{\"phase\":\"\(phase)\",\"x\":\(x),\"y\":\(y),\"t\":\(t)}")
    }
    return [
        ProtocolExample(
            name: "initialize",
            lines: [
                request(
                    "initialize",
                    "{\"protocolVersion\":\"1.0\",\"clientInfo\":{\"name\":\"demo\"},\"viewport\":{\"width\":390,"
                        + "\"height\":844},\"clock\":\"host\",\"frames\":\"delta\"}")
            ]),
        ProtocolExample(name: "scene.list", lines: [request("scene.list")]),
        ProtocolExample(name: "scene.open", lines: [request("scene.open", "{\"scene\":\"scores\"}")]),
        ProtocolExample(
            name: "errors",
            lines: [
                request("input.pointer", "{\"phase\":\"down\",\"x\":true,\"y\":1,\"t\":0}"), "this is not json",
                request("input.pointer", "{\"phase\":\"down\",\"x\":1,\"y\":1,\"t\":1700000000000}"),
            ]),
        ProtocolExample(
            name: "scene.action",
            lines: [
                request("scene.action", "{\"name\":\"select\",\"test\":5}"),
                request("scene.action", "{\"name\":\"select\",\"test\":3,\"tset\":4}"),
            ]),
        ProtocolExample(name: "scene.frame", lines: [request("scene.frame")]),
        ProtocolExample(name: "clock.advance", lines: [request("clock.advance", "{\"by\":0.016}")]),
        ProtocolExample(name: "input.key", lines: [request("input.key", "{\"key\":\"right\",\"t\":2}")]),
        ProtocolExample(
            name: "flashcards", lines: [request("scene.open", "{\"scene\":\"flashcards\"}")]),
        ProtocolExample(
            name: "input.pointer",
            lines: [pointer("down", 195, 420, "3"), pointer("move", 260, 425, "3.05"), pointer("up", 380, 425, "3.1")]),
        ProtocolExample(
            name: "input.wheel",
            lines: [request("input.wheel", "{\"dx\":0,\"dy\":-30,\"x\":100,\"y\":100,\"t\":4}")]),
        ProtocolExample(
            name: "viewport.resize",
            lines: [request("viewport.resize", "{\"width\":844,\"height\":390,\"t\":5}")]),
        ProtocolExample(name: "deck.get", lines: [request("deck.get", "{\"offset\":0,\"limit\":2}")]),
        ProtocolExample(
            name: "deck.get ids", lines: [request("deck.get", "{\"format\":\"ids\",\"offset\":0,\"limit\":2}")]),
        ProtocolExample(name: "deck.move", lines: [request("deck.move", "{\"card\":\"203\",\"to\":0}")]),
        ProtocolExample(
            name: "deck.sort", lines: [request("deck.sort", "{\"by\":\"id\",\"order\":\"ascending\"}")]),
        ProtocolExample(
            name: "deck.diff",
            lines: [request("deck.diff", "{\"old\":[\"1\",\"2\",\"3\",\"4\"],\"new\":[4,\"1\",\"2\",\"5\"]}")]),
        ProtocolExample(
            name: "deck.save",
            lines: [
                request("deck.save", "{\"name\":\"mine\"}"), request("deck.load", "{\"name\":\"mine\"}"),
                request("deck.load", "{\"name\":\"missing\"}"), request("deck.list"),
            ]),
        ProtocolExample(name: "scene.close", lines: [request("scene.close")]),
        ProtocolExample(
            name: "scene.define",
            lines: [
                request(
                    "scene.define",
                    "{\"description\":{\"format\":1,\"name\":\"pile\",\"cards\":[{\"id\":1,\"title\":\"One\"},"
                        + "{\"id\":2,\"title\":\"Two\"}],\"card\":{\"size\":[120,80]},\"layouts\":[{\"name\":\"pile\","
                        + "\"kind\":\"fan\"}]}}"),
                request(
                    "scene.define",
                    "{\"description\":{\"format\":1,\"name\":\"pile\",\"cards\":[{\"id\":1}],\"card\":{\"size\":"
                        + "[120,\"80 + height\"]},\"layouts\":[{\"name\":\"pile\",\"kind\":\"fan\"}]}}"),
            ]),
        ProtocolExample(
            name: "shutdown", lines: [request("shutdown"), "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}"]),
    ]
}()

/// Shortens a long line for the document: in an array whose first element is an object, the elements after the
/// first become `…` (the nodes of a frame, the cards of a deck, the actions of a scene). Lines of at most 200
/// characters are kept whole.
func abbreviateExample(_ line: String) -> String {
    guard line.count > 200 else { return line }
    let characters = Array(line)
    var index = 0
    func value() -> String {
        guard index < characters.count else { return "" }
        switch characters[index] {
        case "{":
            var out = "{"
            index += 1
            while index < characters.count && characters[index] != "}" {
                out += value()  // the key (a string)
                out.append(characters[index])  // ':'
                index += 1
                out += value()
                if characters[index] == "," {
                    out += ","
                    index += 1
                }
            }
            index += 1
            return out + "}"
        case "[":
            index += 1
            var elements: [String] = []
            while index < characters.count && characters[index] != "]" {
                elements.append(value())
                if characters[index] == "," { index += 1 }
            }
            index += 1
            if elements.count > 1, elements[0].hasPrefix("{") { return "[" + elements[0] + ",…]" }
            return "[" + elements.joined(separator: ",") + "]"
        case "\"":
            var out = "\""
            index += 1
            while characters[index] != "\"" {
                if characters[index] == "\\" {
                    out.append(characters[index])
                    index += 1
                }
                out.append(characters[index])
                index += 1
            }
            index += 1
            return out + "\""
        default:
            var out = ""
            while index < characters.count && !",]}".contains(characters[index]) {
                out.append(characters[index])
                index += 1
            }
            return out
        }
    }
    return value()
}

@Suite(.serialized) struct ProtocolExamplesTests {
    /// Plays the session and returns each example's block: `→` lines sent, `←` lines received.
    func transcript() throws -> (blocks: [String: String], problems: [String]) {
        let server = try StdioProcess()
        var blocks: [String: String] = [:]
        for example in protocolExamples {
            var block: [String] = []
            for line in example.lines {
                block.append("→ " + line)
                server.write(line)
                let parsed = try? JSON.parse(line)
                if parsed?["method"] == .string("exit") {
                    #expect(server.remainingLines().isEmpty)
                    let status = server.waitForExit()
                    block.append("(the process exits with status \(status.map(String.init) ?? "?"))")
                    continue
                }
                let expectsReply = parsed == nil || parsed?["id"] != nil
                while expectsReply, let reply = server.nextLine() {
                    block.append("← " + abbreviateExample(reply))
                    if (try? JSON.parse(reply))?["id"] != nil { break }
                }
            }
            blocks[example.name] = block.joined(separator: "\n")
        }
        return (blocks, server.schemaProblems)
    }

    @Test func theDocumentsExamplesAreARealSession() throws {
        let (blocks, problems) = try transcript()
        #expect(problems == [])
        let url = repositoryFile("docs/protocol.md")
        let document = try String(contentsOf: url, encoding: .utf8)
        var lines = document.components(separatedBy: "\n")
        var seen: Set<String> = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            guard line.hasPrefix("<!-- example "), line.hasSuffix(" -->") else {
                index += 1
                continue
            }
            let name = String(line.dropFirst("<!-- example ".count).dropLast(" -->".count))
            let block = try #require(blocks[name], "no example named \(name) in the session")
            seen.insert(name)
            #expect(lines[index + 1] == "```", "example \(name) must be followed by a ``` block")
            guard let end = lines[(index + 2)...].firstIndex(of: "```") else { break }
            lines.replaceSubrange((index + 2)..<end, with: block.components(separatedBy: "\n"))
            index += 2
        }
        #expect(seen == Set(protocolExamples.map(\.name)), "examples missing from the document")
        let regenerated = lines.joined(separator: "\n")
        if ProcessInfo.processInfo.environment["CARDISTRY_UPDATE_PROTOCOL_EXAMPLES"] == "1" {
            try regenerated.write(to: url, atomically: true, encoding: .utf8)
        } else {
            #expect(
                regenerated == document,
                "docs/protocol.md's examples differ from the server: run CARDISTRY_UPDATE_PROTOCOL_EXAMPLES=1 swift test --filter ProtocolExamplesTests"
            )
        }
    }
}
