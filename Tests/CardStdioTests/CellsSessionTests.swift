import CardCells
import CardEngine
import CardGeometry
import CardJSON
import Testing

@testable import CardStdio

/// Cells sessions (`frames: "cells"`, issue 32) at their edges: bad sizes and cells, a resize in the middle of an
/// animation, and an unchanged grid that writes nothing. (The cell-for-cell equality with the terminal UI is
/// FrontendParityTests'; the wire shapes are conformance/transcripts/cells*.txt.)
@Suite struct CellsSessionTests {
    static func cellsHarness(cols: Int = 40, rows: Int = 12) -> Harness {
        var harness = Harness()
        _ = harness.request(
            1, "initialize", #"{"protocolVersion":"1.0","frames":"cells","cells":{"cols":\#(cols),"rows":\#(rows)}}"#)
        return harness
    }

    static func errorCode(_ response: JSONValue?) -> Int? { response?["error"]?["code"]?.integerValue }

    @Test func zeroHugeAndFractionalGridsAreRefusedAndTheServerStaysUninitialised() {
        var harness = Harness()
        for cells in [
            #"{"cols":0,"rows":24}"#, #"{"cols":80,"rows":1001}"#, #"{"cols":80.5,"rows":24}"#,
            #"{"cols":-3,"rows":2}"#,
        ] {
            let reply = harness.request(
                1, "initialize", #"{"protocolVersion":"1.0","frames":"cells","cells":\#(cells)}"#
            ).response
            #expect(Self.errorCode(reply) == -32602, "\(cells)")
        }
        #expect(harness.server.phase == .uninitialized)
        let reply = harness.request(
            2, "initialize", #"{"protocolVersion":"1.0","frames":"cells","cells":{"cols":1000,"rows":1}}"#
        ).response
        #expect(reply?["result"]?[path: "capabilities", "cells", "cols"]?.integerValue == 1000)
    }

    @Test func pointerCellsOutsideTheGridAreRefusedAndChangeNothing() throws {
        var harness = Self.cellsHarness()
        _ = harness.request(2, "scene.open", #"{"scene":"flashcards"}"#)
        for cell in [#""col":40,"row":0"#, #""col":0,"row":12"#, #""col":-1,"row":0"#, #""col":1.5,"row":0"#] {
            let reply = harness.request(3, "input.pointer", #"{"phase":"down",\#(cell),"t":1}"#).response
            #expect(Self.errorCode(reply) == -32602, "\(cell)")
        }
        let frame = try #require(harness.request(4, "clock.advance", #"{"to":2}"#).response?[path: "result", "frame"])
        #expect(frame["rows"]?.arrayValue?.isEmpty == true, "nothing changed: \(frame)")
    }

    @Test func aResizeInTheMiddleOfASwipeGivesAFullFrameAtTheNewSize() throws {
        var harness = Self.cellsHarness()
        _ = harness.request(2, "scene.open", #"{"scene":"flashcards"}"#)
        _ = harness.request(3, "input.key", #"{"key":"right","t":0.1}"#)
        let moving = try #require(
            harness.request(4, "clock.advance", #"{"to":0.15}"#).response?[path: "result", "frame"])
        #expect(moving["animating"] == .bool(true))
        let resized = harness.request(5, "viewport.resize", #"{"cols":30,"rows":10,"t":0.16}"#).response
        #expect(resized?["result"] != nil)
        let frame = try #require(
            harness.request(6, "clock.advance", #"{"to":0.2}"#).response?[path: "result", "frame"])
        #expect(frame["full"] == .bool(true))
        #expect(frame[path: "grid", "cols"]?.integerValue == 30)
        #expect(frame[path: "grid", "rows"]?.integerValue == 10)
        let rows = try #require(frame["rows"]?.arrayValue)
        #expect(rows.compactMap { $0.arrayValue?.first?.integerValue } == Array(0..<10))
        // A resize to a grid of one cell works too, and so does growing back.
        _ = harness.request(7, "viewport.resize", #"{"cols":1,"rows":1,"t":0.3}"#)
        let tiny = try #require(harness.request(8, "clock.advance", #"{"to":0.4}"#).response?[path: "result", "frame"])
        #expect(tiny[path: "grid", "cols"]?.integerValue == 1)
        _ = harness.request(9, "viewport.resize", #"{"cols":200,"rows":60,"t":0.5}"#)
        let large = try #require(harness.request(10, "clock.advance", #"{"to":3}"#).response?[path: "result", "frame"])
        #expect(large["rows"]?.arrayValue?.count == 60)
    }

    @Test func anUnchangedGridIsNotWrittenAsANotification() {
        var buffer = CellBuffer(width: 4, height: 2)
        buffer.put("ab", column: 0, row: 0, foreground: .rgb(1, 2, 3), background: .rgb(9, 9, 9))
        func update(_ seq: Int, _ cells: CellBuffer) -> FrameUpdate {
            var update = FrameUpdate(
                seq: seq,
                frame: Frame(
                    time: Double(seq), viewport: Size(width: 32, height: 32), nodes: [], events: [], isAnimating: false
                ), forceFull: false, deltaMode: true)
            update.cells = cells
            return update
        }
        var encoder = FrameEncoder()
        #expect(!encoder.encode(.frameNotification(update(1, buffer))).isEmpty)
        #expect(encoder.encode(.frameNotification(update(2, buffer))).isEmpty)
        // A space's foreground shows nowhere: changing it changes nothing the host shows.
        var recoloured = buffer
        recoloured[3, 1].foreground = .rgb(200, 0, 0)
        #expect(encoder.encode(.frameNotification(update(3, recoloured))).isEmpty)
        recoloured[1, 0].foreground = .rgb(200, 0, 0)
        let line = String(decoding: encoder.encode(.frameNotification(update(4, recoloured))), as: UTF8.self)
        #expect(line.contains(#""rows":[[0,1,[2,"b"]]]"#), "\(line)")
    }
}
