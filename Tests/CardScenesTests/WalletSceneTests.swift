import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardPersistence
import CardPhysics
import CardScenes
import Testing

private let viewport = Size(width: 390, height: 844)

// The wallet's geometry in a 390×844 viewport, from the scene's layout rules: cards 320 wide (padding 35) with the
// ID-1 aspect ratio, the stack centred between the title bar (bottom at 20 + 41 + 16) and the bottom edge.
private let cardHeight = 320 / (85.60 / 53.98)
private let stackTop = 77 + (844 - 77 - cardHeight) / 2
/// A transaction tile's height: padding 12, the icon's line (title), a gap of 8, the merchant's (headline) and the
/// amount's (body) lines, a gap of 8, the date's line (footnote), padding 12.
private let tileHeight: Double = {
    let text = StandardTextMeasurer()
    return 24 + text.lineHeight(of: .title) + 16 + text.lineHeight(of: .headline) + text.lineHeight(of: .body)
        + text.lineHeight(of: .footnote)
}()
/// With a card selected: the history under it (top padding 10, header 40, the tiles' row, padding 16).
private let selectedTop = 77 + (844 - 77 - (cardHeight + 10 + 40 + tileHeight + 16)) / 2

private func card(_ id: UInt64) -> CardID { CardID(id) }

/// The y of the card at stack index `index` at rest.
private func restY(_ index: Int) -> Double { stackTop - 50 * Double(index) }

/// A point on the visible strip of the card at `index` (the 50-point band above the card in front of it).
private func grip(_ index: Int) -> Point { Point(x: 195, y: restY(index) + 20) }

private func pointer(_ kind: PointerEvent.Kind, _ point: Point, _ time: Double) -> InputEvent {
    .pointer(PointerEvent(kind, at: point, time: time))
}

private func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance }

@Suite struct WalletSceneTests {
    /// An engine whose launch has settled by t = 2.
    func engine(store: (any DeckStore)? = nil) throws -> Engine {
        let scene = try WalletScene()
        var engine =
            store.map { Engine.persisted(scene, viewport: viewport, store: $0) }
            ?? Engine(scene: scene, viewport: viewport)
        _ = engine.frame(at: 2)
        return engine
    }

    func y(_ engine: inout Engine, _ id: UInt64, at time: Double) throws -> Double {
        try #require(engine.frame(at: time).node(card: card(id))).rect.minY
    }

    func haptics(_ frame: Frame) -> [HapticEvent.Style] {
        frame.events.compactMap { if case .haptic(let haptic) = $0 { haptic.style } else { nil } }
    }

    @Test func cardsStackFiftyPointsApartWithDescendingZ() throws {
        var engine = try engine()
        let frame = engine.frame(at: 3)
        for (index, id) in (101...105).enumerated() {
            let node = try #require(frame.node(card: card(UInt64(id))))
            #expect(near(node.rect.minY, restY(index)))
            #expect(near(node.rect.minX, 35) && near(node.rect.width, 320))
            #expect(node.z == -Double(index))
            #expect(node.opacity == 1)
        }
        let number = try #require(frame.node("card.101.number"))
        #expect(number.text.first?.text == "4354 8374 3473 4373")
        // The seed's `Text(number).bold()`: body size, bold (it was title size, 28 points).
        #expect(number.text.first?.run.style == .body && number.text.first?.run.weight == .bold)
        let holder = try #require(frame.node("card.101.holder")).text.map(\.text)
        #expect(holder == ["Simon Ng  ", "Valid Thru ", "08/29"])
        // Card text sits at the bottom-leading corner: leading 25, bottom 20.
        let holderNode = try #require(frame.node("card.101.holder"))
        #expect(near(holderNode.rect.minX, 35 + 25) && near(holderNode.rect.maxY, restY(0) + cardHeight - 20))
        #expect(frame.node("card.105.brand")?.text.first?.text == "DISCOVER")
        #expect(frame.node("title")?.text.first?.text == "Wallet")
        #expect(!frame.isAnimating)
    }

    @Test func launchSlidesTheLastCardInFirstFromTheLeadingEdge() throws {
        var engine = Engine(scene: try WalletScene(), viewport: viewport)
        let start = engine.frame(at: 0)
        for id in 101...105 {
            let node = try #require(start.node(card: card(UInt64(id))))
            // Absent: just past the leading edge (slide + move(.leading)) and transparent.
            #expect(near(node.rect.maxX, 0) && node.opacity == 0)
        }
        #expect(start.isAnimating)
        // Card 4 (delay (5 − 4)·0.1 = 0.1 s) is on its way at 0.15 while card 0 (delay 0.5 s) has not moved.
        let early = engine.frame(at: 0.15)
        let last = try #require(early.node(card: card(105)))
        #expect(last.rect.minX > -320 && last.opacity > 0)
        #expect(near(try #require(early.node(card: card(101))).rect.minX, -320))
        #expect(near(try #require(early.node(card: card(104))).rect.minX, -320))  // delay 0.2
        // Exactly the seed's spring (response 0.1, damping 0.8), 0.05 s into its motion from x −320 to 35.
        let launch = try Spring(response: 0.1, dampingRatio: 0.8)
        #expect(near(last.rect.minX, launch.value(from: -320, to: 35, at: 0.05), 1e-9))
        #expect(near(try #require(engine.frame(at: 0.55).node(card: card(101))).rect.minX, last.rect.minX, 1e-9))
        // The card's text travels with it.
        #expect(near(try #require(early.node("card.105.number")).rect.minX, last.rect.minX + 25, 1e-9))
        // At 0.45 every card but the first has started; the later a card starts, the further behind it is.
        let middle = engine.frame(at: 0.45)
        let xs = try (101...105).map { try #require(middle.node(card: card(UInt64($0)))).rect.minX }
        #expect(near(xs[0], -320))
        #expect(xs[1] < xs[2] && xs[2] < xs[3])
        let end = engine.frame(at: 2)
        for (index, id) in (101...105).enumerated() {
            let node = try #require(end.node(card: card(UInt64(id))))
            #expect(near(node.rect.minX, 35) && near(node.rect.minY, restY(index)) && node.opacity == 1)
        }
        #expect(!end.isAnimating)
    }

    @Test func tapSelectsAfterADelayAndShowsTheHistory() throws {
        var engine = try engine()
        engine.handle(pointer(.down, grip(1), 3))
        engine.handle(pointer(.up, grip(1), 3.04))  // a quick tap, before the 0.05 s press
        // easeOut 0.15 s after a 0.1 s delay: nothing moves before 3.14.
        let waiting = engine.frame(at: 3.13)
        #expect(near(try #require(waiting.node(card: card(102))).rect.minY, restY(1)))
        #expect(haptics(waiting) == [.selection])
        let history = try #require(waiting.node("history.header"))
        #expect(near(history.rect.minY, 844))  // just below the bottom edge
        let moving = engine.frame(at: 3.22)
        let y1 = try #require(moving.node(card: card(102))).rect.minY
        #expect(min(restY(1), selectedTop) < y1 && y1 < max(restY(1), selectedTop))
        // easeOut: the curve's progress 0.07 s into its 0.15 s.
        let eased = TimingCurve.easeOut.progress(at: (3.22 - 3.14) / 0.15)
        #expect(near(y1, restY(1) + (selectedTop - restY(1)) * eased, 1e-6))
        let rising = try #require(moving.node("history.header")).rect.minY
        #expect(selectedTop + cardHeight + 10 < rising && rising < 844)
        // Done by 3.04 + 0.1 + 0.15: the selected card and those behind it at offset 0, the one in front at +1400.
        let done = engine.frame(at: 3.31)
        for id in 102...105 { #expect(near(try #require(done.node(card: card(UInt64(id)))).rect.minY, selectedTop)) }
        #expect(near(try #require(done.node(card: card(101))).rect.minY, selectedTop + 1400))
        #expect(near(try #require(done.node("history.header")).rect.minY, selectedTop + cardHeight + 10))
        #expect(done.node("history.1.merchant")?.text.first?.text == "Golden Dragon")
        #expect(done.node("history.1.amount")?.text.first?.text == "$24.50")
        // The twelve transactions as tiles side by side from the history's padding, 120 + 20 apart; the scrolling
        // node clips them to the screen's width.
        for index in 0..<12 {
            let tile = try #require(done.node(NodeID("history.\(index + 1)")))
            #expect(near(tile.rect.minX, 16 + Double(index) * 140) && tile.parent == "history.scroll")
        }
        #expect(done.node("history.scroll")?.clipsContent == true)
        #expect(!done.isAnimating)
        // Tapping again returns to the stack; the history slides back down and leaves.
        let selectedGrip = Point(x: 195, y: selectedTop + 50)
        engine.handle(pointer(.down, selectedGrip, 4))
        engine.handle(pointer(.up, selectedGrip, 4.05))
        #expect(near(try y(&engine, 102, at: 4.14), selectedTop))
        let leaving = try #require(engine.frame(at: 4.22).node("history.header"))
        #expect(leaving.isLeaving && leaving.rect.minY > selectedTop + cardHeight + 10 && leaving.rect.minY < 844)
        let back = engine.frame(at: 4.31)
        for (index, id) in (101...105).enumerated() {
            #expect(near(try #require(back.node(card: card(UInt64(id)))).rect.minY, restY(index)))
        }
        #expect(back.node("history.header") == nil && !back.isAnimating)
    }

    /// On a terminal's grid the stack's step is whole rows (48 points for rows of 24, not 50): a card dragged
    /// exactly two steps moves two places, as it looks (issue 46, item 11: "a long-press drag of exactly two slots
    /// moved the card one place"; the seed's Int(−height/50) read 96 points as one place).
    @Test func onAGridADragOfTwoStepsMovesTwoPlaces() throws {
        let grid = LayoutGrid(columnWidth: 12, rowHeight: 24)
        var engine = Engine(scene: try WalletScene(), viewport: viewport, textMeasurer: GridMeasurer(grid: grid))
        let rest = engine.frame(at: 2)
        let fourth = try #require(rest.node(card: card(104))).rect
        let third = try #require(rest.node(card: card(103))).rect
        let step = third.minY - fourth.minY
        #expect(step == 48)
        // The fourth card's visible strip, above the third card's top.
        let start = Point(x: fourth.midX, y: fourth.minY + step / 2)
        engine.handle(pointer(.down, start, 3))
        _ = engine.frame(at: 3.1)
        engine.handle(pointer(.move, Point(x: start.x, y: start.y + step), 3.15))
        engine.handle(pointer(.move, Point(x: start.x, y: start.y + 2 * step), 3.2))
        let dragged = try #require(engine.frame(at: 3.2).node(card: card(104)))
        #expect(near(dragged.z, -3 + 2), "over the card it passed, as it looks")
        engine.handle(pointer(.up, Point(x: start.x, y: start.y + 2 * step), 3.25))
        #expect(engine.deck.ids == [101, 104, 102, 103, 105].map(card))
    }

    @Test func pressingCardOneAndDraggingItDownMovesItToTheFront() throws {
        let store = InMemoryStore()
        var engine = try engine(store: store)
        let start = grip(1)
        engine.handle(pointer(.down, start, 3))
        #expect(near(try y(&engine, 102, at: 3.04), restY(1)))
        // Pressed 0.05 s: the card lifts (the press shows) while the tap is still possible.
        #expect(haptics(engine.frame(at: 3.06)) == [.medium])
        engine.handle(pointer(.move, Point(x: start.x, y: start.y + 5), 3.1))  // still a possible tap
        #expect(try y(&engine, 102, at: 3.1) < restY(1))
        engine.handle(pointer(.move, Point(x: start.x, y: start.y + 60), 3.15))  // the tap fails; the drag shows
        let lifted = engine.frame(at: 3.15)
        let node = try #require(lifted.node(card: card(102)))
        #expect(near(node.rect.minY, restY(1) - 20 + 60))  // lifted by 20, following the finger
        #expect(near(node.z, -1 + 60.0 / 50))  // now above the card in front
        #expect(near(node.rect.minX, 35))
        #expect(haptics(lifted).isEmpty, "the lift's haptic came with the press, once")
        engine.handle(pointer(.move, Point(x: start.x, y: start.y + 120), 3.2))
        let dragged = try #require(engine.frame(at: 3.2).node(card: card(102)))
        #expect(near(dragged.rect.minY, restY(1) - 20 + 120) && near(dragged.z, -1 + 120.0 / 50))
        engine.handle(pointer(.up, Point(x: start.x, y: start.y + 120), 3.25))
        // newIndex = 1 + Int(−120/50) = 1 − 2 = −1, clamped to 0.
        #expect(engine.deck.ids == [102, 101, 103, 104, 105].map(card))
        let released = engine.frame(at: 3.25)
        #expect(haptics(released) == [.light])
        #expect(released.events.contains { if case .deckChanged = $0 { true } else { false } })
        // `.spring()` from where the finger left it to the front slot, the old front card to index 1.
        let mid = try y(&engine, 102, at: 3.35)
        #expect(restY(0) < mid && mid < restY(1) - 20 + 120)
        #expect(near(mid, Spring.default.value(from: restY(1) + 100, to: restY(0), at: 0.1), 1e-9))
        let settled = engine.frame(at: 5)
        #expect(near(try #require(settled.node(card: card(102))).rect.minY, restY(0)))
        #expect(try #require(settled.node(card: card(102))).z == 0)
        #expect(near(try #require(settled.node(card: card(101))).rect.minY, restY(1)))
        // The order persists: a new engine on the same store starts with it.
        #expect(engine.save(to: store) == nil)
        let reopened = Engine.persisted(try WalletScene(), viewport: viewport, store: store)
        #expect(reopened.deck.ids == [102, 101, 103, 104, 105].map(card))
        #expect(reopened.stateError == nil)
    }

    @Test func draggingUpMovesACardBackByWholePlaces() throws {
        var engine = try engine()
        let start = Point(x: 195, y: restY(0) + 100)
        engine.handle(pointer(.down, start, 3))
        engine.handle(pointer(.move, Point(x: start.x, y: start.y - 60), 3.1))
        engine.handle(pointer(.move, Point(x: start.x, y: start.y - 149), 3.2))
        engine.handle(pointer(.up, Point(x: start.x, y: start.y - 149), 3.25))
        // newIndex = 0 + Int(149/50) = 2 (truncation, not rounding).
        #expect(engine.deck.ids == [102, 103, 101, 104, 105].map(card))
    }

    @Test func horizontalTranslationNudgesTwentyPointsPastTen() throws {
        var engine = try engine()
        let start = grip(2)
        engine.handle(pointer(.down, start, 3))
        var frames: [Double] = []
        for (time, dx) in [(3.1, 30.0), (3.2, -30.0), (3.3, 9.0), (3.4, 11.0), (3.5, -10.0)] {
            engine.handle(pointer(.move, Point(x: start.x + dx, y: start.y + 30), time))
            frames.append(try #require(engine.frame(at: time).node(card: card(103))).rect.minX)
        }
        #expect(frames == [55, 15, 35, 55, 35])
        // Released 30 down: Int(−30/50) = 0, the card goes back to its place.
        engine.handle(pointer(.up, Point(x: start.x, y: start.y + 30), 3.6))
        #expect(engine.deck.ids == (101...105).map { card(UInt64($0)) })
        #expect(haptics(engine.frame(at: 3.6)) == [.soft])
        let settled = try #require(engine.frame(at: 5).node(card: card(103)))
        #expect(near(settled.rect.minX, 35) && near(settled.rect.minY, restY(2)) && settled.z == -2)
    }

    /// The seed's long press is 0.05 s with the tap taking priority (issue 27: the card lifted only after 0.5 s):
    /// held 0.05 s the card lifts by 20 (with a `medium` haptic), and released at 0.3 s without a drag it is still a
    /// tap, which selects it; no drag starts and nothing moves in the deck.
    @Test func aPressLiftsTheCardAtFiftyMillisecondsAndATapStillSelects() throws {
        var engine = try engine()
        engine.handle(pointer(.down, grip(1), 3))
        #expect(near(try y(&engine, 102, at: 3.04), restY(1)), "not before 0.05 s")
        let lifted = engine.frame(at: 3.06)
        #expect(haptics(lifted) == [.medium])
        // `.spring()` from rest towards the lift; by 0.3 s it is up.
        #expect(try y(&engine, 102, at: 3.29) < restY(1) - 10, "lifting")
        engine.handle(pointer(.move, Point(x: grip(1).x + 6, y: grip(1).y), 3.2))
        #expect(try #require(engine.frame(at: 3.25).node(card: card(102))).z == -1, "lifted, not dragged")
        engine.handle(pointer(.up, Point(x: grip(1).x + 6, y: grip(1).y), 3.3))
        #expect(haptics(engine.frame(at: 3.3)) == [.selection])
        #expect(engine.deck.ids == (101...105).map { card(UInt64($0)) })
        #expect(near(try y(&engine, 102, at: 4), selectedTop))  // it was a tap: card 102 is selected
    }

    /// CardGestures' tap fails once held 0.5 s, so "a long press without movement" is a press held past 0.5 s: the
    /// card, lifted since 0.05 s, stays up, and releasing it neither selects nor moves anything.
    @Test func aLongPressWithoutMovementNeverCountsAsATap() throws {
        var engine = try engine()
        engine.handle(pointer(.down, grip(1), 3))
        #expect(haptics(engine.frame(at: 3.06)) == [.medium])
        let pressed = engine.frame(at: 3.6)
        #expect(near(try #require(pressed.node(card: card(102))).rect.minY, restY(1) - 20, 0.5))
        #expect(haptics(pressed).isEmpty)
        engine.handle(pointer(.up, grip(1), 3.7))
        let released = engine.frame(at: 3.7)
        #expect(!haptics(released).contains(.selection))
        let settled = engine.frame(at: 5)
        #expect(settled.node("history") == nil)
        #expect(near(try #require(settled.node(card: card(101))).rect.minY, restY(0)))
        #expect(near(try #require(settled.node(card: card(102))).rect.minY, restY(1)))
        #expect(engine.deck.ids == (101...105).map { card(UInt64($0)) })
    }

    @Test func aCancelledDragSpringsBackAndASelectedCardDoesNotDrag() throws {
        var engine = try engine()
        let start = grip(1)
        engine.handle(pointer(.down, start, 3))
        engine.handle(pointer(.move, Point(x: start.x, y: start.y + 120), 3.1))
        #expect(near(try y(&engine, 102, at: 3.1), restY(1) - 20 + 120))
        engine.handle(pointer(.cancel, Point(x: start.x, y: start.y + 120), 3.2))
        #expect(engine.deck.ids == (101...105).map { card(UInt64($0)) })
        let returning = try y(&engine, 102, at: 3.3)
        #expect(restY(1) < returning && returning < restY(1) + 100)  // on its way back with `.spring()`
        #expect(near(try y(&engine, 102, at: 5), restY(1)))
        // With card 102 selected, pressing and dragging it changes nothing.
        try engine.perform(SceneAction("select", ["card": .string("102")]), at: 6)
        let selectedGrip = Point(x: 195, y: selectedTop + 50)
        engine.handle(pointer(.down, selectedGrip, 7))
        engine.handle(pointer(.move, Point(x: selectedGrip.x, y: selectedGrip.y - 150), 7.1))
        #expect(near(try y(&engine, 102, at: 7.1), selectedTop))
        engine.handle(pointer(.up, Point(x: selectedGrip.x, y: selectedGrip.y - 150), 7.2))
        #expect(engine.deck.ids == (101...105).map { card(UInt64($0)) })
        #expect(engine.frame(at: 8).node("history") != nil)
    }

    @Test func keysMoveTheFocusAndTheFocusedCard() throws {
        var engine = try engine()
        engine.handle(.key(KeyInput("up"), time: 3))
        #expect(engine.frame(at: 3).node(card: card(101))?.stroke != nil)
        engine.handle(.key(KeyInput("up"), time: 3.1))
        #expect(engine.frame(at: 3.1).node(card: card(102))?.stroke != nil)
        engine.handle(.key(KeyInput("up", shift: true), time: 3.2))
        #expect(engine.deck.ids == [101, 103, 102, 104, 105].map(card))
        engine.handle(.key(KeyInput("["), time: 3.3))
        engine.handle(.key(KeyInput("["), time: 3.4))
        engine.handle(.key(KeyInput("["), time: 3.5))  // already at the front: clamped, nothing changes
        #expect(engine.deck.ids == [102, 101, 103, 104, 105].map(card))
        #expect(near(try y(&engine, 102, at: 6), restY(0)))
        engine.handle(.key(KeyInput("enter"), time: 7))
        #expect(engine.frame(at: 8).node("history") != nil)
        engine.handle(.key(KeyInput("escape"), time: 9))
        #expect(engine.frame(at: 10).node("history") == nil)
    }

    @Test func actionsSelectDeselectAndMove() throws {
        var engine = try engine()
        try engine.perform(SceneAction("select", ["card": .string("104")]), at: 3)
        let selected = engine.frame(at: 4)
        #expect(near(try #require(selected.node(card: card(104))).rect.minY, selectedTop))
        #expect(near(try #require(selected.node(card: card(103))).rect.minY, selectedTop + 1400))
        try engine.perform(SceneAction("deselect"), at: 4)
        try engine.perform(SceneAction("move", ["card": .number(101), "to": .number(4)]), at: 5)
        #expect(engine.deck.ids == [102, 103, 104, 105, 101].map(card))
        #expect(near(try y(&engine, 101, at: 7), restY(4)))
        #expect(throws: SceneError.invalidArgument(action: "move", argument: "to", reason: "must be 0…4")) {
            try engine.perform(SceneAction("move", ["card": .number(101), "to": .number(5)]), at: 8)
        }
        #expect(throws: SceneError.unknownCard(card(999))) {
            try engine.perform(SceneAction("select", ["card": .string("999")]), at: 8)
        }
        #expect(throws: SceneError.unknownAction("shuffle")) { try engine.perform(SceneAction("shuffle"), at: 8) }
        #expect(engine.deck.ids == [102, 103, 104, 105, 101].map(card))
    }

    @Test func hugeDragsClampToTheDeckWithoutOverflow() throws {
        var engine = try engine()
        for (time, target, expected) in [
            (3.0, 1e300, [102, 101, 103, 104, 105]), (5.0, -1e300, [102, 103, 104, 105, 101]),
        ] {
            let start = grip(1)
            engine.handle(pointer(.down, start, time))
            engine.handle(pointer(.move, Point(x: start.x, y: start.y + 60), time + 0.1))
            engine.handle(pointer(.move, Point(x: start.x, y: target), time + 0.2))
            let frame = engine.frame(at: time + 0.2)
            #expect(frame.nodes.allSatisfy { $0.rect.origin.y.isFinite && $0.z.isFinite })
            engine.handle(pointer(.up, Point(x: start.x, y: target), time + 0.3))
            #expect(engine.deck.ids == expected.map { card(UInt64($0)) })
            let after = engine.frame(at: time + 0.5)
            #expect(after.nodes.allSatisfy { $0.rect.origin.y.isFinite && $0.opacity.isFinite })
            _ = engine.frame(at: time + 1.9)
        }
    }

    @Test func savedOrderRestoresLenientlyAndRefusesGarbage() throws {
        var scene = try WalletScene()
        try scene.restoreState(Array(#"{"order": ["105", "999", "105", "103"]}"#.utf8))
        #expect(scene.deck.ids == [105, 103, 101, 102, 104].map(card))
        #expect(throws: SceneError.self) { try scene.restoreState(Array(#"{"order": 5}"#.utf8)) }
        #expect(throws: SceneError.self) { try scene.restoreState(Array(#"{"order": [1]}"#.utf8)) }
        #expect(throws: SceneError.self) { try scene.restoreState(Array("not json".utf8)) }
        #expect(scene.deck.ids == [105, 103, 101, 102, 104].map(card))
        let encoded = try #require(scene.encodeState())
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""105","103","101","102","104""#))
    }

    @Test func aLandscapeViewportShrinksTheCardsSoTheStackFits() throws {
        var engine = Engine(scene: try WalletScene(), viewport: Size(width: 844, height: 390))
        let frame = engine.frame(at: 2)
        let front = try #require(frame.node(card: card(101))).rect
        let back = try #require(frame.node(card: card(105))).rect
        #expect(back.minY >= 77 && front.maxY <= 390)
        #expect(near(front.width / front.height, 85.60 / 53.98) && near(front.midX, 422))
        #expect(near(front.minY - back.minY, 200))
    }

    @Test func tinyViewportsProduceFiniteFrames() throws {
        var engine = Engine(scene: try WalletScene(), viewport: Size(width: 1, height: 1))
        try engine.perform(SceneAction("select", ["card": .string("103")]), at: 1)
        let frame = engine.frame(at: 1.2)
        for node in frame.nodes {
            #expect(node.rect.origin.x.isFinite && node.rect.origin.y.isFinite)
            #expect(node.rect.width.isFinite && node.rect.height.isFinite && node.rect.width >= 0)
        }
    }
}
