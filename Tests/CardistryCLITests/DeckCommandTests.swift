import CardFrontend
import CardistryCLI
import Foundation
import Testing

/// `cardistry deck` in-process, against a store in a fresh temporary directory.
@Suite struct DeckCommandTests {
    /// A temporary directory with a store inside, removed at the end of the test.
    final class Sandbox {
        let path: String

        init() throws {
            path = NSTemporaryDirectory() + "/cardistry-cli-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }

        var store: String { path + "/store" }

        func file(_ name: String, _ bytes: [UInt8]) throws -> String {
            let file = path + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            return file
        }

        /// Runs `cardistry deck ARGS --store STORE`.
        func deck(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
            let (io, output) = CommandIO.capture()
            let status = CLI.run(["deck"] + arguments + ["--store", store], environment: ["HOME": path], io: io)
            return (status, output.stdout, output.stderr)
        }
    }

    @Test func importListExportAndRemoveAFlashcardTSV() throws {
        let sandbox = try Sandbox()
        let tsv = "Capital of France?\tParis\r\n\nTwo plus two?\t4\nDoctor Who?\tJodie Whittaker\n"
        let file = try sandbox.file("quiz.tsv", Array(tsv.utf8))
        let imported = sandbox.deck(["import", file])
        #expect(imported.status == 0, "\(imported.err)")
        #expect(imported.out == "imported 3 cards into deck \"quiz\" (revision 1)\n")
        #expect(sandbox.deck(["list"]).out == "quiz\n")
        let exported = sandbox.deck(["export", "quiz", "--format", "tsv"])
        #expect(exported.status == 0)
        #expect(exported.out == "Capital of France?\tParis\nTwo plus two?\t4\nDoctor Who?\tJodie Whittaker\n")
        #expect(sandbox.deck(["remove", "quiz"]).status == 0)
        #expect(sandbox.deck(["list"]).out == "")
        let again = sandbox.deck(["remove", "quiz"])
        #expect(again.status == 1)
        #expect(again.err.contains("no deck named \"quiz\""))
    }

    @Test func badRowsAreReportedByLineAndNothingIsImported() throws {
        let sandbox = try Sandbox()
        var bytes = Array("good\tone\nno tab here\ngood\ttwo\ntoo\tmany\ttabs\n".utf8)
        bytes += [0xFF, 0x09, 0x41, 0x0A] + Array("\tno prompt\n".utf8)
        let file = try sandbox.file("bad.tsv", bytes)
        let result = sandbox.deck(["import", file])
        #expect(result.status == 1)
        for line in [2, 4, 5, 6] { #expect(result.err.contains("bad.tsv:\(line):"), "line \(line): \(result.err)") }
        #expect(!result.err.contains("bad.tsv:1:"))
        #expect(!result.err.contains("bad.tsv:3:"))
        #expect(result.err.contains("nothing was imported"))
        #expect(sandbox.deck(["list"]).out == "")
    }

    @Test func jsonRoundTripsAndReplaceIsExplicit() throws {
        let sandbox = try Sandbox()
        let tsv = try sandbox.file("a.tsv", Array("q\ta\n".utf8))
        #expect(sandbox.deck(["import", tsv, "--name", "first"]).status == 0)
        let exported = sandbox.deck(["export", "first"])
        #expect(exported.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(exported.out.utf8)) as? [String: Any]
        #expect(object?["format"] as? String == "cardistry.deck")
        let json = try sandbox.file("first.json", Array(exported.out.utf8))
        let clash = sandbox.deck(["import", json])
        #expect(clash.status == 1)
        #expect(clash.err.contains("--replace"))
        let replaced = sandbox.deck(["import", json, "--replace"])
        #expect(replaced.status == 0, "\(replaced.err)")
        #expect(replaced.out.contains("(revision 2)"))
        // A bare {"cards": [...]} deck imports too.
        let bare = try sandbox.file("bare.json", Array(#"{"cards":[]}"#.utf8))
        #expect(sandbox.deck(["import", bare]).status == 0)
        let broken = try sandbox.file("broken.json", Array("{\"cards\": [\n  {\"id\": \"1\"}\n]}\n".utf8))
        let failed = sandbox.deck(["import", broken])
        #expect(failed.status == 1)
        #expect(failed.err.contains("broken.json:2:3: a card is missing"), "\(failed.err)")
        let torn = try sandbox.file("torn.json", Array("{\"format\": \"cardistry.deck\",\n".utf8))
        #expect(sandbox.deck(["import", torn]).err.contains("torn.json:2:1: unexpected end of input"))
        #expect(sandbox.deck(["list"]).out == "bare\nfirst\n")
    }

    @Test func checkNamesTheBrokenDocument() throws {
        let sandbox = try Sandbox()
        let tsv = try sandbox.file("ok.tsv", Array("q\ta\n".utf8))
        #expect(sandbox.deck(["import", tsv]).status == 0)
        let healthy = sandbox.deck(["check"])
        #expect(healthy.status == 0)
        #expect(healthy.out.contains("ok   deck \"ok\": revision 1, 1 cards"))
        try Data("{\"format\":\"cardistry.deck\",".utf8).write(
            to: URL(fileURLWithPath: sandbox.store + "/decks/torn.json"))
        let report = sandbox.deck(["check"])
        #expect(report.status == 1)
        #expect(report.out.contains("BAD  deck \"torn\""))
        #expect(report.out.contains("torn.json: unreadable at byte 27"))
        #expect(sandbox.deck(["check", "ok"]).status == 0)
        #expect(sandbox.deck(["export", "torn"]).status == 1)
    }

    static let usageErrors: [[String]] = [
        [], ["frobnicate"], ["list", "extra"], ["import"], ["export"], ["export", "a", "--format", "xml"],
        ["list", "--replace"], ["list", "--name", "x"], ["import", "f", "--name", "../x"], ["check", "a", "b"],
        ["list", "--bogus"],
    ]

    @Test(arguments: usageErrors)
    func usageErrorsExitTwo(_ arguments: [String]) throws {
        let sandbox = try Sandbox()
        let result = sandbox.deck(arguments)
        #expect(result.status == 2, "\(arguments): \(result.err)")
        #expect(result.err.contains("Usage: cardistry deck"))
    }

    @Test func aMissingFileAndAnInvalidNameAreDataErrors() throws {
        let sandbox = try Sandbox()
        #expect(sandbox.deck(["import", sandbox.path + "/nope.tsv"]).status == 1)
        let file = try sandbox.file("bad name!.tsv", Array("q\ta\n".utf8))
        let result = sandbox.deck(["import", file])
        #expect(result.status == 1)
        #expect(result.err.contains("--name"))
        #expect(sandbox.deck(["export", "..", "--format", "json"]).status == 1)
    }
}
