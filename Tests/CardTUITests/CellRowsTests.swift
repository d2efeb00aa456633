import Testing

@testable import CardCells

/// Row diffs for cells frames (`CellRows`): spans split at long unchanged gaps, whole wide characters, runs that
/// join cells of one style and give a wide cluster its width.
@Suite struct CellRowsTests {
    @Test func spansSplitAtLongGapsAndKeepWideCharactersWhole() {
        let old = CellBuffer(width: 40, height: 2)
        var new = old
        new.put("a", column: 2, row: 0, foreground: .rgb(0, 0, 0))
        new.put("b", column: 5, row: 0, foreground: .rgb(0, 0, 0))
        new.put("c", column: 30, row: 0, foreground: .rgb(0, 0, 0))
        new.put("中", column: 10, row: 1, foreground: .rgb(0, 0, 0))
        let spans = CellRows.spans(of: CellDiff(from: old, to: new))
        #expect(spans.map(\.row) == [0, 0, 1])
        #expect(spans.map(\.columns) == [2..<6, 30..<31, 10..<12])
        #expect(CellRows.spans(of: CellDiff(from: nil, to: new)).count == 2)
        #expect(CellRows.spans(of: CellDiff(from: new, to: new)).isEmpty)
    }

    @Test func runsJoinOneStyleAndGiveAWideClusterItsCells() {
        var buffer = CellBuffer(
            width: 8, height: 1, fill: Cell(" ", foreground: .rgb(1, 1, 1), background: .rgb(9, 9, 9)))
        buffer.put("ab中c", column: 0, row: 0, foreground: .rgb(1, 1, 1), background: .rgb(9, 9, 9))
        let runs = CellRows.runs(of: buffer, row: 0, columns: 0..<8)
        #expect(runs.map(\.text) == ["ab", "中", "c   "])
        #expect(runs.map(\.width) == [nil, 2, nil])
    }

    @Test func aHiddenForegroundIsNotADifference() {
        let space = Cell(" ", foreground: .rgb(1, 2, 3), background: .rgb(9, 9, 9))
        var other = space
        other.foreground = .rgb(200, 0, 0)
        #expect(space.looksSame(as: other))
        other.attributes = [.underline]
        var underlined = space
        underlined.attributes = [.underline]
        #expect(!underlined.looksSame(as: other))
    }
}
