import Foundation
import Testing

/// In a cells session of the real `cardistry stdio`, `scene.frame` is exactly the picture the deltas have drawn at
/// that `t`, moving or not (issue 45): a host that mirrors the deltas and one that asks for a whole frame see the
/// same cells. On the code before, `scene.frame` redrew the scene as if nothing moved (a card's moving edge in
/// eighths, `▆`, in the deltas; the box border `─` or the page in `scene.frame`), in 110 of 161 comparisons
/// mid-motion.
@Suite struct CellsFrameAgreementEndToEndTests {
    /// A host's copy of the grid: each cell's text (a cluster, or "" for the cells a wide cluster covers) and its
    /// style, resolved through the style table the frames send.
    struct Mirror: Equatable {
        var cells: [[String]] = []
        var styles: [Int: JSON] = [:]

        /// How a cell of `text` in `style` looks: its style's members, less the foreground of a space without
        /// underline or reverse video, which shows nowhere (`Cell.looksSame(as:)`: deltas do not send it).
        static func look(_ style: JSON?, _ text: String) -> String {
            guard case .object(let members)? = style else { return "?" }
            let hides = text == " " && members["underline"] == nil && members["reverse"] == nil
            return members.filter { !(hides && $0.key == "fg") }.sorted { $0.key < $1.key }
                .map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        }

        /// Applies a cells frame (full or a delta).
        mutating func apply(_ frame: JSON) throws {
            if let columns = frame["grid"]?["cols"]?.number, let rows = frame["grid"]?["rows"]?.number {
                cells = Array(repeating: Array(repeating: "", count: Int(columns)), count: Int(rows))
                styles = [:]
            }
            if case .object(let table)? = frame["styles"] {
                for (key, value) in table { styles[Int(key) ?? -1] = value }
            }
            guard case .array(let rows)? = frame["rows"] else { throw HarnessError("a cells frame without rows") }
            for row in rows {
                guard case .array(let items) = row, let line = items.first?.number.map({ Int($0) }),
                    let start = items.dropFirst().first?.number.map({ Int($0) })
                else { throw HarnessError("a row that is not [row, column, run…]: \(row)") }
                var column = start
                for run in items.dropFirst(2) {
                    guard case .array(let parts) = run, parts.count >= 2 else { throw HarnessError("a bad run") }
                    let resolved = parts[0].number.flatMap { styles[Int($0)] }
                    func put(_ text: String, width: Int) {
                        guard line < cells.count, column < cells[line].count else { return }
                        cells[line][column] = Self.look(resolved, text) + "|" + text
                        for extra in 1..<max(1, width) where column + extra < cells[line].count {
                            cells[line][column + extra] = Self.look(resolved, text) + "|"
                        }
                        column += max(1, width)
                    }
                    if parts.count == 3, let cluster = parts[1].string, let width = parts[2].number {
                        put(cluster, width: Int(width))
                    } else if case .array(let repeated) = parts[1], let character = repeated.first?.string,
                        let count = repeated.dropFirst().first?.number
                    {
                        for _ in 0..<Int(count) { put(character, width: 1) }
                    } else if let text = parts[1].string {
                        for character in text { put(String(character), width: 1) }
                    }
                }
            }
        }
    }

    /// Drives `scene` through `start` (inputs at t = 0.1) in a 60×20 cells session, then advances the clock a 60th
    /// of a second at a time: after every delta, `scene.frame` at the same time draws what the mirrored deltas show.
    func expectAgreement(scene: String, start: [(String, String)]) throws {
        let server = try StdioProcess()
        defer {
            try? server.closeInput()
            _ = server.waitForExit()
        }
        _ = try server.request(
            0, "initialize", #"{"protocolVersion":"1.0","frames":"cells","cells":{"cols":60,"rows":20}}"#)
        var mirror = Mirror()
        let opened = try server.request(1, "scene.open", #"{"scene":"\#(scene)"}"#).response
        try mirror.apply(try #require(opened["result"]?["frame"], "\(opened)"))
        var id = 2
        for (method, params) in start {
            _ = try server.request(id, method, params)
            id += 1
        }
        var moving = 0
        var compared = 0
        for step in 7...90 {
            let time = Double(step) / 60
            let advanced = try server.request(id, "clock.advance", #"{"to":\#(time)}"#)
            id += 1
            let delta = try #require(advanced.response["result"]?["frame"], "\(advanced.response)")
            try mirror.apply(delta)
            if delta["animating"] == .bool(true) { moving += 1 }
            let whole = try #require(try server.request(id, "scene.frame").response["result"]?["frame"])
            id += 1
            var fresh = Mirror()
            try fresh.apply(whole)
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
            try mirror.apply(whole)
        }
        #expect(moving >= 5, "\(scene): the input started no motion to compare")
        #expect(compared == 84)
        #expect(server.schemaProblems.isEmpty, "\(server.schemaProblems.prefix(3))")
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
