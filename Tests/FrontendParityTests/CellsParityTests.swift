import CardCells
import CardEngine
import CardJSON
import CardScenes
import CardStdio
import CardTUI
import CardTestScenes
import Testing

/// The stdio server's cells frames (`frames: "cells"`) against the terminal UI: for the same inputs at the same
/// times and the same size, the grid a host builds from the frames on the wire equals, cell for cell (character,
/// background, attributes, and the foreground wherever it shows: `Cell.looksSame(as:)`), the scene rows the terminal
/// UI draws (every row above its status line).
///
/// The only test target that sees two front ends (scripts/check-module-graph.py names it): what it checks is that
/// they agree.
@Suite struct CellsParityTests {
    /// One step of a session: an input, or a frame drawn (TUI) / asked for (stdio `clock.advance`).
    enum Step {
        case draw(Double)
        case press(column: Int, row: Int, Double)
        case drag(column: Int, row: Int, Double)
        case release(column: Int, row: Int, Double)
        case key(String, Double)
        case wheelDown(column: Int, row: Int, Double)
    }

    /// A swipe across the middle, a key, the wheel, frames in between and after everything settled.
    static func steps(columns: Int, rows: Int) -> [Step] {
        let x = columns / 2
        let y = rows / 2
        return [
            .draw(0), .press(column: x, row: y, 0.5), .drag(column: x + 4, row: y, 0.55), .draw(0.56),
            .drag(column: x + 12, row: y, 0.6), .drag(column: x + 24, row: y, 0.65), .draw(0.66),
            .release(column: x + 24, row: y, 0.7), .draw(0.72), .draw(0.8), .draw(1.0), .draw(3),
            .key("right", 3.5), .draw(3.55), .draw(3.7), .draw(6), .key("down", 6.5), .draw(6.6), .draw(9),
            .wheelDown(column: x, row: y, 9.5), .draw(9.6), .draw(12),
        ]
    }

    /// Every scene of the catalogue, the throwaway sixth of `SceneCatalog.testing` included (a scene added to the
    /// standard catalogue is checked without being named here).
    @Test(arguments: SceneCatalog.testing.names, [(80, 24), (120, 40)])
    func cellsFramesEqualTheTerminalUI(scene: String, size: (Int, Int)) throws {
        let (columns, rows) = size
        var app = TUIApp(columns: columns, rows: rows, configuration: TUIApp.Configuration(catalog: .testing))
        let opened = app.open(scene, at: 0)
        #expect(opened)
        var tuiBuffer = CellBuffer(width: columns, height: rows)
        var host = try StdioCellsHost(scene: scene, columns: columns, rows: rows - 1)
        for step in Self.steps(columns: columns, rows: rows - 1) {
            switch step {
            case .draw(let time):
                _ = app.draw(at: time, into: &tuiBuffer)
                try host.advance(to: time)
                for row in 0..<(rows - 1) {
                    for column in 0..<columns {
                        let expected = tuiBuffer[column, row]
                        let got = host.cell(column: column, row: row)
                        guard expected.looksSame(as: got) else {
                            let place = "\(scene) \(columns)x\(rows) at t=\(time): cell (\(column), \(row))"
                            let screens = "stdio:\n\(host.text)\ntui:\n\(tuiBuffer.text)"
                            Issue.record("\(place) is \(got), the terminal UI drew \(expected)\n\(screens)")
                            return
                        }
                    }
                }
            case .press(let column, let row, let time):
                _ = app.handle(.mouse(MouseInput(.press, column: column, row: row)), at: time)
                try host.pointer("down", column: column, row: row, at: time)
            case .drag(let column, let row, let time):
                _ = app.handle(.mouse(MouseInput(.drag, column: column, row: row)), at: time)
                try host.pointer("move", column: column, row: row, at: time)
            case .release(let column, let row, let time):
                _ = app.handle(.mouse(MouseInput(.release, column: column, row: row)), at: time)
                try host.pointer("up", column: column, row: row, at: time)
            case .key(let key, let time):
                _ = app.handle(.key(KeyInput(key)), at: time)
                try host.request("input.key", #"{"key":"\#(key)","t":\#(time)}"#)
            case .wheelDown(let column, let row, let time):
                _ = app.handle(.mouse(MouseInput(.wheel, button: 1, column: column, row: row)), at: time)
                try host.request(
                    "input.wheel", #"{"dx":0,"dy":3,"col":\#(column),"row":\#(row),"t":\#(time)}"#)
            }
        }
    }
}

/// A host of `cardistry stdio` in a cells session, in process: it sends requests to a `Server`, encodes what the
/// server returns exactly as the transport would (`FrameEncoder`), and applies the cells frames on the wire to
/// its own grid, as a real host does.
struct StdioCellsHost {
    var server: Server
    var encoder = FrameEncoder()
    var nextID = 1
    var columns: Int
    var rows: Int
    /// The grid: each cell's text ("" for the right half of a wide character) and style id.
    var grid: [[(text: String, style: Int)]]
    var styles: [Int: JSONValue] = [:]

    init(scene: String, columns: Int, rows: Int) throws {
        server = Server(
            configuration: Server.Configuration(
                provider: CatalogSceneProvider(catalog: .testing, store: nil), store: nil, serverVersion: "test"))
        self.columns = columns
        self.rows = rows
        grid = Array(repeating: Array(repeating: (" ", -1), count: columns), count: rows)
        try request(
            "initialize",
            #"{"protocolVersion":"1.0","frames":"cells","cells":{"cols":\#(columns),"rows":\#(rows)}}"#)
        try request("scene.open", #"{"scene":"\#(scene)"}"#)
    }

    mutating func pointer(_ phase: String, column: Int, row: Int, at time: Double) throws {
        try request("input.pointer", #"{"phase":"\#(phase)","col":\#(column),"row":\#(row),"t":\#(time)}"#)
    }

    mutating func advance(to time: Double) throws {
        try request("clock.advance", #"{"to":\#(time)}"#)
    }

    /// Sends one request; applies every frame in what comes back; fails on an error reply.
    mutating func request(_ method: String, _ params: String) throws {
        let line = #"{"jsonrpc":"2.0","id":\#(nextID),"method":"\#(method)","params":\#(params)}"#
        nextID += 1
        for item in server.receive(line: Array(line.utf8), now: 0) {
            let bytes = encoder.encode(item)
            guard !bytes.isEmpty else { continue }
            let message = try JSONValue(parsing: bytes)
            if let error = message["error"] { throw ParityError.reply("\(method): \(error)") }
            if let frame = message["result"]?["frame"] ?? message["params"].flatMap({ $0["rows"] == nil ? nil : $0 }) {
                try apply(frame)
            }
        }
    }

    /// Applies a cells frame: a full frame starts the style table over; each row's runs replace its cells from
    /// the row's column on.
    mutating func apply(_ frame: JSONValue) throws {
        if frame["full"] == .bool(true) { styles = [:] }
        if case .object(let members)? = frame["styles"] {
            for member in members { styles[Int(member.key) ?? -1] = member.value }
        }
        for row in frame["rows"]?.arrayValue ?? [] {
            guard let parts = row.arrayValue, parts.count >= 2, let y = parts[0].integerValue,
                var x = parts[1].integerValue
            else { throw ParityError.reply("a bad row \(row)") }
            for run in parts.dropFirst(2) {
                guard let fields = run.arrayValue, let style = fields[0].integerValue else {
                    throw ParityError.reply("a bad run \(run)")
                }
                if let repeated = fields[1].arrayValue, let character = repeated.first?.stringValue,
                    let count = repeated.last?.integerValue
                {
                    for _ in 0..<count {
                        grid[y][x] = (character, style)
                        x += 1
                    }
                    continue
                }
                guard let text = fields[1].stringValue else { throw ParityError.reply("a bad run \(run)") }
                if fields.count == 3, let width = fields[2].integerValue {
                    grid[y][x] = (text, style)
                    if width == 2 { grid[y][x + 1] = ("", style) }
                    x += width
                } else {
                    for scalar in text.unicodeScalars {
                        grid[y][x] = (String(scalar), style)
                        x += 1
                    }
                }
            }
        }
    }

    /// The cell the host shows, as the terminal UI's `Cell` (colours and attributes from the style table).
    func cell(column: Int, row: Int) -> Cell {
        let entry = grid[row][column]
        let style = styles[entry.style]
        func color(_ key: String) -> CellColor {
            switch style?[key] {
            case .string(let hex)?:
                let value = UInt32(hex.dropFirst(), radix: 16) ?? 0
                return .rgb(UInt8(value >> 16 & 255), UInt8(value >> 8 & 255), UInt8(value & 255))
            case .number(let index)?: return .indexed(UInt8(index) ?? 0)
            default: return .terminalDefault
            }
        }
        var attributes: CellAttributes = []
        if style?["bold"] == .bool(true) { attributes.insert(.bold) }
        if style?["dim"] == .bool(true) { attributes.insert(.dim) }
        if style?["underline"] == .bool(true) { attributes.insert(.underline) }
        if style?["reverse"] == .bool(true) { attributes.insert(.reverse) }
        let glyph = entry.text.isEmpty ? Cell.wideContinuation : Glyph(Character(entry.text))
        return Cell(glyph, foreground: color("fg"), background: color("bg"), attributes: attributes)
    }

    /// The grid's text, a row a line.
    var text: String { grid.map { $0.map(\.text).joined() }.joined(separator: "\n") }
}

enum ParityError: Error {
    case reply(String)
}
