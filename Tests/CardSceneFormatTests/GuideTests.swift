import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardSceneFormat
import Foundation
import Testing

/// Every example of docs/scenes.md is a file under docs/scenes/ that loads, plays seeded sessions without a
/// problem, and does what the guide says.
@Suite struct GuideTests {
    static let files: [String] = {
        let directory = repositoryRoot.appendingPathComponent("docs/scenes")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { "docs/scenes/" + $0 }
    }()

    @Test func theGuideLinksEveryExampleAndEveryLinkIsAFile() throws {
        let guide = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/scenes.md"), encoding: .utf8)
        #expect(Self.files.count >= 4)
        for file in Self.files {
            #expect(guide.contains("(" + file.dropFirst("docs/".count) + ")"), "docs/scenes.md does not link \(file)")
        }
    }

    @Test(arguments: files)
    func eachExampleLoadsAndPlaysWithoutAProblem(_ file: String) throws {
        let description = try loadDescription(file)
        let problems = ScenePlayer(description).play(sessions: 25, seed: 3)
        #expect(problems.isEmpty, "\(file): \(problems)")
    }

    @Test func theFanTurnsItsOuterCardsAndLowersThem() throws {
        var engine = Engine(
            scene: try DescribedScene(description: try loadDescription("docs/scenes/02-fan.json")),
            viewport: Size(width: 800, height: 400))
        let frame = engine.frame(at: 0)
        let first = try #require(frame.node(card: 1))
        let middle = try #require(frame.node(card: 3))
        let last = try #require(frame.node(card: 5))
        #expect(first.rotation == -16 && middle.rotation == 0 && last.rotation == 16)
        #expect(first.rect.minY == middle.rect.minY + 24)
        // Every card is 1.4 times as tall as it is wide (the height reads the width).
        #expect(frame.nodes.filter { $0.role == .card }.allSatisfy { $0.rect.height == $0.rect.width * 1.4 })
        #expect(first.rect.minX < middle.rect.minX && middle.rect.minX < last.rect.minX)
    }

    @Test func aFlungCardSnapsToTheNextPlaceAndASlowOneToTheNearest() throws {
        let description = try loadDescription("docs/scenes/03-drag.json")
        let viewport = Size(width: 900, height: 400)
        func release(after dx: Double, duration: Double) throws -> Double {
            var engine = Engine(scene: try DescribedScene(description: description), viewport: viewport)
            let start = try #require(engine.frame(at: 0).node(card: 1)).rect
            let from = Point(x: start.midX, y: start.midY)
            engine.handle(.pointer(PointerEvent(.down, at: from, time: 1)))
            for step in 1...5 {
                let t = Double(step) / 5
                engine.handle(
                    .pointer(PointerEvent(.move, at: Point(x: from.x + dx * t, y: from.y), time: 1 + duration * t)))
            }
            engine.handle(.pointer(PointerEvent(.up, at: Point(x: from.x + dx, y: from.y), time: 1 + duration)))
            let settled = engine.frame(at: 5)
            #expect(!settled.isAnimating)
            return try #require(settled.node(card: 1)).rect.minX - start.minX
        }
        // 60 points in 0.1 s is a fling (600 pt/s > 125): to the next place, a third of the viewport on.
        #expect(abs(try release(after: 60, duration: 0.1) - 300) < 0.5)
        // 60 points in 2 s is slow: back to the nearest place, where it started.
        #expect(abs(try release(after: 60, duration: 2)) < 0.5)
        // 200 points slowly is nearer the next place.
        #expect(abs(try release(after: 200, duration: 2) - 300) < 0.5)
    }

    @Test func actionsKeysAndPersistedState() throws {
        let description = try loadDescription("docs/scenes/04-state.json")
        #expect(
            description.descriptor.keyHelp.map(\.summary) == [
                "switch between a row and a grid", "select the first card",
            ])
        var engine = Engine(
            scene: try DescribedScene(description: description), viewport: Size(width: 600, height: 400))
        let row = engine.frame(at: 0)
        let first = try #require(row.node(card: 1))
        let second = try #require(row.node(card: 2))
        #expect(first.rect.minY == second.rect.minY && first.rect.minX < second.rect.minX)
        let used = engine.handle(.key(KeyInput("g"), time: 1))
        #expect(used)
        let grid = engine.frame(at: 5)
        // 600 wide fits four 100-point cards with 12 between: the grid is one row at y = 20.
        #expect(try #require(grid.node(card: 1)).rect.minY == 20)
        try engine.perform(SceneAction("select", ["card": .string("3")]), at: 6)
        let selected = engine.frame(at: 9)
        #expect(try #require(selected.node(card: 3)).scale == 1.1)
        // The selection persists (per deck); the mode does not.
        let saved = String(decoding: try #require(engine.scene.encodeState()), as: UTF8.self)
        #expect(saved.contains("\"selected\":\"3\""))
        #expect(!saved.contains("mode"))
    }
}
