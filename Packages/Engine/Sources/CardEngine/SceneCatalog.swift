import CardJSON
import CardModels

/// What a scene is opened with.
public struct SceneOptions: Sendable {
    /// The user's own deck, for scenes that take one (`SceneDescriptor.takesDeck`).
    public var deck: Deck?
    /// A generated deck of this many cards, for scenes that take a count (`SceneDescriptor.takesCardCount`).
    public var cardCount: Int?
    /// Which deck this is, for keeping its state apart from other decks' (`StateKey`): a file's content hash, a
    /// stored deck's name, a generated deck's size. Nil: the seed's data (or `cardCount`'s generated deck).
    public var deckIdentity: String?
    /// Open the scene's engine with reduced motion (`Engine.reducesMotion`): a front end's setting, carried with
    /// the scene's other options to whatever creates the engine.
    public var reducesMotion = false

    /// Options with the user's own `deck` or a generated deck of `cardCount` cards; both nil: the seed's data.
    public init(deck: Deck? = nil, cardCount: Int? = nil, deckIdentity: String? = nil) {
        self.deck = deck
        self.cardCount = cardCount
        self.deckIdentity = deckIdentity
    }

    /// The deck's identity for its state: `deckIdentity`, else the generated deck's size, else nil (the seed).
    public var stateIdentity: String? {
        deckIdentity ?? cardCount.map(StateKey.generated(count:))
    }
}

/// How a scene's text sits on its cards when a front end has less room than the scene's points (a terminal).
public enum TextPlacement: String, Sendable, Hashable {
    /// Text is centred on its node, as laid out.
    case centered
    /// Cards overlap in a stack, so only each card's top edge is visible: a card's text goes on its top row.
    case top
}

/// Everything a front end or a host needs to know about a scene without knowing the scene: its name (written once,
/// here), what it shows, the seed app it reproduces, the room it needs, its keys and its actions.
///
/// Front ends build their home screens, help, scaling and text placement from descriptors alone; no front end
/// names a scene.
public struct SceneDescriptor: Sendable, Hashable {
    /// The catalogue name, as typed on the command line and sent by hosts (`scene.open`).
    public var name: String
    /// A human title for status lines.
    public var title: String
    /// One line for menus and `scene.list`.
    public var summary: String
    /// The seed app the scene reproduces, as "NNN Name".
    public var seed: String
    /// The height in points the layout needs to show everything; a front end with less room (a terminal) scales
    /// the scene down until it fits. Nil: the layout adapts to any height (it scrolls).
    public var designHeight: Double?
    /// Where text goes on a card when a front end cannot show every point (see `TextPlacement`).
    public var textPlacement: TextPlacement
    /// Whether the scene can be opened with the user's own deck (`SceneOptions.deck`).
    public var takesDeck: Bool
    /// Whether the scene can be opened with a generated deck of a given size (`SceneOptions.cardCount`).
    public var takesCardCount: Bool
    /// The keys the scene understands, for help screens.
    public var keyHelp: [KeyHelp]
    /// The semantic actions the scene understands (for hosts that draw their own widgets).
    public var actions: [ActionInfo]
    /// What the pointer does in this scene, for help screens, beside the keys: a gesture as a person reads it
    /// (`drag the bar`) and what it does (`choose a test`). `names` is empty: these are not keys.
    public var pointerHelp: [KeyHelp] = []
    /// What changed in the scene's frames for the same inputs since its first version, oldest first, one sentence
    /// each (append only). A recording names the look it was made with (`InputLog.look`); `cardistry replay` of a
    /// recording made before a change replays its inputs without checking its frame digests, and says which
    /// changes came since. Append one whenever the scene draws differently, or its old recordings fail to replay.
    public var lookChanges: [String] = []
    /// The description a scene described as data was made from (docs/scenes.md), nil for a scene written in
    /// Swift. A recording's header carries it (`RecordingSetup.sceneDefinition`), so the recording replays without
    /// the file it came from.
    public var definition: JSONValue?

    /// The scene's look revision: 1, plus one for each of `lookChanges`.
    public var lookRevision: Int { lookChanges.count + 1 }

    /// This descriptor with `help` as its `pointerHelp`.
    public func explainingPointer(_ help: [KeyHelp]) -> SceneDescriptor {
        var descriptor = self
        descriptor.pointerHelp = help
        return descriptor
    }

    /// This descriptor with `change` appended to its `lookChanges`.
    public func changingLook(_ change: String) -> SceneDescriptor {
        var descriptor = self
        descriptor.lookChanges.append(change)
        return descriptor
    }

    /// A descriptor; see each property.
    public init(
        name: String, title: String, summary: String, seed: String, designHeight: Double? = nil,
        textPlacement: TextPlacement = .centered, takesDeck: Bool = false, takesCardCount: Bool = false,
        keyHelp: [KeyHelp] = [], actions: [ActionInfo] = []
    ) {
        self.name = name
        self.title = title
        self.summary = summary
        self.seed = seed
        self.designHeight = designHeight
        self.textPlacement = textPlacement
        self.takesDeck = takesDeck
        self.takesCardCount = takesCardCount
        self.keyHelp = keyHelp
        self.actions = actions
    }

    /// The summary with the number of the seed it reproduces: "cards that fan out (seed 007)".
    public var menuSummary: String {
        let number = seed.split(separator: " ").first.map(String.init) ?? seed
        return "\(summary) (seed \(number))"
    }
}

/// A list of scenes a front end can open, by name: each scene's descriptor and a way to make it.
///
/// The engine defines the shape; the scenes' package provides the catalogue of Cardistry's scenes
/// (`SceneCatalog.standard` in CardScenes), and the command line hands it to every front end it registers. Tests
/// and embedders can make a catalogue of their own scenes.
public struct SceneCatalog: Sendable {
    /// One scene of a catalogue.
    public struct Entry: Sendable {
        /// What the scene is.
        public var descriptor: SceneDescriptor
        /// Makes the scene with the given options; throws `SceneError` for options it cannot use.
        public var make: @Sendable (SceneOptions) throws(SceneError) -> any Scene

        /// An entry for a scene type: its static descriptor and its `init(options:)`.
        public init<S: Scene>(_ type: S.Type, make: @escaping @Sendable (SceneOptions) throws(SceneError) -> S) {
            self.descriptor = S.descriptor
            self.make = { options throws(SceneError) in try make(options) }
        }

        /// An entry whose descriptor is given (a scene played from data: one type, a descriptor per scene); the
        /// scenes `make` returns must answer `descriptor` with it.
        public init(
            descriptor: SceneDescriptor, make: @escaping @Sendable (SceneOptions) throws(SceneError) -> any Scene
        ) {
            self.descriptor = descriptor
            self.make = make
        }
    }

    /// The entries, in menu order.
    public let entries: [Entry]

    /// This catalogue with `entry` added at the end, or in place of the entry of the same name (defining a scene
    /// again replaces it).
    public func replacing(_ entry: Entry) -> SceneCatalog {
        var entries = self.entries
        if let index = entries.firstIndex(where: { $0.descriptor.name == entry.descriptor.name }) {
            entries[index] = entry
        } else {
            entries.append(entry)
        }
        return SceneCatalog(entries)
    }

    /// A catalogue of `entries`, in menu order. Names must be unique (a later duplicate is ignored).
    public init(_ entries: [Entry]) {
        var seen: Set<String> = []
        self.entries = entries.filter { seen.insert($0.descriptor.name).inserted }
    }

    /// Every scene's name, in menu order.
    public var names: [String] { entries.map(\.descriptor.name) }

    /// Every scene's descriptor, in menu order.
    public var descriptors: [SceneDescriptor] { entries.map(\.descriptor) }

    /// The descriptor of the scene `name`, if the catalogue has it. O(scenes).
    public func descriptor(named name: String) -> SceneDescriptor? {
        entries.first { $0.descriptor.name == name }?.descriptor
    }

    /// Makes the scene `name`; `SceneError.invalidArgument` naming the scene when there is none.
    public func make(_ name: String, options: SceneOptions = SceneOptions()) throws(SceneError) -> any Scene {
        guard let entry = entries.first(where: { $0.descriptor.name == name }) else {
            throw .invalidArgument(
                action: "open", argument: "scene", reason: "'\(name)' is not one of \(names.joined(separator: ", "))")
        }
        return try entry.make(options)
    }
}
