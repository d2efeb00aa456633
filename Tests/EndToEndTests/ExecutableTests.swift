import Foundation
import Testing

/// Locates the built `cardistry` executable next to the test bundle (SwiftPM puts both in the build directory).
func cardistryExecutable() throws -> URL {
    var directory = Bundle.main.bundleURL
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("cardistry")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    struct NotFound: Error {}
    throw NotFound()
}

/// Runs the executable with `arguments` and returns (status, stdout, stderr).
func runCardistry(_ arguments: [String], stdin: String = "") throws -> (Int32, String, String) {
    let process = Process()
    process.executableURL = try cardistryExecutable()
    process.arguments = arguments
    let input = Pipe()
    let output = Pipe()
    let error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    input.fileHandleForWriting.write(Data(stdin.utf8))
    try input.fileHandleForWriting.close()
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    let errData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
        process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self)
    )
}

/// The scenes of the built executable's catalogue, in menu order (what `cardistry stdio` answers `initialize`
/// with): the end-to-end tests that go through every scene follow it.
func catalogueScenes() throws -> [String] {
    let initialize =
        #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"1.0","viewport":"#
        + #"{"width":390,"height":844}}}"# + "\n"
    let (status, out, err) = try runCardistry(["stdio"], stdin: initialize)
    struct NoCatalogue: Error, CustomStringConvertible { var description: String }
    guard status == 0, let line = out.split(separator: "\n").first,
        let scenes = try JSON.parse(String(line))["result"]?["scenes"]?.array
    else { throw NoCatalogue(description: "cardistry stdio did not list its scenes: \(status) \(out) \(err)") }
    return scenes.compactMap(\.string)
}

/// The key names scene `scene` of the built executable declares (`scene.open`'s `keys`), in its order.
func sceneKeys(_ scene: String) throws -> [String] {
    let requests =
        #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"1.0","viewport":"#
        + #"{"width":390,"height":844}}}"# + "\n"
        + #"{"jsonrpc":"2.0","id":1,"method":"scene.open","params":{"scene":"\#(scene)"}}"# + "\n"
    let (status, out, err) = try runCardistry(["stdio"], stdin: requests)
    struct NoKeys: Error, CustomStringConvertible { var description: String }
    let replies = out.split(separator: "\n").compactMap { try? JSON.parse(String($0)) }
    guard status == 0, let opened = replies.first(where: { $0["id"] == .number(1) }),
        let keys = opened["result"]?["keys"]?.array
    else { throw NoKeys(description: "cardistry stdio did not open \(scene): \(status) \(out) \(err)") }
    return keys.flatMap { $0["keys"]?.array ?? [] }.compactMap(\.string)
}

@Suite struct ExecutableTests {
    @Test func versionFlag() throws {
        let (status, out, _) = try runCardistry(["--version"])
        #expect(status == 0)
        #expect(out.hasPrefix("cardistry "))
    }

    /// `--store` naming a regular file says the store's directory cannot be made there (issue 46): it once said the
    /// file "is not a regular file", which it is.
    @Test func aStoreThatIsAFileSaysItIsNotADirectory() throws {
        let directory = freshStorePath("store-is-a-file")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let (status, _, err) = try runCardistry(["deck", "list", "--store", file])
        #expect(status != 0)
        #expect(err.contains("\(file): Not a directory"), "\(err)")
        #expect(!err.contains("is not a regular file"), "\(err)")
    }

    @Test func noArgumentsWithoutATerminalIsAUsageError() throws {
        let (status, out, err) = try runCardistry([])
        #expect(status == 2)
        #expect(out.isEmpty)
        #expect(err.contains("Usage: cardistry"))
    }
}
