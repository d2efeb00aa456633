import CardEngine
import CardGeometry
import CardModels
import CardPersistence
import CardScenes
import Foundation
import Testing

private let viewport = Size(width: 844, height: 390)

@Suite struct FlashcardsSceneTests {
    func engine(store: (any DeckStore)? = nil) throws -> Engine {
        if let store { return Engine.persisted(try FlashcardsScene(), viewport: viewport, store: store) }
        return Engine(scene: try FlashcardsScene(), viewport: viewport)
    }

    func topCard(_ frame: Frame) throws -> FrameNode {
        try #require(frame.nodes.filter { $0.role == .card }.max { $0.z < $1.z })
    }

    @Test func stackOffsetsPutTheLastCardOnTop() throws {
        var engine = try engine()
        let frame = engine.frame(at: 0)
        let cards = frame.nodes.filter { $0.role == .card }
        let count = SeedData.flashcards.count
        #expect(cards.count == count)
        // Position p of n is offset (n − p)·10: consecutive cards differ by −10 in y, and the last is on top.
        for (position, card) in SeedData.flashcards.enumerated() {
            let node = try #require(frame.node(card: card.id))
            let next = position + 1 < count ? frame.node(card: SeedData.flashcards[position + 1].id) : nil
            if let next { #expect(abs(node.rect.minY - next.rect.minY - 10) < 1e-9) }
            #expect(node.z == Double(position))
            #expect(node.cornerRadius == 25 && node.rect.width == 450 && node.rect.height == 250)
        }
        #expect(try topCard(frame).card == SeedData.flashcards.last?.id)
    }

    @Test func tapRevealsAndHidesTheAnswer() throws {
        var engine = try engine()
        let top = try topCard(engine.frame(at: 0))
        pointer(&engine, .down, top.rect.midX, top.rect.midY, at: 1)
        pointer(&engine, .up, top.rect.midX, top.rect.midY, at: 1.05)
        let id = try #require(top.card)
        #expect(engine.frame(at: 1.1).node(NodeID("card.\(id)").child("answer")) != nil)
        pointer(&engine, .down, top.rect.midX, top.rect.midY, at: 2)
        pointer(&engine, .up, top.rect.midX, top.rect.midY, at: 2.05)
        #expect(engine.frame(at: 2.5).node(NodeID("card.\(id)").child("answer")) == nil)
    }

    @Test func dragFollowsTheSeedFormulas() throws {
        var engine = try engine()
        let top = try topCard(engine.frame(at: 0))
        let start = Point(x: top.rect.midX, y: top.rect.midY)
        drag(&engine, from: start, by: Vector(dx: 60, dy: 30), at: 1, lift: false)
        let frame = engine.frame(at: 1.2)
        let node = try #require(frame.node(top.id))
        #expect(abs(node.rotation - 60.0 / 5) < 1e-9)  // width/5 degrees
        #expect(abs(node.rect.minX - (top.rect.minX + 60 * 5)) < 1e-9)  // x offset = width·5
        #expect(node.rect.minY == top.rect.minY)  // y does not follow the drag
        #expect(abs(node.opacity - (2 - 60.0 / 50)) < 1e-9)  // 2 − |width/50|
    }

    @Test func draggedPastOneHundredIsRemovedAndTheOthersSlideUp() throws {
        var engine = try engine()
        let first = engine.frame(at: 0)
        let top = try topCard(first)
        let below = try #require(first.node(card: SeedData.flashcards[SeedData.flashcards.count - 2].id))
        let end = drag(&engine, from: Point(x: top.rect.midX, y: top.rect.midY), by: Vector(dx: 120, dy: 0), at: 1)
        #expect(!engine.deck.contains(id: try #require(top.card)))
        let during = engine.frame(at: end + 0.05)
        let settled = engine.frame(at: end + 3)
        #expect(settled.node(top.id) == nil)
        // The remaining cards slide: the next card moves from its old offset to the new top position.
        let moving = try #require(during.node(below.id)).rect.minY
        let final = try #require(settled.node(below.id)).rect.minY
        #expect(final != below.rect.minY)
        #expect(min(below.rect.minY, final) <= moving && moving <= max(below.rect.minY, final))
    }

    /// A card dragged 80 points (under the threshold) goes back at once: the seed sets `offset = .zero` outside any
    /// animation (issue 27; it sprang back).
    @Test func draggedEightySnapsBack() throws {
        var engine = try engine()
        let top = try topCard(engine.frame(at: 0))
        let end = drag(&engine, from: Point(x: top.rect.midX, y: top.rect.midY), by: Vector(dx: 80, dy: 0), at: 1)
        #expect(engine.deck.contains(id: try #require(top.card)))
        let next = try #require(engine.frame(at: end + 1.0 / 60).node(top.id))
        #expect(abs(next.rect.minX - top.rect.minX) < 1e-9, "back at once: \(next.rect.minX) vs \(top.rect.minX)")
        #expect(next.opacity == 1 && next.rotation == 0)
    }

    @Test func emptyStackOffersARestartAndRemovalsPersist() throws {
        let store = InMemoryStore()
        var engine = try engine(store: store)
        for index in 0..<SeedData.flashcards.count {
            try engine.perform(
                SceneAction("swipe", ["direction": .string(index % 2 == 0 ? "left" : "right")]), at: Double(index))
        }
        #expect(engine.deck.isEmpty)
        let frame = engine.frame(at: 40)
        #expect(frame.node("restart")?.plainText == "Start Again")
        #expect(throws: SceneError.invalidState("the stack is empty; restart it")) {
            try engine.perform(SceneAction("reveal"), at: 41)
        }
        // A new engine on the same store starts with the stack as it was left.
        #expect(engine.save(to: store) == nil)
        var reopened = try self.engine(store: store)
        #expect(reopened.deck.isEmpty)
        try reopened.perform(SceneAction("restart"), at: 1)
        #expect(reopened.deck.count == SeedData.flashcards.count)
        #expect(reopened.save(to: store) == nil)
        let again = try self.engine(store: store)
        #expect(again.deck.count == SeedData.flashcards.count)
    }

    @Test func aUserDeckMustBeFlashcards() {
        #expect(throws: SceneError.self) { try FlashcardsScene(options: SceneOptions(deck: SeedData.students)) }
    }

    /// The seed's threshold, through the scene's own drag: released beyond 100 points the top card is swiped
    /// away; at 100 points or less it springs back. Dragged with real pointer events, as a user would.
    @Test(arguments: [(99.0, false), (100.0, false), (101.0, true), (-101.0, true), (-60.0, false)])
    func aDragPastOneHundredPointsSwipesTheTopCardAway(distance: Double, swiped: Bool) throws {
        var engine = try engine()
        let top = try topCard(engine.frame(at: 0))
        let count = engine.deck.count
        drag(&engine, from: Point(x: top.rect.midX, y: top.rect.midY), by: Vector(dx: distance, dy: 0), at: 1)
        _ = engine.frame(at: 3)
        #expect(engine.deck.count == (swiped ? count - 1 : count))
        #expect(engine.deck.contains { $0.id == top.card } == !swiped)
        if !swiped { #expect(try topCard(engine.frame(at: 3)).rect == top.rect) }
    }
}

extension FlashcardsSceneTests {
    /// Seed 003's `stacked(at:in:)` offsets a card by (total − position)·10 inside a fixed frame: after a removal
    /// every other card slides up 10 points. The stack was re-centred on its remaining height, so they moved 5.
    @Test func afterARemovalTheOtherCardsSlideUpTenPoints() throws {
        var engine = try engine()
        let before = engine.frame(at: 0)
        _ = try engine.perform(SceneAction("swipe", ["direction": .string("left")]), at: 1)
        let after = engine.frame(at: 5)
        for card in SeedData.flashcards.dropLast() {
            let old = try #require(before.node(card: card.id))
            let new = try #require(after.node(card: card.id))
            #expect(abs(old.rect.minY - new.rect.minY - 10) < 1e-9, "\(card.id): \(old.rect.minY) → \(new.rect.minY)")
        }
    }
}
