import CardEngine
import CardScenes
import CardTestScenes
import Foundation
import Testing

@testable import CardCells
@testable import CardTUI

/// A cell buffer as golden text: the characters, then one letter per cell naming its style, then the legend.
enum GoldenText {
    static func encode(_ buffer: CellBuffer, title: String) -> String {
        var styles: [Cell: Character] = [:]
        var legend: [String] = []
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var styleRows: [String] = []
        for row in 0..<buffer.height {
            var line = ""
            for column in 0..<buffer.width {
                var key = buffer[column, row]
                key.character = " "
                if styles[key] == nil {
                    let letter = styles.count < letters.count ? letters[styles.count] : "?"
                    styles[key] = letter
                    legend.append("\(letter) fg=\(name(key.foreground)) bg=\(name(key.background)) \(attributes(key))")
                }
                line.append(styles[key] ?? "?")
            }
            styleRows.append(line)
        }
        return "# \(title)\n" + buffer.text + "\n# styles\n" + styleRows.joined(separator: "\n") + "\n# legend\n"
            + legend.joined(separator: "\n") + "\n"
    }

    static func name(_ color: CellColor) -> String {
        switch color.kind {
        case .terminalDefault: "default"
        case .indexed(let index): "\(index)"
        case .rgb(let red, let green, let blue):
            "#"
                + [red, green, blue].map { String($0, radix: 16).uppercased() }.map { $0.count == 1 ? "0" + $0 : $0 }
                .joined()
        }
    }

    static func attributes(_ cell: Cell) -> String {
        var names: [String] = []
        if cell.attributes.contains(.bold) { names.append("bold") }
        if cell.attributes.contains(.dim) { names.append("dim") }
        return names.isEmpty ? "plain" : names.joined(separator: ",")
    }
}

/// Golden files: each scene rendered headless at 80 × 24 at chosen times, compared by text and colour. Set
/// CARDISTRY_UPDATE_GOLDEN=1 to rewrite them (then review the diff). Every scene of the catalogue has its
/// `<name>-start` case, the throwaway sixth scene of `SceneCatalog.testing` included; the other cases are the
/// standard app's.
@Suite struct GoldenTests {
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var scene: String?
        var inputs: [(Double, TerminalInput)] = []
        var time: Double
        var columns = 80
        var rows = 24
        var ascii = false
        /// The catalogue the app is given (the home screen lists it).
        var catalog = SceneCatalog.standard

        var description: String { name }
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static let cases: [Case] =
        [
            Case(name: "home", scene: nil, time: 0),
            Case(name: "home-ascii", scene: nil, time: 0, ascii: true),
            Case(name: "home-help", scene: nil, inputs: [(0, .key(KeyInput("?")))], time: 0),
            Case(name: "scores-next-mid", scene: "scores", inputs: [(0.1, .key(KeyInput("right")))], time: 0.25),
            Case(name: "scores-next-settled", scene: "scores", inputs: [(0.1, .key(KeyInput("right")))], time: 3),
            Case(
                name: "scores-expanded", scene: "scores",
                inputs: [(0.2, .key(KeyInput("enter")))], time: 3, columns: 100,
                rows: 40),
            Case(name: "scores-200x60", scene: "scores", time: 0, columns: 200, rows: 60),
            Case(name: "flashcards-revealed", scene: "flashcards", inputs: [(0.1, .key(KeyInput("space")))], time: 2),
            Case(name: "flashcards-swipe-mid", scene: "flashcards", inputs: [(0.1, .key(KeyInput("left")))], time: 0.2),
            Case(name: "wallet-launch-mid", scene: "wallet", time: 0.3),
            Case(name: "wallet-selected", scene: "wallet", inputs: [(1, .key(KeyInput("enter")))], time: 3),
            Case(name: "hero-open-mid", scene: "hero", inputs: [(0.5, .key(KeyInput("enter")))], time: 0.65),
            Case(name: "hero-open-settled", scene: "hero", inputs: [(0.5, .key(KeyInput("enter")))], time: 3),
            Case(
                name: "hero-open-ascii", scene: "hero", inputs: [(0.5, .key(KeyInput("enter")))], time: 3, ascii: true),
            Case(name: "deck-expanded", scene: "deck", inputs: [(0.5, .key(KeyInput("enter")))], time: 3),
            Case(name: "deck-fanned", scene: "deck", inputs: [(0.5, .key(KeyInput("p")))], time: 3),
            Case(name: "deck-sort-mid", scene: "deck", inputs: [(0.5, .key(KeyInput("s")))], time: 0.7),
            Case(name: "deck-200x60", scene: "deck", time: 2, columns: 200, rows: 60),
        ] + SceneCatalog.testing.names.map { Case(name: "\($0)-start", scene: $0, time: 0, catalog: .testing) }

    static func render(_ golden: Case) -> CellBuffer {
        var app = TUIApp(
            columns: golden.columns, rows: golden.rows,
            configuration: TUIApp.Configuration(catalog: golden.catalog, ascii: golden.ascii))
        if let scene = golden.scene { app.open(scene, at: 0) }
        var buffer = CellBuffer(width: golden.columns, height: golden.rows)
        for (time, input) in golden.inputs {
            _ = app.draw(at: time, into: &buffer)
            _ = app.handle(input, at: time)
        }
        _ = app.draw(at: golden.time, into: &buffer)
        var renderer = HeadlessRenderer()
        renderer.present(buffer)
        return renderer.buffer ?? buffer
    }

    @Test(arguments: cases)
    func matchesGolden(_ golden: Case) throws {
        let title = "\(golden.scene ?? "home") \(golden.columns)x\(golden.rows) t=\(golden.time)"
        let actual = GoldenText.encode(Self.render(golden), title: title)
        let file = Self.directory.appendingPathComponent(golden.name + ".txt")
        if ProcessInfo.processInfo.environment["CARDISTRY_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: file)
            return
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            Issue.record("missing golden \(file.lastPathComponent); run with CARDISTRY_UPDATE_GOLDEN=1 and review it")
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        if expected != actual {
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }
            Issue.record(
                """
                \(golden.name) differs from its golden at line \((first?.offset ?? 0) + 1):
                expected: \(first.map { String($0.element.0) } ?? "(length)")
                actual:   \(first.map { String($0.element.1) } ?? "(length)")
                """)
        }
    }

    @Test func goldenRenderingIsDeterministic() {
        for golden in Self.cases.prefix(5) { #expect(Self.render(golden) == Self.render(golden)) }
    }
}
