import CardJSON
import Testing

@testable import CardStdio

/// In a cells session, `scene.frame` is exactly the picture the deltas have drawn at that `t`, moving or not
/// (issue 45): a host that mirrors the deltas and one that asks for a whole frame see the same cells. On the code
/// before, `scene.frame` redrew the scene as if nothing moved (a card's moving edge in eighths, `▆`, in the deltas;
/// the box border `─` or the page in `scene.frame`), in 110 of 161 comparisons mid-motion.
@Suite struct CellsFrameAgreementTests {
    /// A host's copy of the grid: each cell's text (a cluster, or "" for the cells a wide cluster covers) and its
    /// style, resolved through the style table the frames send.
    struct Mirror: Equatable {
        var cells: [[String]]
        var styles: [Int: JSONValue] = [:]

        init(columns: Int, rows: Int) {
            cells = Array(repeating: Array(repeating: "", count: columns), count: rows)
        }

        /// How a cell of `text` in `style` looks: its style's members, less the foreground of a space without
        /// underline or reverse video, which shows nowhere (`CellRows.looksSame`: deltas do not send it).
        static func look(_ style: JSONValue?, _ text: String) -> String {
            guard case .object(let members)? = style else { return "?" }
            let hides = text == " " && !members.contains { $0.key == "underline" || $0.key == "reverse" }
            return members.filter { !(hides && $0.key == "fg") }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        }

        /// Applies a cells frame (full or a delta).
        mutating func apply(_ frame: JSONValue) throws {
            if let grid = frame["grid"], let columns = grid["cols"]?.integerValue, let rows = grid["rows"]?.integerValue
            {
                self = Mirror(columns: columns, rows: rows)
            }
            if case .object(let table)? = frame["styles"] {
                for member in table { styles[Int(member.key) ?? -1] = member.value }
            }
            for row in try #require(frame["rows"]?.arrayValue) {
                let items = try #require(row.arrayValue)
                let line = try #require(items[0].integerValue)
                var column = try #require(items[1].integerValue)
                for run in items.dropFirst(2) {
                    let parts = try #require(run.arrayValue)
                    let resolved = styles[parts[0].integerValue ?? -1]
                    func put(_ text: String, width: Int) {
                        guard line < cells.count, column < cells[line].count else { return }
                        cells[line][column] = Self.look(resolved, text) + "|" + text
                        for extra in 1..<max(1, width) where column + extra < cells[line].count {
                            cells[line][column + extra] = Self.look(resolved, text) + "|"
                        }
                        column += max(1, width)
                    }
                    if parts.count == 3, let cluster = parts[1].stringValue, let width = parts[2].integerValue {
                        put(cluster, width: width)
                    } else if let repeated = parts[1].arrayValue, let character = repeated[0].stringValue,
                        let count = repeated[1].integerValue
                    {
                        for _ in 0..<count { put(character, width: 1) }
                    } else if let text = parts[1].stringValue {
                        for character in text { put(String(character), width: 1) }
                    }
                }
            }
        }
    }

    /// Drives `scene` through `start` (inputs at t = 0.1), then advances the clock a 60th of a second at a time:
    /// after every delta, `scene.frame` at the same time draws what the mirrored deltas show.
    func expectAgreement(scene: String, options: String = "{}", start: [(String, String)]) throws {
        var harness = CellsSessionTests.cellsHarness(cols: 60, rows: 20)
        var mirror = Mirror(columns: 0, rows: 0)
        let opened = harness.request(2, "scene.open", #"{"scene":"\#(scene)","options":\#(options)}"#).response
        try mirror.apply(try #require(opened?[path: "result", "frame"], "\(String(describing: opened))"))
        var id = 3
        for (method, params) in start {
            _ = harness.request(id, method, params)
            id += 1
        }
        var moving = 0
        var compared = 0
        for step in 7...90 {
            let time = Double(step) / 60
            let advanced = harness.request(id, "clock.advance", #"{"to":\#(time)}"#).response
            id += 1
            let delta = try #require(advanced?[path: "result", "frame"], "\(String(describing: advanced))")
            try mirror.apply(delta)
            if delta["animating"] == .bool(true) { moving += 1 }
            let whole = harness.request(id, "scene.frame").response
            id += 1
            var fresh = Mirror(columns: 0, rows: 0)
            try fresh.apply(try #require(whole?[path: "result", "frame"]))
            // The style tables restart with a full frame: the mirror keeps its own, so compare resolved cells.
            let differing = zip(fresh.cells.joined(), mirror.cells.joined()).enumerated().first {
                $0.element.0 != $0.element.1
            }
            #expect(
                fresh.cells == mirror.cells,
                "\(scene) at t = \(time): scene.frame differs from the deltas, first at cell \(differing?.offset ?? -1): \(String(describing: differing?.element))"
            )
            compared += 1
            if fresh.cells != mirror.cells { return }
            // The host applies the whole frame too (it restarts the style table the next deltas build on).
            try mirror.apply(try #require(whole?[path: "result", "frame"]))
        }
        #expect(moving >= 5, "\(scene): the input started no motion to compare")
        #expect(compared == 84)
    }

    @Test func aFlashcardSwipe() throws {
        try expectAgreement(scene: "flashcards", start: [("input.key", #"{"key":"right","t":0.1}"#)])
    }

    @Test func aDeckFan() throws {
        try expectAgreement(scene: "deck", start: [("input.key", #"{"key":"p","t":0.1}"#)])
    }

    @Test func aScoresReSort() throws {
        try expectAgreement(scene: "scores", start: [("input.key", #"{"key":"right","t":0.1}"#)])
    }
}
