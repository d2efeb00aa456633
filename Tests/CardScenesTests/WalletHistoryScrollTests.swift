import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardPhysics
import CardScenes
import Foundation
import Testing

/// The wallet's transaction history as the seed lays it out: a horizontal scroll view of tiles (issue 27: it was a
/// vertical list that did not scroll, 8 of 12 transactions reachable on a phone, 2 in a terminal).
@Suite struct WalletHistoryScrollTests {
    let viewport = Size(width: 390, height: 844)

    /// An engine with card 102 selected and the history settled, at t = 2.
    func selected() throws -> Engine {
        var engine = Engine(scene: try WalletScene(), viewport: viewport)
        _ = engine.frame(at: 1.5)
        try engine.perform(SceneAction("select", ["card": .string("102")]), at: 1.5)
        _ = engine.frame(at: 2)
        return engine
    }

    /// The ids of the tiles wholly inside the screen's width in `frame`.
    func tilesOnScreen(_ frame: Frame) -> Set<Int> {
        var ids: Set<Int> = []
        for node in frame.nodes where node.role == .row && node.parent == "history.scroll" {
            guard node.rect.minX >= -1e-9, node.rect.maxX <= 390 + 1e-9,
                let id = Int(node.id.description.dropFirst("history.".count))
            else { continue }
            ids.insert(id)
        }
        return ids
    }

    func scrollRow(_ engine: inout Engine, at time: Double) throws -> Rect {
        try #require(engine.frame(at: time).node("history.scroll")).rect
    }

    @Test func everyTransactionComesOnScreenByHorizontalDrags() throws {
        var engine = try selected()
        let row = try scrollRow(&engine, at: 2)
        let scroller = try #require(engine.frame(at: 2).node("history.scroll"))
        #expect(scroller.gestures.contains { $0.name == "history" })
        var seen = tilesOnScreen(engine.frame(at: 2))
        #expect(seen.count < 12, "the history is wider than the screen")
        var time = 2.0
        // Slow drags (no coast) from right to left, 200 pt each.
        for _ in 0..<12 {
            let y = row.midY
            let last = drag(
                &engine, from: Point(x: 300, y: y), by: Vector(dx: -200, dy: 0), steps: 20, at: time, duration: 2,
                lift: false)
            pointer(&engine, .up, 100, y, at: last + 0.1)
            time += 3
            seen.formUnion(tilesOnScreen(engine.frame(at: time)))
        }
        #expect(seen == Set(1...12), "seen: \(seen.sorted())")
        // At the end the last tile ends the history's padding before the screen's edge.
        let last = try #require(engine.frame(at: time).node("history.12")).rect
        #expect(abs(last.maxX - (390 - 16)) < 1e-6)
    }

    @Test func aDragPastTheStartIsRubberBandedAndSpringsBack() throws {
        var engine = try selected()
        let row = try scrollRow(&engine, at: 2)
        let first = try #require(engine.frame(at: 2).node("history.1")).rect.minX
        drag(&engine, from: Point(x: 50, y: row.midY), by: Vector(dx: 200, dy: 0), at: 3, duration: 1, lift: false)
        // 200 pt of finger past the start shows UIScrollView's (1 − 1/(200·0.55/390 + 1))·390 = 85.8 pt.
        let pulled = try #require(engine.frame(at: 4).node("history.1")).rect.minX - first
        let banded = (1 - 1 / (200 * 0.55 / 390 + 1)) * 390
        #expect(abs(pulled - banded) < 1e-6, "pulled \(pulled)")
        engine.handle(.pointer(PointerEvent(.up, at: Point(x: 250, y: row.midY), time: 4.05)))
        #expect(try #require(engine.frame(at: 4.1).node("history.1")).rect.minX > first)
        let settled = engine.frame(at: 6)
        #expect(abs(try #require(settled.node("history.1")).rect.minX - first) < 1e-6 && !settled.isAnimating)
    }

    @Test func aFlickCoastsWithUIScrollViewsDeceleration() throws {
        var engine = try selected()
        let row = try scrollRow(&engine, at: 2)
        let first = try #require(engine.frame(at: 2).node("history.1")).rect.minX
        // 100 pt left in 100 ms: a flick of about 1000 pt/s.
        drag(&engine, from: Point(x: 300, y: row.midY), by: Vector(dx: -100, dy: 0), at: 3, duration: 0.1, lift: false)
        engine.handle(.pointer(PointerEvent(.up, at: Point(x: 200, y: row.midY), time: 3.1)))
        let released = try #require(engine.frame(at: 3.1).node("history.1")).rect.minX
        #expect(abs(released - (first - 100)) < 1e-6)
        let scene = try #require(engine.scene as? WalletScene)
        // The coast's rest: the release offset plus v/k, k = −1000·ln 0.998 (≈ 2.002 per second).
        let rest = scene.history.offset
        #expect(rest > 100 + 400 && rest < scene.history.range.upperBound, "coasts about 500 pt: \(rest)")
        // Midway the content is where UIScrollView's curve puts it: offset(t) = rest − (rest − 100)·0.998^(1000t).
        let midway = try #require(engine.frame(at: 3.6).node("history.1")).rect.minX
        let expected = first - (rest - (rest - 100) * pow(0.998, 500))
        #expect(abs(midway - expected) < 1e-6, "\(midway) vs \(expected)")
        // A drag mid-coast takes the content from where it shows when the drag begins (no jump to the coast's end).
        engine.handle(.pointer(PointerEvent(.down, at: Point(x: 200, y: row.midY), time: 3.6)))
        engine.handle(.pointer(PointerEvent(.move, at: Point(x: 188, y: row.midY), time: 3.62)))
        let held = try #require(engine.frame(at: 3.62).node("history.1")).rect.minX
        let shown = first - (rest - (rest - 100) * pow(0.998, 520))
        #expect(abs(held - (shown - 12)) < 1e-6, "held at \(held), shown \(shown)")
    }

    @Test func theWheelAndTheKeysReachEveryTransaction() throws {
        var engine = try selected()
        let row = try scrollRow(&engine, at: 2)
        var seen = tilesOnScreen(engine.frame(at: 2))
        // A mouse's vertical wheel over the history scrolls it sideways (a terminal has no other wheel).
        var time = 2.0
        for _ in 0..<60 {
            time += 0.05
            engine.handle(.pointer(PointerEvent(.wheel(dx: 0, dy: 30), at: Point(x: 200, y: row.midY), time: time)))
            seen.formUnion(tilesOnScreen(engine.frame(at: time)))
        }
        #expect(seen == Set(1...12))
        // Wheeling back goes back at once, however far the wheel went past the end.
        time += 0.05
        engine.handle(.pointer(PointerEvent(.wheel(dx: 0, dy: -30), at: Point(x: 200, y: row.midY), time: time)))
        let scene = try #require(engine.scene as? WalletScene)
        #expect(abs(scene.history.offset - (scene.history.range.upperBound - 30)) < 1e-6)
        // Keys: home, then → a tile at a time to the end.
        time += 1
        engine.handle(.key(KeyInput("home"), time: time))
        time += 1
        seen = tilesOnScreen(engine.frame(at: time))
        #expect(seen.contains(1))
        for _ in 0..<12 {
            engine.handle(.key(KeyInput("right"), time: time))
            time += 1
            seen.formUnion(tilesOnScreen(engine.frame(at: time)))
        }
        #expect(seen == Set(1...12))
        // Without a selected card the arrows are not the wallet's (the front end may use them).
        try engine.perform(SceneAction("deselect"), at: time)
        let used = engine.handle(.key(KeyInput("left"), time: time + 1))
        #expect(!used)
    }
}
