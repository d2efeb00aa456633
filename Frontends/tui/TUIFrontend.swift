import CardCells
import CardEngine
import CardFrontend
import CardJSON
import CardModels
import CardPersistence
import Foundation

/// `cardistry tui`: the ANSI terminal front end (also what `cardistry` with no arguments opens on a terminal).
public struct TUIFrontend: Frontend {
    /// The scenes the home screen offers.
    public let catalog: SceneCatalog
    /// Loads `--scene-file` descriptions (nil: the option is refused).
    public let definer: SceneDefiner?

    /// The terminal front end playing `catalog`'s scenes.
    public init(catalog: SceneCatalog, definer: SceneDefiner? = nil) {
        self.catalog = catalog
        self.definer = definer
    }

    public var name: String { "tui" }
    public var summary: String { "play the scenes in the terminal, with the mouse and the keyboard" }
    public var usage: String {
        """
        Usage: cardistry tui [[--scene] S | --scene-file F] [--deck FILE | --cards N] [--fps N] [--ascii] [--bell] [--store DIR] [--record FILE]
                     [--slow-motion N] [--screen-reader] [--show-cursor] [--reduce-motion]

        Opens a home screen listing the scenes (or scene S at once). Every scene is playable with the mouse
        (click = tap, hold = long press, drag, wheel = scroll and pull) and the keyboard (`?` shows the keys,
        q or Esc goes back, Ctrl-C quits). Needs a terminal on standard input and output.

        Options:
          [--scene] S    open scene S: \(catalog.names.joined(separator: ", "))
          --scene-file F open the scene described in file F (docs/scenes.md); the descriptions in the
                         store's scenes/ folder are on the home screen
          --deck FILE    the deck for scenes that take one: a deck JSON file, or TSV lines prompt<TAB>answer
          --cards N      a generated deck of N cards (the deck scene; up to 1000000)
          --fps N        frames per second while something moves (1–240, default 60); idle screens draw nothing
          --ascii        draw with ASCII only (no box-drawing or other ambiguous-width characters)
          --bell         ring the terminal bell on haptic feedback (besides the visual pulse)
          --store DIR    where decks and scene state are kept (default: the standard store location)
          --record FILE  record the session to FILE as it happens (a line per input and frame, flushed);
                         `cardistry replay FILE` replays it and checks every frame
          --slow-motion N
                         run the app's clock N times slower (1–100) to watch motion frame by frame; gestures
                         are timed on that clock too, so a drag reads N times as fast
          --screen-reader
                         a linear mode for screen readers and braille displays (also CARDISTRY_SCREEN_READER=1):
                         nothing is drawn; each change is said once as a line ("Travel, card 4 of 12,
                         collapsed"), with no escape sequences; keys only
          --show-cursor  show the terminal's cursor, which rests on the focused item, for braille displays
                         and screen readers that follow it (also CARDISTRY_SHOW_CURSOR=1); it is hidden
                         by default
          --reduce-motion
                         replace movement by short cross-fades (as iOS's Reduce Motion): a moved card fades
                         in at its new place; what follows the mouse still follows it

        Colours: 24-bit when COLORTERM is truecolor or 24bit, 256 when TERM ends in 256color, else 16;
        none when NO_COLOR is set (focus, bars and the status line then show by glyphs and reverse video).
        TERM=dumb (or no TERM) is refused with exit status 2. A locale that is not UTF-8 (LC_ALL, LC_CTYPE,
        LANG) draws ASCII only, text transliterated.

        """
    }

    /// Whether `term` names a terminal without cursor addressing: unset or empty, `dumb` (terminfo's entry for a
    /// printing terminal: no `cup`), `unknown`.
    static func lacksCursorAddressing(term: String) -> Bool {
        ["", "dumb", "unknown"].contains(term.lowercased())
    }

    public func run(arguments: [String], environment: [String: String], io: CommandIO) -> Int32 {
        withUsage(io: io) {
            var request = try Request(arguments, catalog: catalog, definer: definer)
            guard io.isTerminal else {
                io.err(
                    "cardistry tui: standard input and output must be a terminal (use 'cardistry stdio' otherwise)\n")
                return 2
            }
            // A terminal without cursor addressing (TERM=dumb, or no TERM at all) cannot show the UI: say so,
            // rather than fill it with escape sequences it prints as text. The screen-reader mode needs none.
            let term = environment["TERM"] ?? ""
            if !Self.screenReader(request, environment: environment), Self.lacksCursorAddressing(term: term) {
                io.err(
                    "cardistry tui: this terminal (TERM=\(term.isEmpty ? "unset" : term)) cannot show the terminal UI:"
                        + " it needs cursor addressing; run it in a terminal such as xterm (TERM=xterm-256color),"
                        + " or use 'cardistry stdio'\n")
                return 2
            }
            var deck: Deck?
            // A deck file's state is its own, keyed by the file's content (the same cards, the same progress).
            var identity: String?
            if let path = request.deckPath {
                switch DeckFile.open(path: path) {
                case .success(let opened):
                    deck = opened.deck
                    identity = opened.identity
                case .failure(let problem):
                    io.err("cardistry tui: " + problem.description(file: path))
                    return 1
                }
            }
            var store: (any DeckStore)?
            do {
                store = try JSONFileStore(explicit: request.storePath, environment: environment)
            } catch {
                if request.storePath != nil {
                    io.err("cardistry tui: cannot open the store: \(error)\n")
                    return 1
                }
            }
            // Scene descriptions in the store's `scenes/` folder join the home screen (docs/scenes.md).
            if let definer, let root = (store as? JSONFileStore)?.root {
                request.catalog = Self.addingScenes(in: root + "/scenes", to: request.catalog, definer: definer, io: io)
            }
            var sceneOptions = SceneOptions(deck: deck, cardCount: request.cards, deckIdentity: identity)
            sceneOptions.reducesMotion = request.reducesMotion
            let options = runOptions(request, sceneOptions: sceneOptions, store: store, environment: environment)
            do throws(TerminalError) {
                return try TUIRunLoop.run(options)
            } catch {
                io.err("cardistry tui: \(error.description)\n")
                return error == .notATerminal ? 2 : 1
            }
        }
    }

    /// Whether the session is the screen-reader mode: `--screen-reader`, or `CARDISTRY_SCREEN_READER=1`.
    static func screenReader(_ request: Request, environment: [String: String]) -> Bool {
        request.screenReader || environment["CARDISTRY_SCREEN_READER"] == "1"
    }

    /// `catalog` with the scene of every `*.json` file in `directory` (in name order) added after its own; a file
    /// that cannot be read or loaded is left out with a line on standard error naming it and its fault. A missing
    /// directory adds nothing.
    static func addingScenes(
        in directory: String, to catalog: SceneCatalog, definer: SceneDefiner, io: CommandIO
    ) -> SceneCatalog {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return catalog }
        var catalog = catalog
        for name in names.sorted() where name.hasSuffix(".json") {
            do {
                let entry = try Request.define(path: directory + "/" + name, definer: definer)
                // A file never replaces a built-in scene.
                guard catalog.descriptor(named: entry.descriptor.name) == nil else { continue }
                catalog = catalog.replacing(entry)
            } catch {
                io.err("cardistry tui: \(error)\n")
            }
        }
        return catalog
    }

    /// The run loop's options for `request`: the app's configuration (the terminal's encoding and colours, the
    /// store with its saver, the recording) and the loop's pacing.
    private func runOptions(
        _ request: Request, sceneOptions: SceneOptions, store: (any DeckStore)?, environment: [String: String]
    ) -> TUIRunLoop.Options {
        // A terminal whose locale is not UTF-8 shows ASCII only: decoration and text alike.
        let encoding = TextEncoding.detect(environment: environment)
        let depth = ColorDepth.detect(environment: environment)
        var configuration = TUIApp.Configuration(
            catalog: request.catalog, sceneOptions: sceneOptions, store: store,
            ascii: request.ascii || encoding == .ascii,
            bell: request.bell, encoding: encoding, monochrome: depth == .none)
        let heapRelease = HeapReleaseRequest()
        configuration.saver = store.map { StateSaver(store: $0, afterSnapshot: heapRelease.request) }
        configuration.records = request.recordPath != nil
        var options = TUIRunLoop.Options(
            configuration: configuration, scene: request.scene, framesPerSecond: request.fps, depth: depth)
        options.recordPath = request.recordPath
        options.slowMotion = SlowMotion(factor: request.slowMotion)
        options.heapRelease = heapRelease
        options.screenReader = Self.screenReader(request, environment: environment)
        options.showsCursor = request.showsCursor || environment["CARDISTRY_SHOW_CURSOR"] == "1"
        return options
    }

    /// The command line of `cardistry tui`, checked whole before the terminal is touched: every option's range, and
    /// that the scene takes what is given (--cards needs a scene that takes a card count, --deck one that takes a
    /// deck), refused as usage errors rather than as a message on the home screen.
    struct Request {
        var scene: String?
        var deckPath: String?
        var cards: Int?
        var fps: Int
        var slowMotion: Double
        var storePath: String?
        var recordPath: String?
        var ascii: Bool
        var bell: Bool
        var screenReader: Bool
        /// `--show-cursor`: the cursor visible on the focused item.
        var showsCursor: Bool
        var reducesMotion: Bool
        /// The scenes offered: the front end's catalogue, plus the `--scene-file` scene.
        var catalog: SceneCatalog

        init(_ arguments: [String], catalog: SceneCatalog, definer: SceneDefiner? = nil) throws {
            let parsed = try ParsedArguments(
                arguments, options: ["scene", "deck", "cards", "fps", "store", "record", "slow-motion", "scene-file"],
                flags: ["ascii", "bell", "screen-reader", "show-cursor", "reduce-motion"])
            var catalog = catalog
            var defined: String?
            if let path = parsed.value("scene-file") {
                guard let definer else { throw UsageError("this build loads no scene files") }
                let entry = try Self.define(path: path, definer: definer)
                catalog = catalog.replacing(entry)
                defined = entry.descriptor.name
            }
            self.catalog = catalog
            // The scene may be named alone (`cardistry tui deck`), as a new user first types it.
            guard parsed.positionals.count <= (parsed.value("scene") == nil ? 1 : 0) else {
                let extra = parsed.positionals[parsed.value("scene") == nil ? 1 : 0]
                throw UsageError("unexpected argument '\(extra)'")
            }
            scene = parsed.value("scene") ?? parsed.positionals.first ?? defined
            if let scene, !catalog.names.contains(scene) {
                throw UsageError("unknown scene '\(scene)'; choose one of \(catalog.names.joined(separator: ", "))")
            }
            fps = try parsed.int("fps") ?? 60
            guard (1...240).contains(fps) else { throw UsageError("option '--fps' must be 1…240, got \(fps)") }
            slowMotion = try parsed.double("slow-motion") ?? 1
            guard SlowMotion.range.contains(slowMotion) else {
                throw UsageError("option '--slow-motion' must be 1…100, got \(parsed.value("slow-motion") ?? "")")
            }
            cards = try parsed.int("cards")
            if let cards, !(1...1_000_000).contains(cards) {
                throw UsageError("option '--cards' must be 1…1000000, got \(cards)")
            }
            deckPath = parsed.value("deck")
            if cards != nil && deckPath != nil { throw UsageError("choose one of --deck and --cards") }
            storePath = parsed.value("store")
            recordPath = parsed.value("record")
            ascii = parsed.flags.contains("ascii")
            bell = parsed.flags.contains("bell")
            screenReader = parsed.flags.contains("screen-reader")
            showsCursor = parsed.flags.contains("show-cursor")
            reducesMotion = parsed.flags.contains("reduce-motion")
            try check(catalog.descriptor(named: scene ?? ""), catalog: catalog)
        }

        /// The catalogue entry of the scene described in the file at `path`; a usage error naming the file and the
        /// fault's place when it cannot be read or loaded.
        static func define(path: String, definer: SceneDefiner) throws -> SceneCatalog.Entry {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw UsageError("cannot read the scene file \(path)")
            }
            let json: JSONValue
            do {
                json = try JSONValue(parsing: Array(data), maxDepth: 64)
            } catch {
                throw UsageError("\(path): not JSON: \(error)")
            }
            do {
                return try definer.define(json)
            } catch {
                throw UsageError("\(path): \(error)")
            }
        }

        /// Refuses a card count or a deck the named scene does not take, naming the scenes that do.
        private func check(_ named: SceneDescriptor?, catalog: SceneCatalog) throws {
            guard let named else { return }
            if let cards, !named.takesCardCount {
                let takers = catalog.descriptors.filter(\.takesCardCount).map(\.name).joined(separator: ", ")
                throw UsageError(
                    "scene '\(named.name)' takes no card count (--cards \(cards)); scenes that do: \(takers)")
            }
            if deckPath != nil, !named.takesDeck {
                let takers = catalog.descriptors.filter(\.takesDeck).map(\.name).joined(separator: ", ")
                throw UsageError("scene '\(named.name)' takes no deck (--deck); scenes that do: \(takers)")
            }
        }
    }
}
