import CardEngine

extension Engine: SceneDriver {
    public var sceneName: String { scene.name }
    public var title: String { scene.title }
    public var actions: [ActionInfo] { scene.actions }

    public mutating func pointer(_ event: PointerEvent) { handle(.pointer(event)) }
    public mutating func key(_ key: KeyInput, at time: Double) { handle(.key(key, time: time)) }
    public mutating func resize(_ viewport: Size, at time: Double) { handle(.resize(viewport, time: time)) }
}

/// The engine's scene catalogue as a `SceneProvider`; scenes opened with `persistState` keep their state in
/// `store` (when there is one), others start fresh so a session is reproducible.
public struct CatalogSceneProvider: SceneProvider {
    public let store: (any DeckStore)?

    public init(store: (any DeckStore)?) {
        self.store = store
    }

    public var names: [String] { SceneCatalog.names }

    public func open(
        _ name: String, deck: Deck?, cardCount: Int?, persistState: Bool, viewport: Size, startTime: Double
    ) throws(SceneError) -> any SceneDriver {
        let scene = try SceneCatalog.make(name, options: SceneOptions(deck: deck, cardCount: cardCount))
        return Engine(scene: scene, viewport: viewport, store: persistState ? store : nil, startTime: startTime)
    }
}
