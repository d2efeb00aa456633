import CardCells
import CardEngine
import CardGeometry
import CardGestures
import CardPersistence

#if canImport(Glibc)
    import Glibc
#endif

/// What the app asks of its host after an input.
public enum TUIEffect: Sendable, Hashable {
    case quit
    case bell
    case suspend
}

/// The TUI's state: the home screen or a scene, the help overlay, haptic pulses; input in, cell buffers out.
///
/// Pure and clock-free: every call takes the time, so tests drive it with hand-made times and compare buffers.
/// The run loop (`TUIRunLoop`) feeds it real input and time and presents what it draws.
public struct TUIApp: Sendable {
    /// How a scene is opened.
    public struct Configuration: Sendable {
        /// The scenes the home screen lists.
        public var catalog: SceneCatalog
        public var sceneOptions: SceneOptions
        public var store: (any DeckStore)?
        /// Writes the scene's state behind the interaction (`cardistry tui` makes one when there is a store); nil:
        /// state is loaded from `store` but not saved.
        public var saver: StateSaver?
        public var ascii: Bool
        /// What the terminal can show (`TextEncoding.detect`): text is transliterated on an ASCII terminal.
        public var encoding: TextEncoding
        /// No colour (`NO_COLOR`): focus, bars and the status line get cues other than colour (see
        /// `Rasterizer.monochrome`).
        public var monochrome: Bool
        public var bell: Bool
        public var scale: CellScale
        /// Draws moving edges at eighths of a cell (off with `ascii`; the front end turns it off without colour).
        public var subCell = true
        /// Record every scene's session (`cardistry tui --record FILE`): see `takeRecording()`.
        public var records = false

        public init(
            catalog: SceneCatalog, sceneOptions: SceneOptions = SceneOptions(), store: (any DeckStore)? = nil,
            ascii: Bool = false,
            bell: Bool = false, scale: CellScale = CellScale(), encoding: TextEncoding = .unicode,
            monochrome: Bool = false
        ) {
            self.encoding = encoding
            self.monochrome = monochrome
            self.catalog = catalog
            self.sceneOptions = sceneOptions
            self.store = store
            self.ascii = ascii
            self.bell = bell
            self.scale = scale
        }
    }

    public let configuration: Configuration
    /// The engine of the scene being shown; nil on the home screen. Mutated in place (an engine holds every
    /// node of its scene: copying it out and back per input would copy them all).
    public internal(set) var engine: Engine?
    /// The highlighted scene on the home screen.
    public private(set) var selection = 0
    public private(set) var showsHelp = false
    /// The page of the help overlay shown (0 first) when its keys take more rows than the screen has.
    public internal(set) var helpPage = 0
    public private(set) var columns: Int
    public private(set) var rows: Int
    /// Haptic pulses: node and start time.
    var pulses: [NodeID: Double] = [:]
    /// The store name of the open scene's state (nil: none kept).
    var stateKey: String?
    /// Why the scene's state was not restored or kept, shown in the status line until the next input.
    var stateProblem: String?
    /// Why saving fails, shown in the status line from the moment the saver meets the fault until saving resumes
    /// (keys do not clear it: the fault lasts).
    var saveFault: String?
    /// How many states this session kept under another name after another session wrote them.
    var conflictCopies = 0
    /// The scene frame drawn last: what moved since tells the rasteriser which edges lead (nil after a scene
    /// change or a resize, when nothing should be drawn as moving).
    var lastFrame: Frame?
    /// The last frame drawn had partial edges: draw once more, so that none stays on a still screen.
    var drewPartialEdges = false
    /// A message shown in the status line until the next input (a scene that failed to open).
    public private(set) var message: String?
    /// Recorded lines of engines already closed, not yet taken.
    var closedRecording: [UInt8] = []
    /// Set by every input that may change the screen; cleared by `draw`.
    public internal(set) var isDirty = true
    var pointerIsDown = false
    /// The home screen's item rows, for mouse hits: item index by row.
    var homeRows: [Int: Int] = [:]
    /// The cell of the highlighted scene's label as the home screen was last drawn (where the cursor rests).
    var homeFocus: (column: Int, row: Int)?

    /// How long a haptic pulse shows, in seconds.
    static let pulseDuration = 0.2
    /// Points of content offset per wheel notch (three rows).
    static let wheelRows = 3.0

    public init(columns: Int, rows: Int, configuration: Configuration) {
        self.columns = max(1, columns)
        self.rows = max(2, rows)
        lastFrame = nil
        self.configuration = configuration
    }

    /// The scene being shown, if any.
    public var sceneName: String? { engine?.scene.name }

    /// The descriptor of the scene being shown, if any.
    var sceneDescriptor: SceneDescriptor? { engine?.scene.descriptor }

    /// Rows available to the scene (all but the status line).
    public var contentRows: Int { rows - 1 }

    /// The point-to-cell scale for the current screen and size (see `CellScale`).
    public var scale: CellScale { scale(for: sceneDescriptor) }

    /// The scale a scene gets at the current size: the base scale, shrunk until the scene's design height
    /// (`SceneDescriptor.designHeight`) fits the rows. A scene without a design height adapts to any height.
    func scale(for descriptor: SceneDescriptor?) -> CellScale {
        guard let height = descriptor?.designHeight else { return configuration.scale }
        return CellScale.fitting(height: height, rows: contentRows, base: configuration.scale)
    }

    /// The viewport in points a scene gets for the current size.
    public var viewport: Size { scale.viewport(columns: columns, rows: contentRows) }

    // MARK: Navigation

    /// Opens scene `name` at `time`; on failure stays where it is and shows why.
    @discardableResult
    public mutating func open(_ name: String, at time: Double) -> Bool {
        do {
            let scene = try configuration.catalog.make(name, options: configuration.sceneOptions)
            let scale = scale(for: scene.descriptor)
            if let taken = engine?.takeRecording() { closedRecording += taken }
            // The scene open now is written (or kept under another name) before a state is read.
            finishState()
            var saved: LoadedState?
            stateKey = nil
            if let store = configuration.store, let stateName = scene.stateName {
                // State is kept per scene and deck: another deck's progress or order is never touched. It is read
                // through the saver, so what this session changed and has not written yet is seen too.
                let key = StateKey.name(stateName, deck: configuration.sceneOptions.stateIdentity)
                let loaded = configuration.saver?.load(key) ?? LoadedState(key, from: store)
                if let error = loaded.error { stateProblem = "saved state not restored: \(error.description)" }
                if let aside = loaded.setAside {
                    stateProblem = "saved state restored in part: damaged journal kept as \(aside)"
                }
                saved = loaded
                stateKey = key
            }
            engine = Engine(
                scene: scene, viewport: scale.viewport(columns: columns, rows: contentRows), savedState: saved,
                startTime: time,
                textMeasurer: CellTextMeasurer(
                    scale: scale, ascii: configuration.ascii, encoding: configuration.encoding),
                reducesMotion: configuration.sceneOptions.reducesMotion)
            if configuration.records {
                let options = configuration.sceneOptions
                engine?.startRecording(options: options)
            }
            focusFirstCard(at: time)
            if let index = configuration.catalog.names.firstIndex(of: name) { selection = index }
            pulses = [:]
            lastFrame = nil
            pointerIsDown = false
            message = nil
        } catch {
            message = "cannot open \(name): \(error.description)"
        }
        isDirty = true
        return message == nil
    }

    /// Keyboard focus starts on the first card in every scene: a scene whose cards take the focus with tab and that
    /// opens with none focused gets that tab, so Enter acts at once (it did nothing: focus started nowhere). Through
    /// the engine, so a recording replays it (`FirstFocus`, shared with the stdio server's cells sessions).
    mutating func focusFirstCard(at time: Double) {
        guard let scene = engine?.scene, FirstFocus.wantsTab(scene, viewport: viewport) else { return }
        _ = engine?.handle(.key(KeyInput("tab"), time: time))
    }

    /// Back to the home screen.
    public mutating func goHome() {
        if let taken = engine?.takeRecording() { closedRecording += taken }
        finishState()
        stateKey = nil
        engine = nil
        pulses = [:]
        pointerIsDown = false
        isDirty = true
    }

    /// The terminal changed size.
    public mutating func resize(columns: Int, rows: Int, at time: Double) {
        self.columns = max(1, columns)
        self.rows = max(2, rows)
        let viewport = self.viewport
        let measurer = CellTextMeasurer(scale: scale, ascii: configuration.ascii, encoding: configuration.encoding)
        if let current = engine?.textMeasurer as? CellTextMeasurer, current != measurer {
            engine?.setTextMeasurer(measurer, at: time)
        }
        engine?.handle(.resize(viewport, time: time))
        isDirty = true
    }

    // MARK: Input

    /// Handles one decoded input at `time` and returns what the host must do.
    public mutating func handle(_ input: TerminalInput, at time: Double) -> [TUIEffect] {
        defer { saveState() }
        switch input {
        case .key(let key):
            return handle(key, at: time)
        case .mouse(let mouse):
            return handle(mouse, at: time)
        case .paste, .modeReport, .deviceAttributes:
            return []
        }
    }

    /// Hands the scene's state changes to the saver (it writes them on its own thread) and picks up its news for
    /// the status line (`takeSaverNews`). O(change).
    public mutating func saveState() {
        guard let saver = configuration.saver else { return }
        takeSaverNews()
        guard let key = stateKey, let change = engine?.takeStateChange() else { return }
        saver.submit(change, to: key)
    }

    /// The saver's news on the status line: a fault from when it happens until saving resumes, a conflict's
    /// copy until the next input. The run loop calls this when the saver wakes it (`StateSaver.onNews`), so the
    /// line changes without a key. O(news).
    public mutating func takeSaverNews() {
        guard let saver = configuration.saver else { return }
        for news in saver.takeNews() {
            switch news {
            case .failed(let error):
                saveFault = "state not saved: \(error.description)"
                isDirty = true
            case .resumed:
                saveFault = nil
                isDirty = true
            case .conflict:
                break
            }
        }
        keepConflicts()
    }

    /// Before the scene is closed, and at the end of the session: its last changes handed to the saver and
    /// written, and kept under another name if another session wrote the state meanwhile.
    public mutating func finishState() {
        saveState()
        guard let saver = configuration.saver, stateKey != nil else { return }
        saver.flush()
        keepConflicts()
        saver.flush()
    }

    /// The states another session wrote since this one read them: the open scene's is kept whole under a new name
    /// (`StateKey.conflictCopy`), saved there from now on, and the status line says so.
    mutating func keepConflicts() {
        guard let saver = configuration.saver else { return }
        for name in saver.takeConflicts() {
            guard name == stateKey, engine != nil else {
                stateProblem = "not saved: another session saved \(name) meanwhile"
                continue
            }
            conflictCopies += 1
            let copy = StateKey.conflictCopy(of: name, session: "\(getpid())-\(conflictCopies)")
            saver.forget(name)
            stateKey = copy
            engine?.requestStateSnapshot()
            if let change = engine?.takeStateChange() {
                saver.submit(change, to: copy)
            }
            // The name first: a narrow status line cuts the end.
            stateProblem = "yours kept as \(copy): another session saved this deck meanwhile"
            isDirty = true
        }
    }

    mutating func handle(_ key: KeyInput, at time: Double) -> [TUIEffect] {
        isDirty = true
        message = nil
        stateProblem = nil
        if key.control && key.key == "c" { return [.quit] }
        if key.control && key.key == "z" { return [.suspend] }
        if showsHelp {
            // Space, ↓, → and pagedown turn the page while there is one; ↑, ← and pageup turn back; any other
            // key (and a turn past the last page) closes the overlay.
            let pages = helpLayout().pages.count
            let forward = ["space", "down", "right", "pagedown"].contains(key.key)
            let back = ["up", "left", "pageup"].contains(key.key)
            if forward && helpPage + 1 < pages {
                helpPage += 1
            } else if back && helpPage > 0 {
                helpPage -= 1
            } else {
                showsHelp = false
            }
            return []
        }
        if key.key == "?" {
            showsHelp = true
            helpPage = 0
            return []
        }
        guard engine != nil else { return handleHome(key, at: time) }
        // A scene may use any key itself (Esc to close a detail view); `q` and Esc go back only when it does not.
        if engine?.handle(.key(key, time: time)) == true { return [] }
        if key.key == "q" || key.key == "escape" { goHome() }
        return []
    }

    private mutating func handleHome(_ key: KeyInput, at time: Double) -> [TUIEffect] {
        let names = configuration.catalog.names
        let count = names.count
        guard count > 0 else { return key.key == "q" || key.key == "escape" ? [.quit] : [] }
        switch key.key {
        case "q", "escape":
            return [.quit]
        case "down", "right", "tab", "j":
            selection = key.shift && key.key == "tab" ? (selection + count - 1) % count : (selection + 1) % count
        case "up", "left", "backtab", "k":
            selection = (selection + count - 1) % count
        case "home":
            selection = 0
        case "end":
            selection = count - 1
        case "enter", "space":
            open(names[selection], at: time)
        default:
            if let digit = Int(key.key), digit >= 1, digit <= count { open(names[digit - 1], at: time) }
        }
        return []
    }

    /// Mouse input: on the home screen a click opens a scene; in a scene presses, drags and releases become
    /// pointer events at the cell's centre (a click is down + up, a hold lets the engine's long-press timer
    /// fire), and the wheel becomes wheel events of three rows per notch.
    @discardableResult
    mutating func handle(_ mouse: MouseInput, at time: Double) -> [TUIEffect] {
        isDirty = true
        if showsHelp {
            if mouse.action == .press { showsHelp = false }
            return []
        }
        // The status line's "? keys" and "q quit" / "q back" are buttons.
        if mouse.action == .press, mouse.button == 0, mouse.row == rows - 1 {
            let targets = statusTargets()
            if targets.help.contains(mouse.column) {
                showsHelp = true
                helpPage = 0
            } else if targets.quit.contains(mouse.column) {
                if engine == nil { return [.quit] }
                goHome()
            }
            return []
        }
        guard engine != nil else {
            if mouse.action == .press, mouse.button == 0, let index = homeRows[mouse.row] {
                selection = index
                open(configuration.catalog.names[index], at: time)
            } else if mouse.action == .wheel {
                let count = max(1, configuration.catalog.names.count)
                selection = (selection + (mouse.button == 1 ? 1 : count - 1)) % count
            }
            return []
        }
        do {
            let scale = self.scale
            let row = min(mouse.row, contentRows - 1)
            let location = scale.point(column: mouse.column, row: row)
            var modifiers: PointerModifiers = []
            if mouse.shift { modifiers.insert(.shift) }
            if mouse.control { modifiers.insert(.control) }
            if mouse.alt { modifiers.insert(.option) }
            switch mouse.action {
            case .press where mouse.row >= contentRows:
                break  // The status line is not part of the scene.
            case .press where mouse.button == 0:
                if pointerIsDown {
                    engine?.handle(.pointer(PointerEvent(.up, at: location, time: time, modifiers: modifiers)))
                }
                pointerIsDown = true
                engine?.handle(.pointer(PointerEvent(.down, at: location, time: time, modifiers: modifiers)))
            case .drag where mouse.button == 0 && pointerIsDown:
                engine?.handle(.pointer(PointerEvent(.move, at: location, time: time, modifiers: modifiers)))
            case .release where pointerIsDown:
                pointerIsDown = false
                engine?.handle(.pointer(PointerEvent(.up, at: location, time: time, modifiers: modifiers)))
            case .wheel:
                let step = Self.wheelRows * scale.pointsPerRow
                let (dx, dy): (Double, Double) =
                    switch mouse.button {
                    case 0: (0, -step)
                    case 1: (0, step)
                    case 2: (-step, 0)
                    default: (step, 0)
                    }
                engine?.handle(
                    .pointer(
                        PointerEvent(
                            .wheel(dx: dx, dy: dy), at: location, time: time, buttons: [], modifiers: modifiers)))
            default:
                break
            }
        }
        return []
    }

    // MARK: Time

    /// When the app next needs a frame after `time`: `time` itself while something animates (the host paces it to
    /// its frame rate), a later time for a pending timer (a long press), nil when idle.
    public func nextWakeTime(after time: Double) -> Double? {
        var wake: Double?
        if isDirty { wake = time }
        if !pulses.isEmpty { wake = time }  // A pulse fades frame by frame; `draw` drops it once over.
        if drewPartialEdges { wake = time }  // The next frame (nothing moved since) is drawn in whole cells.
        if let engineWake = engine?.nextWakeTime() {
            let next = max(engineWake, time)
            wake = min(wake ?? next, next)
        }
        return wake
    }
}

extension TUIApp {
    /// The session record's lines since the last call (`Configuration.records`): each scene opened starts with a
    /// header, then its inputs, frames and measurer changes (`Engine.startRecording`). Empty when not recording.
    public mutating func takeRecording() -> [UInt8] {
        var taken = closedRecording
        closedRecording = []
        if let lines = engine?.takeRecording() { taken += lines }
        return taken
    }

    /// Asks for a redraw (after the screen was lost: a resume from suspension).
    public mutating func markDirty() { isDirty = true }
}
