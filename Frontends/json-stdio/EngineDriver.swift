import CardEngine

extension Engine: SceneDriver {
    public var sceneName: String { scene.name }
    public var title: String { scene.descriptor.title }
    public var actions: [ActionInfo] { scene.descriptor.actions }
    public var keyMap: [KeyHelp] { scene.descriptor.keyHelp }
    public var deckIDs: [CardID] { scene.deckIDs }
    public func deckCards(_ range: Range<Int>) -> [Card] { scene.deckCards(range) }

    public mutating func pointer(_ event: PointerEvent) { handle(.pointer(event)) }
    public mutating func key(_ key: KeyInput, at time: Double) -> Bool { handle(.key(key, time: time)) }
    public mutating func resize(_ viewport: Size, at time: Double) { handle(.resize(viewport, time: time)) }
}

/// A scene catalogue as a `SceneProvider`; scenes opened with `persistState` keep their state in `store` (when
/// there is one), others start fresh so a session is reproducible.
public struct CatalogSceneProvider: SceneProvider {
    /// The scenes the server offers (handed to the front end when it is registered).
    public let catalog: SceneCatalog
    /// Where scene state is kept, if anywhere.
    public let store: (any DeckStore)?

    /// A provider of `catalog`'s scenes, keeping their state in `store`.
    public init(catalog: SceneCatalog, store: (any DeckStore)?) {
        self.catalog = catalog
        self.store = store
    }

    public var names: [String] { catalog.names }
    public var descriptors: [SceneDescriptor] { catalog.descriptors }

    public func open(
        _ name: String, deck: Deck?, cardCount: Int?, persistState: Bool, viewport: Size, startTime: Double
    ) throws(SceneError) -> any SceneDriver {
        let scene = try catalog.make(name, options: SceneOptions(deck: deck, cardCount: cardCount))
        return Engine(scene: scene, viewport: viewport, store: persistState ? store : nil, startTime: startTime)
    }
}
