/// What a scene is opened with.
public struct SceneOptions: Sendable {
    /// The user's own deck, for scenes that take one (flashcards, deck).
    public var deck: Deck?
    /// A generated deck of this many cards (the deck scene; up to 1,000,000).
    public var cardCount: Int?

    public init(deck: Deck? = nil, cardCount: Int? = nil) {
        self.deck = deck
        self.cardCount = cardCount
    }
}

/// The scenes Cardistry plays, by name.
public enum SceneCatalog {
    /// Every scene, in menu order.
    public static var names: [String] { entries.map(\.name) }

    /// A one-line description of each scene.
    public static func summary(of name: String) -> String? { entries.first { $0.name == name }?.summary }

    /// Makes the scene `name`; `SceneError.unknownAction` naming the scene when there is none.
    public static func make(_ name: String, options: SceneOptions = SceneOptions()) throws(SceneError) -> any Scene {
        guard let entry = entries.first(where: { $0.name == name }) else {
            throw .invalidArgument(
                action: "open", argument: "scene", reason: "'\(name)' is not one of \(names.joined(separator: ", "))")
        }
        return try entry.make(options)
    }

    struct Entry: Sendable {
        var name: String
        var summary: String
        var make: @Sendable (SceneOptions) throws(SceneError) -> any Scene
    }

    static let entries: [Entry] = [
        Entry(name: "scores", summary: "student scores that re-rank with animation (seed 000)") {
            options throws(SceneError) in
            try ScoresScene(options: options)
        },
        Entry(name: "flashcards", summary: "swipe-away flashcards (seed 003)") { options throws(SceneError) in
            try FlashcardsScene(options: options)
        },
        Entry(name: "wallet", summary: "a wallet of payment cards to select and reorder (seed 002)") {
            options throws(SceneError) in
            try WalletScene(options: options)
        },
        Entry(name: "hero", summary: "item lines that fly into a details list (seed 001)") {
            options throws(SceneError) in
            try HeroScene(options: options)
        },
        Entry(name: "deck", summary: "stacked cards: fan, expand, reorder, bounce; up to 1M cards (seed 004)") {
            options throws(SceneError) in
            try DeckScene(options: options)
        },
    ]
}
