import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardScenes
import Testing

private let viewport = Size(width: 390, height: 844)

/// The y of rank `rank` (0-based) with every card collapsed, from the scene's layout constants.
private func rankY(_ rank: Int) -> Double { 16 + 48 + 10 + Double(rank) * (56 + 10) }

@Suite struct ScoresSceneTests {
    func engine() throws -> Engine {
        Engine(scene: try ScoresScene(), viewport: viewport)
    }

    @Test func cardsAreRankedByTheSelectedTest() throws {
        var engine = try engine()
        let frame = engine.frame(at: 0)
        let names = frame.nodes.filter { $0.role == .card }.sorted { $0.rect.minY < $1.rect.minY }.map(\.card)
        // Test 1: Diana 92, Bob 90, Alice 85, Eve 85 (tie: seed order), Charlie 78.
        #expect(names == [4, 2, 1, 5, 3].map { CardID($0) })
        #expect(frame.node("header")?.text.map(\.text) == ["Test ", "1"])
    }

    @Test func reRankingSlidesEveryCardFromItsOldRankToItsNewOne() throws {
        var engine = try engine()
        _ = engine.frame(at: 0)
        try engine.perform(SceneAction("select", ["test": .number(2)]), at: 1)
        // Test 2: Eve 95, Alice 92, Charlie 88, Bob 85, Diana 76.
        let oldRank: [CardID: Int] = [4: 0, 2: 1, 1: 2, 5: 3, 3: 4]
        let newRank: [CardID: Int] = [5: 0, 1: 1, 3: 2, 2: 3, 4: 4]
        let start = engine.frame(at: 1)
        let middle = engine.frame(at: 1.2)
        let end = engine.frame(at: 3)
        for (id, old) in oldRank {
            let new = try #require(newRank[id])
            let y0 = try #require(start.node(card: id)).rect.minY
            let y1 = try #require(middle.node(card: id)).rect.minY
            let y2 = try #require(end.node(card: id)).rect.minY
            #expect(abs(y0 - rankY(old)) < 1e-9, "card \(id) starts at its old rank")
            #expect(abs(y2 - rankY(new)) < 1e-9, "card \(id) ends at its new rank")
            #expect(min(rankY(old), rankY(new)) < y1 && y1 < max(rankY(old), rankY(new)), "card \(id) is between")
        }
        #expect(start.isAnimating)
        #expect(!end.isAnimating)
        #expect(start.events.contains { if case .deckChanged = $0 { true } else { false } })
    }

    @Test func headerAndScoresRollTheirDigits() throws {
        var engine = try engine()
        _ = engine.frame(at: 0)
        try engine.perform(SceneAction("select", ["test": .number(10)]), at: 1)
        let middle = engine.frame(at: 1.1)
        let header = try #require(middle.node("header"))
        let number = try #require(header.text.last)
        #expect(number.text == "10")
        #expect(number.rollingFrom == "1")
        // "1" → "10": right-aligned, both characters changed; they are mid-roll.
        #expect(number.digitProgress.count == 2)
        #expect(number.digitProgress.allSatisfy { $0 > 0 && $0 < 1 })
        let score = try #require(middle.node("card.4.score")?.text.first)
        #expect(score.rollingFrom == "92")
        #expect(score.text == "74")
        let settled = engine.frame(at: 3)
        #expect(settled.node("header")?.text.last?.rollingFrom == nil)
    }

    @Test func onlyOneCardIsExpandedAndBarsAreScoresOverOneHundred() throws {
        var engine = try engine()
        try engine.perform(SceneAction("toggle", ["card": .string("1")]), at: 0)
        try engine.perform(SceneAction("toggle", ["card": .string("2")]), at: 0.1)
        let frame = engine.frame(at: 2)
        let expanded = Set(
            frame.nodes.filter { $0.role == .bar && $0.id.rawValue.hasSuffix(".bar.1") }.compactMap { $0.parent })
        #expect(expanded == ["card.2"])
        let scores = [90, 85, 88, 72, 80, 95, 78, 84, 91, 67]  // Bob
        for test in 1...10 {
            let bar = try #require(frame.node(NodeID("card.2.bar.\(test)")))
            let track = try #require(frame.node(NodeID("card.2.bar.\(test).track")))
            #expect(abs(bar.rect.width - track.rect.width * Double(scores[test - 1]) / 100) < 1e-9)
            #expect(bar.opacity == (test == 1 ? 0.9 : 0.5))
        }
        // Tapping the expanded card again collapses it.
        try engine.perform(SceneAction("toggle", ["card": .string("2")]), at: 3)
        #expect(engine.frame(at: 6).nodes.allSatisfy { $0.role != .bar || $0.parent == "slider" })
    }

    @Test func badActionsAreRefused() throws {
        var engine = try engine()
        #expect(throws: SceneError.invalidArgument(action: "select", argument: "test", reason: "must be 1…10")) {
            try engine.perform(SceneAction("select", ["test": .number(11)]), at: 0)
        }
        #expect(throws: SceneError.unknownCard(CardID(99))) {
            try engine.perform(SceneAction("toggle", ["card": .string("99")]), at: 0)
        }
        #expect(throws: SceneError.unknownAction("fly")) { try engine.perform(SceneAction("fly"), at: 0) }
    }

    /// In a short viewport an expanded card makes the list taller than its room: the list scrolls to show the
    /// card, the wheel scrolls it (clamped to the content), the cards stay inside the list (which clips them) and
    /// never reach the slider. (Before, the expanded card pushed Bob and Charlie over the slider.)
    @Test func anExpandedCardScrollsTheListAndTheSliderStaysReachable() throws {
        let short = Size(width: 390, height: 500)
        var engine = Engine(scene: try ScoresScene(), viewport: short)
        let last = try #require(engine.deck.last)
        try engine.perform(SceneAction("toggle", ["card": .string(last.id.description)]), at: 1)
        var frame = engine.frame(at: 3)
        let list = try #require(frame.node("list"))
        let track = try #require(frame.node("slider"))
        #expect(list.clipsContent && list.rect.maxY <= track.rect.minY)
        // The expanded card (the last) was scrolled into view: its top is inside the list.
        let card = try #require(frame.node(card: last.id))
        #expect(card.rect.minY >= list.rect.minY - 1e-9 && card.rect.minY < list.rect.maxY)
        let scene = try #require(engine.scene as? ScoresScene)
        #expect(scene.scrollOffset > 0)
        // Wheel up by far more than the content: the list scrolls back to its top, no further.
        engine.handle(
            .pointer(PointerEvent(.wheel(dx: 0, dy: -5000), at: Point(x: 100, y: 200), time: 4, buttons: [])))
        frame = engine.frame(at: 6)
        #expect((engine.scene as? ScoresScene)?.scrollOffset == 0)
        let first = try #require(engine.deck.first)
        #expect(frame.node(card: first.id)?.rect.minY == list.rect.minY)
        // The slider still answers: a tap on its track selects a test.
        let x = track.rect.maxX - 20
        engine.handle(.pointer(PointerEvent(.down, at: Point(x: x, y: track.rect.midY), time: 7)))
        engine.handle(.pointer(PointerEvent(.up, at: Point(x: x, y: track.rect.midY), time: 7.05)))
        #expect((engine.scene as? ScoresScene)?.selectedTest == 10)
        #expect(FrameLint().findings(in: engine.frame(at: 9)).filter { $0.kind == .outsideParent }.isEmpty)
    }

    /// SwiftUI's `Slider(step: 1)` keeps its thumb on the step under the finger: dragged along the track at
    /// 300 pt/s, the thumb stays within 8 pt of that step in every frame (it sprang 70 pt behind with the re-rank's
    /// `.smooth`), while the cards still re-rank with the animation.
    @Test func theSliderThumbStaysOnTheFingersStepWhileDragging() throws {
        var engine = try engine()
        let frame = engine.frame(at: 0)
        let track = try #require(frame.node("slider.track")).rect
        let y = track.midY
        let pitch = track.width / 9
        func stepX(_ x: Double) -> Double {
            track.minX + pitch * min(max(((x - track.minX) / pitch).rounded(), 0), 9)
        }
        engine.handle(.pointer(PointerEvent(.down, at: Point(x: track.minX, y: y), time: 1)))
        var worst = 0.0
        var movedCards = false
        let start = try #require(frame.nodes.first { $0.role == .card }).rect.minY
        // 300 pt/s in 16-ms steps (4.8 pt per step) across the whole track.
        var x = track.minX
        var time = 1.0
        while x < track.maxX {
            x = min(x + 4.8, track.maxX)
            time += 0.016
            engine.handle(.pointer(PointerEvent(.move, at: Point(x: x, y: y), time: time)))
            let sample = engine.frame(at: time + 0.008)
            let thumb = try #require(sample.node("slider.thumb")).rect.midX
            worst = max(worst, abs(thumb - stepX(x)))
            let first = try #require(sample.nodes.first { $0.role == .card }).rect.minY
            movedCards = movedCards || abs(first - start) > 0.5
        }
        #expect(worst < 8, "the thumb strays \(worst) pt from the finger's step")
        #expect(movedCards, "the cards re-rank as the test changes")
        let fill = try #require(engine.frame(at: time + 0.008).node("slider.fill")).rect
        #expect(abs(fill.maxX - track.maxX) < 1e-9, "the fill follows the thumb")
    }

    /// The seed clips each card with `RoundedRectangle(cornerRadius: 12)`: while a chart collapses, its leaving
    /// bars lie outside the shrinking card (up to 3 showed in the gaps between cards) and must be cut by it, so the
    /// card clips its subtree and every bar is in that subtree.
    @Test func cardsClipTheirChartsWhileTheyCollapse() throws {
        var engine = try engine()
        let id = try #require(engine.deck.first?.id)
        try engine.perform(SceneAction("toggle", ["card": .string(id.description)]), at: 1)
        _ = engine.frame(at: 3)
        try engine.perform(SceneAction("toggle", ["card": .string(id.description)]), at: 3)
        let middle = engine.frame(at: 3.1)
        let card = try #require(middle.node(card: id))
        #expect(card.clipsContent && card.cornerRadius == 12)
        let bars = middle.nodes.filter { $0.role == .bar && $0.parent == card.id }
        let outside = bars.filter { $0.rect.maxY > card.rect.maxY + 0.5 }
        #expect(!outside.isEmpty, "mid-collapse some bars lie below the shrinking card")
        #expect(FrameLint().findings(in: middle).filter { $0.kind == .outsideParent }.isEmpty)
    }

    /// The list is the engine's `ScrollView` (issue 27): in a short viewport with a chart open, a drag past the top
    /// is rubber-banded and springs back, and a flick upwards coasts on after the finger lifts.
    @Test func theListRubberBandsAndCoastsLikeAScrollView() throws {
        let short = Size(width: 390, height: 500)
        var engine = Engine(scene: try ScoresScene(), viewport: short)
        let first = try #require(engine.deck.first)
        try engine.perform(SceneAction("toggle", ["card": .string(first.id.description)]), at: 1)
        let rest = try #require(engine.frame(at: 3).node(card: first.id)).rect.minY
        engine.handle(.pointer(PointerEvent(.down, at: Point(x: 100, y: 200), time: 4)))
        for step in 1...10 {
            engine.handle(
                .pointer(
                    PointerEvent(.move, at: Point(x: 100, y: 200 + Double(step) * 10), time: 4 + Double(step) * 0.1)))
        }
        let pulled = try #require(engine.frame(at: 5).node(card: first.id)).rect.minY - rest
        #expect(pulled > 10 && pulled < 100, "rubber-banded: \(pulled) of 100")
        engine.handle(.pointer(PointerEvent(.up, at: Point(x: 100, y: 300), time: 5.05)))
        #expect(abs(try #require(engine.frame(at: 8).node(card: first.id)).rect.minY - rest) < 1e-6)
        // A flick up: the list goes on moving after the finger lifts.
        engine.handle(.pointer(PointerEvent(.down, at: Point(x: 100, y: 300), time: 9)))
        for step in 1...5 {
            engine.handle(
                .pointer(
                    PointerEvent(.move, at: Point(x: 100, y: 300 - Double(step) * 12), time: 9 + Double(step) * 0.01)))
        }
        engine.handle(.pointer(PointerEvent(.up, at: Point(x: 100, y: 240), time: 9.05)))
        let lifted = try #require(engine.frame(at: 9.05).node(card: first.id)).rect.minY
        let later = try #require(engine.frame(at: 9.2).node(card: first.id)).rect.minY
        #expect(later < lifted - 5, "coasting: \(lifted) → \(later)")
        let scene = try #require(engine.scene as? ScoresScene)
        #expect(scene.scrollOffset > 60)
    }

    /// Escape closes the expanded chart first; with nothing expanded the scene leaves the key to the front end (the
    /// terminal UI then goes back to the home screen).
    @Test func escapeCollapsesTheExpandedCardFirst() throws {
        var engine = try engine()
        let card = try #require(engine.deck.first)
        try engine.perform(SceneAction("toggle", ["card": .string(card.id.description)]), at: 1)
        #expect((engine.scene as? ScoresScene)?.expanded == card.id)
        let used = engine.handle(.key(KeyInput("escape"), time: 2))
        #expect(used && (engine.scene as? ScoresScene)?.expanded == nil)
        let usedAgain = engine.handle(.key(KeyInput("escape"), time: 3))
        #expect(!usedAgain)
    }
}

/// Colours the scene chooses itself are readable (issue 28): the chart's scores at ≥ 4.5:1 on their bars as they
/// show (they were drawn inside the faded bar at 1.3–1.5:1), and the slider's tick labels on the page.
@Test func scoresAndTickLabelsAreReadable() throws {
    var engine = Engine(scene: try ScoresScene(), viewport: Size(width: 390, height: 844))
    for (index, card) in engine.scene.deckIDs.enumerated() {
        let time = Double(index) * 10 + 1
        try engine.perform(SceneAction("toggle", ["card": .string(card.description)]), at: time)
        let frame = engine.frame(at: time + 5)
        let values = frame.nodes.filter { $0.id.description.hasSuffix(".value") }
        #expect(values.count == 10)
        let page = RGBA(red: 0.95, green: 0.95, blue: 0.97)
        for value in values {
            let cardID = value.parent
            let cardFill = try #require(frame.nodes.first { $0.id == cardID }?.fill)
            let barID = String(value.id.description.dropLast(".value".count))
            let bar = try #require(frame.nodes.first { $0.id.description == barID })
            let track = try #require(frame.nodes.first { $0.id.description == barID + ".track" })
            let under = (bar.fill ?? .white).opacity(bar.opacity).over(
                (track.fill ?? .white).opacity(track.opacity).over(cardFill))
            let colour = try #require(value.text.first?.run.color)
            #expect(colour.contrastRatio(with: under) >= 4.5, "\(value.id): \(colour) on \(under)")
        }
        for tick in frame.nodes where tick.role == .tick {
            let colour = try #require(tick.text.first?.run.color)
            #expect(colour.contrastRatio(with: page) >= 4.5, "\(tick.id)")
        }
    }
}
