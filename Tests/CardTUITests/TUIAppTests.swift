import CardEngine
import CardGeometry
import CardGestures
import CardScenes
import CardTestScenes
import Testing

@testable import CardCells
@testable import CardTUI

/// Drives the app with hand-made times, as the run loop would with real ones.
struct AppDriver {
    var app: TUIApp
    var renderer = HeadlessRenderer()
    var buffer = CellBuffer(width: 0, height: 0)
    var effects: [TUIEffect] = []

    init(columns: Int = 80, rows: Int = 24, bell: Bool = false, catalog: SceneCatalog = .standard) {
        app = TUIApp(columns: columns, rows: rows, configuration: TUIApp.Configuration(catalog: catalog, bell: bell))
    }

    mutating func key(_ name: String, control: Bool = false, at time: Double) {
        effects += app.handle(.key(KeyInput(name, control: control)), at: time)
    }

    mutating func mouse(_ mouse: MouseInput, at time: Double) {
        effects += app.handle(.mouse(mouse), at: time)
    }

    @discardableResult
    mutating func draw(at time: Double) -> CellBuffer {
        effects += app.draw(at: time, into: &buffer)
        renderer.present(buffer)
        return buffer
    }

    var text: String { renderer.buffer?.text ?? "" }

    /// The rows (top to bottom) on which each of `names` first appears.
    func order(of names: [String]) -> [String] {
        guard let buffer = renderer.buffer else { return [] }
        var found: [(Int, String)] = []
        for name in names {
            if let row = (0..<buffer.height).first(where: { buffer.text(row: $0).contains(name) }) {
                found.append((row, name))
            }
        }
        return found.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

@Suite struct TUIAppTests {
    static let students = ["Alice", "Bob", "Charlie", "Diana", "Eve"]

    /// Over the catalogue with the throwaway sixth scene too: the home list comes from the catalogue, and each
    /// scene's digit opens it.
    @Test(arguments: [SceneCatalog.standard, .testing])
    func homeListsEverySceneAndKeysChooseAndOpen(catalog: SceneCatalog) {
        var driver = AppDriver(catalog: catalog)
        driver.draw(at: 0)
        for descriptor in catalog.descriptors {
            #expect(driver.text.contains(descriptor.name) && driver.text.contains(descriptor.summary))
        }
        #expect(driver.text.contains("? keys"))
        driver.key("down", at: 0.1)
        #expect(driver.app.selection == 1 % catalog.names.count)
        driver.key("up", at: 0.2)
        driver.key("up", at: 0.3)
        #expect(driver.app.selection == catalog.names.count - 1)
        driver.key("home", at: 0.4)
        driver.key("enter", at: 0.5)
        #expect(driver.app.sceneName == catalog.names[0])
        for (index, name) in catalog.names.enumerated() {
            var opener = AppDriver(catalog: catalog)
            opener.key("\(index + 1)", at: 0)
            #expect(opener.app.sceneName == name)
        }
    }

    @Test func digitsOpenScenesAndQGoesBackThenQuits() {
        var driver = AppDriver()
        driver.key("2", at: 0)
        #expect(driver.app.sceneName == SceneCatalog.standard.names[1])
        driver.key("q", at: 0.1)
        #expect(driver.app.sceneName == nil)
        #expect(driver.effects.isEmpty)
        driver.key("q", at: 0.2)
        #expect(driver.effects == [.quit])
    }

    @Test func escapeGoesBackAndControlCQuitsAnywhere() {
        var driver = AppDriver()
        driver.app.open("scores", at: 0)
        driver.key("escape", at: 0.1)
        #expect(driver.app.sceneName == nil)
        driver.app.open("scores", at: 0.2)
        driver.key("c", control: true, at: 0.3)
        #expect(driver.effects == [.quit])
        driver.key("z", control: true, at: 0.4)
        #expect(driver.effects.last == .suspend)
    }

    @Test func escapeGoesToTheSceneFirstWhenItUsesIt() {
        var driver = AppDriver()
        driver.app.open("deck", at: 0)
        driver.key("enter", at: 0.5)
        driver.draw(at: 2)
        let expanded = driver.buffer
        driver.key("escape", at: 2.1)
        #expect(driver.app.sceneName == "deck", "Esc closes the expanded card, not the scene")
        driver.draw(at: 4)
        #expect(driver.buffer != expanded)
        driver.key("escape", at: 4.1)
        #expect(driver.app.sceneName == nil)
    }

    @Test func questionMarkShowsTheScenesKeysAndAnyKeyHidesThem() throws {
        var driver = AppDriver()
        driver.app.open("scores", at: 0)
        driver.key("?", at: 0.1)
        driver.draw(at: 0.1)
        let scene = try #require(driver.app.engine?.scene)
        for help in scene.descriptor.keyHelp { #expect(driver.text.contains(help.summary)) }
        // What the pointer does in this scene, said in its words (the slider was in no help before).
        #expect(driver.text.contains("drag the bar") && driver.text.contains("choose a test"))
        driver.key("x", at: 0.2)
        driver.draw(at: 0.2)
        #expect(!driver.app.showsHelp)
        #expect(!driver.text.contains("drag the bar"))
    }

    /// Every scene's help says what the pointer does: in the scene's own words where it declares them (each of the
    /// five seed scenes does), else the pointer in general ("hold: long press", as a scene added to the catalogue
    /// gets); the home screen, which declares nothing, keeps the general lines.
    @Test func everySceneExplainsItsPointerInItsHelp() throws {
        let seeds: Set = ["scores", "hero", "wallet", "flashcards", "deck"]
        for descriptor in SceneCatalog.standard.descriptors {
            if seeds.contains(descriptor.name) { #expect(!descriptor.pointerHelp.isEmpty, "\(descriptor.name)") }
            var driver = AppDriver(columns: 120, rows: 40)
            driver.app.open(descriptor.name, at: 0)
            driver.key("?", at: 0.1)
            driver.draw(at: 0.1)
            for help in descriptor.pointerHelp {
                #expect(driver.text.contains(help.keys) && driver.text.contains(help.summary), "\(descriptor.name)")
            }
            if descriptor.pointerHelp.isEmpty { #expect(driver.text.contains("long press"), "\(descriptor.name)") }
        }
        var home = AppDriver()
        home.key("?", at: 0.1)
        home.draw(at: 0.1)
        #expect(home.text.contains("long press"))
    }

    @Test func aClickOnAHomeItemOpensIt() {
        var driver = AppDriver()
        driver.draw(at: 0)
        let row = (0..<24).first { driver.buffer.text(row: $0).contains(SceneCatalog.standard.names[1]) } ?? -1
        driver.mouse(MouseInput(.press, column: 20, row: row), at: 0.1)
        #expect(driver.app.sceneName == SceneCatalog.standard.names[1])
    }

    @Test func theStatusLineNamesTheSceneAndItsKeys() throws {
        var driver = AppDriver()
        driver.app.open("scores", at: 0)
        driver.draw(at: 0)
        let status = driver.buffer.text(row: 23)
        let scene = try #require(driver.app.engine?.scene)
        #expect(status.contains(scene.descriptor.title))
        #expect(status.contains("q back"))
    }

    @Test func scoresRightKeyReRanksTheCardsAndThenGoesIdle() {
        var driver = AppDriver()
        driver.app.open("scores", at: 0)
        driver.draw(at: 0)
        let before = driver.order(of: Self.students)
        #expect(before.count == 5)
        driver.key("right", at: 0.1)
        #expect(driver.app.nextWakeTime(after: 0.1) == 0.1)
        var time = 0.1
        while let wake = driver.app.nextWakeTime(after: time), time < 5 {
            time = max(wake, time + 1.0 / 60)
            driver.draw(at: time)
        }
        #expect(time < 3, "the re-sort settles")
        #expect(driver.app.nextWakeTime(after: time) == nil)
        let after = driver.order(of: Self.students)
        #expect(after.count == 5)
        #expect(after != before)
        #expect(driver.text.contains("Test 2"))
        // Idle: another frame is identical, so the diff writer sends nothing.
        var writer = CellScreen(backend: ANSIWriter())
        var output: [UInt8] = []
        writer.render(driver.buffer, into: &output)
        output.removeAll()
        writer.render(driver.draw(at: time + 1), into: &output)
        #expect(output.isEmpty)
    }

    @Test func draggingTheSliderWithTheMouseSelectsATest() throws {
        var driver = AppDriver()
        driver.app.open("scores", at: 0)
        let buffer = driver.draw(at: 0)
        let knob = try #require(
            (0..<23).lazy.compactMap { row in
                (0..<80).first { buffer[$0, row].character == "●" }.map { (column: $0, row: row) }
            }.first)
        driver.mouse(MouseInput(.press, column: knob.column, row: knob.row), at: 0.1)
        driver.mouse(MouseInput(.drag, column: knob.column + 20, row: knob.row), at: 0.15)
        // The tick label "5" sits under the slider position of test 5.
        let five = try #require((0..<80).first { buffer[$0, knob.row + 1].character == "5" })
        driver.mouse(MouseInput(.drag, column: five, row: knob.row), at: 0.2)
        driver.mouse(MouseInput(.release, column: five, row: knob.row), at: 0.25)
        driver.draw(at: 3)
        #expect(!driver.text.contains("Test 1 "))
        #expect(driver.text.contains("Test 5"))
    }

    @Test func hapticsPulseTheirCardAndRingWithBell() {
        var driver = AppDriver(bell: true)
        driver.app.open("flashcards", at: 0)
        driver.draw(at: 0)
        driver.key("space", at: 0.1)
        let pulsed = driver.draw(at: 0.11)
        #expect(!driver.app.pulses.isEmpty)
        #expect(driver.effects.contains(.bell))
        #expect(driver.app.nextWakeTime(after: 0.11) == 0.11)
        driver.draw(at: 1)
        #expect(driver.app.pulses.isEmpty)
        #expect(pulsed != driver.buffer)
    }

    @Test func flashcardSwipedAwayDisappears() throws {
        var driver = AppDriver()
        driver.app.open("flashcards", at: 0)
        let top = try #require(driver.app.engine?.deck.last)
        guard case .flashcard(let card) = top.payload else {
            Issue.record("not a flashcard")
            return
        }
        driver.draw(at: 0)
        #expect(driver.text.contains(String(card.prompt.prefix(12))))
        driver.key("left", at: 0.1)
        driver.draw(at: 3)
        #expect(!driver.text.contains(String(card.prompt.prefix(12))))
        #expect(driver.app.engine?.deck.contains { $0.id == top.id } == false)
    }

    @Test func resizeRelaysOutTheScene() {
        var driver = AppDriver()
        driver.app.open("scores", at: 0)
        driver.draw(at: 0)
        driver.app.resize(columns: 120, rows: 40, at: 0.1)
        let buffer = driver.draw(at: 2)
        #expect(buffer.width == 120 && buffer.height == 40)
        #expect(driver.app.engine?.viewport == driver.app.viewport)
        #expect(driver.order(of: Self.students).count == 5)
    }

    @Test func mouseInAScenePressesDragsAndScrolls() {
        var driver = AppDriver()
        driver.app.open("scores", at: 0)
        driver.mouse(MouseInput(.press, column: 10, row: 5), at: 0.1)
        #expect(driver.app.pointerIsDown)
        driver.mouse(MouseInput(.release, column: 10, row: 5), at: 0.15)
        #expect(!driver.app.pointerIsDown)
        driver.mouse(MouseInput(.wheel, button: 1, column: 10, row: 5), at: 0.2)
        driver.mouse(MouseInput(.press, column: 79, row: 22), at: 0.3)
        driver.mouse(MouseInput(.drag, column: 0, row: 0), at: 0.35)
        driver.mouse(MouseInput(.release, column: 0, row: 0), at: 0.4)
        // Each input reached the engine at its cell's centre, in points. Scores needs 500 points of height and 80 × 24
        // has 23 rows for it, so a row is 500 / 23 points and a column half that; a wheel notch scrolls three rows.
        let row = 500.0 / 23
        let column = row / 2
        func at(_ x: Double, _ y: Double) -> Point { Point(x: x * column, y: y * row) }
        let expected: [InputEvent] = [
            .pointer(PointerEvent(.down, at: at(10.5, 5.5), time: 0.1)),
            .pointer(PointerEvent(.up, at: at(10.5, 5.5), time: 0.15)),
            .pointer(PointerEvent(.wheel(dx: 0, dy: 3 * row), at: at(10.5, 5.5), time: 0.2, buttons: [])),
            .pointer(PointerEvent(.down, at: at(79.5, 22.5), time: 0.3)),
            .pointer(PointerEvent(.move, at: at(0.5, 0.5), time: 0.35)),
            .pointer(PointerEvent(.up, at: at(0.5, 0.5), time: 0.4)),
        ]
        // The first input is the tab that starts the focus on the first card (`focusFirstCard`).
        var logged = driver.app.engine?.log.inputs ?? []
        if case .key(let key, _)? = logged.first, key.key == "tab" { logged.removeFirst() }
        #expect(logged.count == expected.count)
        for (input, wanted) in zip(logged, expected) {
            guard case .pointer(let event) = input, case .pointer(let target) = wanted else {
                Issue.record("not a pointer input: \(input)")
                continue
            }
            #expect(event.kind == target.kind && event.time == target.time && event.buttons == target.buttons)
            #expect(
                abs(event.location.x - target.location.x) < 1e-9 && abs(event.location.y - target.location.y) < 1e-9)
        }
    }
}

@Suite struct TinyTerminalTests {
    /// Every screen at every small size draws without trapping, fills the whole grid, and keeps the status line.
    @Test func everyScreenDrawsAtTinySizes() {
        for columns in [1, 2, 5, 9, 17, 33] {
            for rows in [2, 3, 4, 7, 11] {
                for scene in [nil] + SceneCatalog.testing.names.map(Optional.some) {
                    var driver = AppDriver(columns: columns, rows: rows, catalog: .testing)
                    if let scene { driver.app.open(scene, at: 0) }
                    driver.key("?", at: 0.1)
                    let buffer = driver.draw(at: 0.2)
                    #expect(buffer.width == columns && buffer.height == rows)
                    driver.key("x", at: 0.3)
                    driver.mouse(MouseInput(.press, column: columns - 1, row: rows - 1), at: 0.4)
                    driver.mouse(MouseInput(.drag, column: 0, row: 0), at: 0.5)
                    driver.mouse(MouseInput(.release, column: 0, row: 0), at: 0.6)
                    driver.draw(at: 2)
                    #expect(driver.buffer.width == columns)
                }
            }
        }
    }
}
