import Foundation
import Testing

/// `cardistry replay --json` through the built executable: every line is what `cardistry stdio` writes, so every
/// line validates against the protocol schema as a server message (one frame encoding for both).
@Suite struct ReplayEndToEndTests {
    /// A scores session: a semantic action, keys, a tap and a wheel, as the engine's input log writes it.
    static let log = """
        {"cardistry":"input-log","version":1,"scene":"scores","viewport":{"width":390,"height":844},"start":0}
        {"t":0.5,"type":"action","name":"select","args":{"test":3}}
        {"t":0.7,"type":"key","key":"down"}
        {"t":0.8,"type":"key","key":"enter"}
        {"t":1,"type":"pointer","phase":"down","x":60,"y":120,"pointer":0}
        {"t":1.05,"type":"pointer","phase":"up","x":60,"y":120,"pointer":0}
        {"t":1.5,"type":"wheel","dx":0,"dy":-40,"x":10,"y":10}

        """

    @Test func replayJSONLinesAreProtocolServerMessages() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-e2e-\(UUID()).jsonl").path
        try Data(Self.log.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, out, err) = try runCardistry(["replay", path, "--json", "--at", "0.6", "--at", "1.2"])
        #expect(status == 0, "\(err)")
        let validator = try SchemaValidator.load()
        let lines = out.split(separator: "\n")
        var frames = 0
        for line in lines {
            let message = try JSON.parse(String(line))
            let problems = validator.errors(message, validator.definition("serverMessage"))
            #expect(problems.isEmpty, "\(problems.prefix(3)) in \(line.prefix(200))")
            if message["method"] == .string("frame") { frames += 1 }
        }
        #expect(frames == 2)
        #expect(lines.contains { $0.contains("\"method\":\"gesture\"") }, "the tap's gesture notifications")
    }
}
