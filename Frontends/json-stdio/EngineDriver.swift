import CardCells
import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardPersistence

extension Engine: SceneDriver {
    public var sceneName: String { scene.name }
    public var title: String { scene.descriptor.title }
    public var actions: [ActionInfo] { scene.descriptor.actions }
    public var keyMap: [KeyHelp] { scene.descriptor.keyHelp }
    public var deckIDs: [CardID] { scene.deckIDs }
    public var deckCount: Int { scene.deckCount }
    public func deckCards(_ range: Range<Int>) -> [Card] { scene.deckCards(range) }

    public mutating func pointer(_ event: PointerEvent) { handle(.pointer(event)) }
    public mutating func key(_ key: KeyInput, at time: Double) -> Bool { handle(.key(key, time: time)) }
    public mutating func resize(_ viewport: Size, at time: Double) { handle(.resize(viewport, time: time)) }
    public func wantsFirstCardFocus(in viewport: Size) -> Bool { FirstFocus.wantsTab(scene, viewport: viewport) }
}

/// A scene catalogue as a `SceneProvider`; scenes opened with `persistState` restore their state from `store`
/// (when there is one) and hand their changes to the server's saver; others start fresh so a session is
/// reproducible.
public struct CatalogSceneProvider: SceneProvider {
    /// The scenes the server offers (handed to the front end when it is registered).
    public let catalog: SceneCatalog
    /// Where scene state is kept, if anywhere.
    public let store: (any DeckStore)?
    /// The session's saver: a state is read through it, so the session sees its own latest state, written or not.
    public let saver: StateSaver?

    /// A provider of `catalog`'s scenes, keeping their state in `store`, read through `saver` when there is one.
    public init(catalog: SceneCatalog, store: (any DeckStore)?, saver: StateSaver? = nil) {
        self.catalog = catalog
        self.store = store
        self.saver = saver
    }

    public var names: [String] { catalog.names }
    public var descriptors: [SceneDescriptor] { catalog.descriptors }

    /// The same provider over the catalogue with `entry` added or replaced.
    public func defining(_ entry: SceneCatalog.Entry) -> (any SceneProvider)? {
        CatalogSceneProvider(catalog: catalog.replacing(entry), store: store, saver: saver)
    }

    public func open(
        _ name: String, options: SceneOptions, persistState: Bool, viewport: Size, startTime: Double
    ) throws(SceneError) -> OpenedScene {
        try open(
            name, options: options, persistState: persistState, viewport: viewport, startTime: startTime,
            textMeasurer: nil)
    }

    public func open(
        _ name: String, options: SceneOptions, persistState: Bool, viewport: Size, startTime: Double,
        textMeasurer: (any TextMeasurer)?
    ) throws(SceneError) -> OpenedScene {
        let scene = try catalog.make(name, options: options)
        let measurer = textMeasurer ?? StandardTextMeasurer()
        guard persistState, let store, let stateName = scene.stateName else {
            return OpenedScene(
                driver: Engine(
                    scene: scene, viewport: viewport, startTime: startTime, textMeasurer: measurer,
                    reducesMotion: options.reducesMotion))
        }
        let key = StateKey.name(stateName, deck: options.stateIdentity)
        let loaded = saver?.load(key) ?? LoadedState(key, from: store)
        let engine = Engine(
            scene: scene, viewport: viewport, savedState: loaded, startTime: startTime, textMeasurer: measurer,
            reducesMotion: options.reducesMotion)
        return OpenedScene(
            driver: engine, stateKey: key, journalSequence: loaded.sequence,
            stateError: loaded.error?.description ?? engine.stateError?.description, setAside: loaded.setAside)
    }
}

/// A scene just opened, with what the server needs to save its state.
public struct OpenedScene: Sendable {
    /// The scene, driven by the server.
    public var driver: any SceneDriver
    /// The store name its state is saved under (nil: it is not saved).
    public var stateKey: String?
    /// The last journal sequence on disk (the saver continues after it).
    public var journalSequence = 0
    /// Why the saved state could not be read or used (the scene then starts fresh).
    public var stateError: String?
    /// Where a damaged journal of the saved state was set aside (the scene goes on from the records before it).
    public var setAside: String?

    /// An opened scene; see each property.
    public init(
        driver: any SceneDriver, stateKey: String? = nil, journalSequence: Int = 0, stateError: String? = nil,
        setAside: String? = nil
    ) {
        self.driver = driver
        self.stateKey = stateKey
        self.journalSequence = journalSequence
        self.stateError = stateError
        self.setAside = setAside
    }
}
