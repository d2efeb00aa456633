import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardSceneFormat
import CardScenes
import Foundation
import Testing

/// The repository's root, found from this file (Tests/SceneEquivalenceTests/…).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

func loadDescription(_ path: String) throws -> SceneDescription {
    let bytes = try Data(contentsOf: repositoryRoot.appendingPathComponent(path))
    return try SceneDescription.load(bytes: Array(bytes))
}

/// The harness itself: it passes a scene against itself and catches a scene that differs.
@Suite struct EquivalenceHarnessTests {
    @Test func aSceneIsEquivalentToItself() {
        let harness = EquivalenceHarness(
            makeReference: { try FlashcardsScene() }, makeCandidate: { try FlashcardsScene() })
        let generator = EquivalenceScriptGenerator(
            descriptor: FlashcardsScene.descriptor, cards: SeedData.flashcards.ids)
        let report = harness.run(generator.sessions(20, seed: 52))
        #expect(report.passed, "\(report)")
        #expect(report.framesCompared > 20 * 60)
        #expect(report.maxGeometry == 0 && report.maxOpacity == 0)
    }

    @Test func aDifferentSceneIsCaught() throws {
        let board = try loadDescription("scenes/board.json")
        let harness = EquivalenceHarness(
            makeReference: { try FlashcardsScene() }, makeCandidate: { try DescribedScene(description: board) })
        let generator = EquivalenceScriptGenerator(
            descriptor: FlashcardsScene.descriptor, cards: SeedData.flashcards.ids)
        let report = harness.run(generator.sessions(5, seed: 52))
        #expect(report.failedSessions == 5)
    }

    @Test func theSameSeedGivesTheSameSessions() {
        let generator = EquivalenceScriptGenerator(
            descriptor: FlashcardsScene.descriptor, cards: SeedData.flashcards.ids)
        #expect(generator.sessions(10, seed: 7) == generator.sessions(10, seed: 7))
        #expect(generator.sessions(10, seed: 7) != generator.sessions(10, seed: 8))
    }
}

/// scenes/flashcards.json against the Swift flashcards scene (seed 003).
@Suite struct FlashcardsEquivalenceTests {
    let description: SceneDescription

    init() throws { description = try loadDescription("scenes/flashcards.json") }

    var harness: EquivalenceHarness {
        let description = description
        return EquivalenceHarness(
            makeReference: { try FlashcardsScene() }, makeCandidate: { try DescribedScene(description: description) })
    }

    @Test func theDescriptorIsTheSeeds() {
        let seed = FlashcardsScene.descriptor
        let described = description.descriptor
        #expect(described.name == seed.name)
        #expect(described.title == seed.title)
        #expect(described.keyHelp == seed.keyHelp)
        #expect(described.actions == seed.actions)
    }

    @Test func handWrittenSessions() {
        let viewport = Size(width: 844, height: 390)
        let top = Aim.node(rank: 0, fx: 0.5, fy: 0.5)
        var swipes: [ScriptStep] = []
        for index in 0..<10 {
            swipes.append(
                .drag(
                    top, by: Vector(dx: index.isMultiple(of: 2) ? 160 : -160, dy: 10), duration: 0.4, steps: 8,
                    time: 0.5 + Double(index)))
        }
        let scripts = [
            EquivalenceScript(
                viewport: viewport,
                steps: [
                    .tap(top, time: 0.2), .tap(top, time: 1),
                    .drag(top, by: Vector(dx: 60, dy: 0), duration: 0.5, steps: 6, time: 1.5),
                    .drag(top, by: Vector(dx: -150, dy: 20), duration: 0.3, steps: 6, time: 2.5),
                    .key(KeyInput("space"), time: 3.5), .key(KeyInput("left"), time: 4),
                    .key(KeyInput("right"), time: 4.5),
                ]),
            EquivalenceScript(
                viewport: viewport, steps: swipes + [.key(KeyInput("r"), time: 11), .tap(top, time: 12)]),
            EquivalenceScript(
                viewport: Size(width: 390, height: 844),
                steps: [
                    .resize(Size(width: 320, height: 240), time: 0.3), .tap(top, time: 0.6),
                    .action(SceneAction("swipe", ["direction": .string("left")]), time: 1),
                    .action(SceneAction("reveal"), time: 1.5), .longPress(top, hold: 0.8, time: 2),
                    .wheel(top, dx: 0, dy: 40, time: 3),
                ]),
        ]
        let report = harness.run(scripts)
        #expect(report.passed, "\(report)")
    }

    @Test func twoHundredRandomSessions() {
        let generator = EquivalenceScriptGenerator(
            descriptor: FlashcardsScene.descriptor, cards: SeedData.flashcards.ids)
        let report = harness.run(generator.sessions(200, seed: 52))
        print("flashcards equivalence: \(report)")
        #expect(report.passed, "\(report)")
        #expect(report.sessions == 200)
        // The sessions reach what the scene does: reveals, swipes, snaps back, restarts.
        #expect(report.haptics > 500 && report.deckChanges > 200, "\(report)")
    }

    @Test func withReducedMotion() {
        var harness = harness
        harness.reducesMotion = true
        let generator = EquivalenceScriptGenerator(
            descriptor: FlashcardsScene.descriptor, cards: SeedData.flashcards.ids)
        let report = harness.run(generator.sessions(40, seed: 53))
        #expect(report.passed, "\(report)")
    }

    /// A host's own decks: long prompts and answers that wrap and are cut to the lines that fit, a single card,
    /// 40 cards (the stack's frame centred for all of them).
    @Test(arguments: [1, 3, 40])
    func aHostsOwnDeck(count: Int) throws {
        let words = "the quick brown fox jumps over the lazy dog while the cards fly away to either side".split(
            separator: " ")
        let cards = (0..<count).map { index in
            let prompt = words.prefix(3 + index * 7 % words.count).joined(separator: " ") + "?"
            let answer = words.suffix(1 + index * 5 % words.count).joined(separator: " ")
            return Card(
                id: CardID(UInt64(900 + index)), title: prompt, color: .white, sortOrder: index,
                payload: .flashcard(Flashcard(prompt: prompt, answer: answer)))
        }
        let deck = try Deck(cards)
        let description = description
        let harness = EquivalenceHarness(
            makeReference: { try FlashcardsScene(options: SceneOptions(deck: deck)) },
            makeCandidate: { try DescribedScene(description: description, options: SceneOptions(deck: deck)) })
        let generator = EquivalenceScriptGenerator(descriptor: FlashcardsScene.descriptor, cards: deck.ids)
        let report = harness.run(generator.sessions(40, seed: 520 + UInt64(count)))
        #expect(report.passed, "\(report)")
    }

    /// A description one detail away from the seed fails the harness: each edit of the file is caught.
    @Test(arguments: [
        ("abs(tx) > 100", "abs(tx) > 120"),  // the removal threshold
        ("2 - abs(tx / 50)", "2 - abs(tx / 45)"),  // the fade while dragging
        ("\"haptic\": \"soft\"", "\"haptic\": \"rigid\""),  // the snap-back haptic
        ("\"spacing\": 8", "\"spacing\": 9"),  // the text stack's spacing
        ("(n - i) * 10", "(n - i) * 10.6"),  // the stack's offsets, 0.6 pt a card
        ("\"mayOverflow\": \"tx != 0 || ty != 0\"", "\"mayOverflow\": false"),  // the overflow hint while dragged
    ])
    func aDescriptionOneEditAwayFails(original: String, edited: String) throws {
        let text = try String(
            contentsOf: repositoryRoot.appendingPathComponent("scenes/flashcards.json"), encoding: .utf8)
        #expect(text.contains(original))
        let mutant = try SceneDescription.load(bytes: Array(text.replacingOccurrences(of: original, with: edited).utf8))
        let harness = EquivalenceHarness(
            makeReference: { try FlashcardsScene() }, makeCandidate: { try DescribedScene(description: mutant) })
        let generator = EquivalenceScriptGenerator(
            descriptor: FlashcardsScene.descriptor, cards: SeedData.flashcards.ids)
        let report = harness.run(generator.sessions(60, seed: 52))
        #expect(!report.passed, "\(original) → \(edited) went unnoticed")
    }
}

/// scenes/drafts/wallet.json, a first cut, against the Swift wallet scene (seed 002): the harness reports what it does not
/// yet say (see docs/scenes.md, "Extensions the seeds needed"). A known issue until the description is equal.
@Suite struct WalletEquivalenceTests {
    @Test func theFirstCutDiffersWhereTheFormatCannotYetSayTheSeed() throws {
        let description = try loadDescription("scenes/drafts/wallet.json")
        var harness = EquivalenceHarness(
            makeReference: { try WalletScene() }, makeCandidate: { try DescribedScene(description: description) })
        // Every difference counted, so the report says how far each part is from the seed.
        harness.differencesPerSession = .max
        let generator = EquivalenceScriptGenerator(descriptor: WalletScene.descriptor, cards: SeedData.wallet.ids)
        // 20 sessions, not 200: the first cut fails in every one, and the counts say how far each part is.
        let report = harness.run(generator.sessions(20, seed: 52))
        print("wallet equivalence: \(report)")
        for (kind, first) in report.firstOfKind.sorted(by: { $0.key < $1.key }) {
            print("wallet, first \(kind) difference: \(first.prefix(400))")
        }
        withKnownIssue("the wallet's launch, press-and-drag reorder, history and card text are not described yet") {
            #expect(report.passed, "\(report)")
        }
    }
}
