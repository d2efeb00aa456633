import CardCells
import CardEngine
import CardGeometry

extension TUIApp {
    /// The cell the terminal's cursor rests on between frames: the first cell inside the focused item (the scene's
    /// accessibility focus, or the highlighted scene of the home screen), so that screen readers and braille
    /// displays, which follow the cursor, follow the focus. Nil with the help shown or nothing focused. O(nodes in
    /// the layout). On the home screen, the highlighted scene's label as last drawn.
    public func focusCell() -> (column: Int, row: Int)? {
        guard !showsHelp else { return nil }
        guard let engine else { return homeFocus }
        let tree = engine.accessibilityTree()
        guard let focus = tree.focus, let node = tree[focus], !node.isHidden else { return nil }
        let rect = node.bounds
        let scale = self.scale
        let first = scale.cell(at: Point(x: rect.minX, y: rect.minY))
        let last = scale.cell(at: Point(x: rect.maxX - 0.001, y: rect.maxY - 0.001))
        // Inside a box's border when the item is a box of three cells or more each way; else its first cell.
        let column = last.column - first.column >= 2 ? first.column + 1 : first.column
        let row = last.row - first.row >= 2 ? first.row + 1 : first.row
        guard column >= 0, row >= 0, column < columns, row < contentRows else { return nil }
        return (column, row)
    }
}
