import CardEngine
import CardGeometry

extension TUIApp {
    /// The colours of the TUI's own chrome (status line, help, home screen).
    enum Chrome {
        static let statusBackground = CellColor.rgb(38, 40, 48)
        static let statusForeground = CellColor.rgb(235, 235, 240)
        static let statusAccent = CellColor.rgb(255, 204, 0)
        static let helpBackground = CellColor.rgb(250, 250, 252)
        static let helpBorder = CellColor.rgb(0, 122, 255)
        static let text = CellColor.rgb(20, 20, 24)
        static let accent = RGBA(red: 0, green: 122 / 255, blue: 1)
        static let item = RGBA(red: 0.93, green: 0.93, blue: 0.95)
        static let secondary = RGBA(red: 0.42, green: 0.42, blue: 0.45)
    }

    /// Draws the current screen at `time` into `buffer` (resized to the terminal if needed), in 24-bit colour.
    /// Haptic events of the scene's frame start pulses (and return `.bell` with `--bell`).
    public mutating func draw(at time: Double, into buffer: inout CellBuffer) -> [TUIEffect] {
        if buffer.width != columns || buffer.height != rows { buffer = CellBuffer(width: columns, height: rows) }
        isDirty = false
        var effects: [TUIEffect] = []
        let rasterizer = Rasterizer(
            scale: scale, ascii: configuration.ascii, cardTextAtTop: sceneDescriptor?.textPlacement == .top,
            encoding: configuration.encoding, monochrome: configuration.monochrome,
            subCell: configuration.subCell && !configuration.monochrome)
        if engine == nil {
            lastFrame = nil
            rasterizer.render(homeFrame(at: time), into: &buffer, rows: contentRows)
        } else if let frame = engine?.frame(at: time) {
            for event in frame.events {
                guard case .haptic(let haptic) = event else { continue }
                let target = haptic.target ?? haptic.card.flatMap { frame.node(card: $0)?.id }
                if let target { pulses[target] = haptic.time }
                if configuration.bell && effects.isEmpty { effects.append(.bell) }
            }
            pulses = pulses.filter { time < $0.value + Self.pulseDuration }
            let amounts = pulses.mapValues { start in max(0, 1 - (time - start) / Self.pulseDuration) }
            drewPartialEdges = rasterizer.render(
                frame, into: &buffer, rows: contentRows, pulses: amounts, previous: lastFrame)
            lastFrame = frame
        }
        drawStatusLine(into: &buffer)
        if showsHelp { drawHelp(into: &buffer) }
        return effects
    }

    // MARK: Home

    /// The home screen as a frame of nodes, so it is drawn exactly like a scene: a title and one rounded box
    /// per scene (the selected one filled with the accent colour), names and descriptions in two aligned columns:
    /// the descriptions with their seed numbers where every one fits, without where that makes them fit (at 80
    /// columns), cut with "…" only when even that does not fit. Records the rows each item covers.
    mutating func homeFrame(at time: Double) -> Frame {
        let scale = self.scale
        let descriptors = configuration.catalog.descriptors
        let names = descriptors.map(\.name)
        let boxColumns = max(10, min(columns - 2, 100))
        let left = (columns - boxColumns) / 2
        // "> 1 " then the name, padded to the longest, a space, the description: inside the box's two-column inset.
        let numberWidth = String(max(1, names.count)).count
        let nameColumn = 2 + numberWidth + 1
        let nameWidth = names.map { GlyphMapper.columns(of: $0) }.max() ?? 0
        let summaryColumn = nameColumn + nameWidth + 1
        let summaryWidth = max(0, boxColumns - 4 - summaryColumn)
        let useSeeds = descriptors.allSatisfy { GlyphMapper.columns(of: $0.menuSummary) <= summaryWidth }
        let itemRows = contentRows >= 3 + names.count * 3 ? 3 : 1
        let top = contentRows >= 3 + names.count * itemRows ? 2 : 0
        var nodes: [FrameNode] = []
        func node(
            _ id: String, role: NodeRole, column: Int, row: Int, width: Int, height: Int, fill: RGBA?,
            radius: Double = 0, stroke: RGBA? = nil, text: [TextRun] = []
        ) -> FrameNode {
            FrameNode(
                id: NodeID(id), role: role, card: nil, parent: nil,
                rect: Rect(
                    x: Double(column) * scale.pointsPerColumn, y: Double(row) * scale.pointsPerRow,
                    width: Double(width) * scale.pointsPerColumn, height: Double(height) * scale.pointsPerRow),
                z: 0, opacity: 1, rotation: 0, scale: 1, cornerRadius: radius, fill: fill, stroke: stroke, shadow: nil,
                text: text.map { FrameText(run: $0) }, matchedGeometryID: nil, isLeaving: false)
        }
        if top > 0 {
            nodes.append(
                node(
                    "home.title", role: .title, column: left, row: 0, width: boxColumns, height: 1, fill: nil,
                    text: [TextRun("Cardistry — choose a scene", style: .title, color: .black, weight: .bold)]))
        }
        homeRows = [:]
        for (index, name) in names.enumerated() {
            let row = top + index * itemRows
            let selected = index == selection
            let color: RGBA = selected ? .white : .black
            let summary = useSeeds ? descriptors[index].menuSummary : descriptors[index].summary
            let number = String(index + 1)
            let label = (selected ? "> " : "  ") + String(repeating: " ", count: numberWidth - number.count) + number
            nodes.append(
                node(
                    "home.\(name)", role: .card, column: left, row: row, width: boxColumns, height: itemRows,
                    fill: selected ? Chrome.accent : Chrome.item, radius: 8,
                    // Without colour the accent fill is gone: a stroke makes the rasteriser draw the box heavy.
                    stroke: selected && configuration.monochrome ? .white : nil))
            let textRow = row + itemRows / 2
            let textLeft = left + 2
            nodes.append(
                node(
                    "home.\(name).label", role: .text, column: textLeft, row: textRow, width: nameColumn + nameWidth,
                    height: 1, fill: nil, text: [TextRun(label + " " + name, color: color, weight: .bold)]))
            nodes.append(
                node(
                    "home.\(name).summary", role: .text, column: textLeft + summaryColumn, row: textRow,
                    width: summaryWidth, height: 1, fill: nil,
                    text: [TextRun(summary, color: selected ? .white : Chrome.secondary)]))
            for covered in row..<(row + itemRows) { homeRows[covered] = index }
        }
        return Frame(
            time: time, viewport: viewport, nodes: nodes, events: [], isAnimating: false)
    }

    // MARK: Status line and help

    /// The right end of the status line: the help and quit (or back) targets, clickable.
    var statusRight: String { sceneDescriptor == nil ? "? keys  q quit " : "? keys  q back " }

    /// The columns of the status line's clickable targets, "? keys" and "q quit" (or "q back"), at the right end.
    func statusTargets() -> (help: Range<Int>, quit: Range<Int>) {
        let start = max(0, columns - GlyphMapper.columns(of: statusRight))
        return (start..<(start + 6), (start + 8)..<(start + 14))
    }

    /// The hints of the status line that fit `width` columns: whole hints, most useful first (the order the scene
    /// lists them in, its main gestures first), joined by `separator`; the first that does not fit is cut at a word
    /// boundary and ends with "…" (or "..." in ASCII), or left out when not even its first word fits. O(length).
    static func statusHints(_ hints: [String], separator: String, width: Int, ascii: Bool) -> String {
        let ellipsis = ascii ? "..." : "…"
        var line = ""
        for hint in hints {
            let prefix = line.isEmpty ? "" : separator
            if GlyphMapper.columns(of: line + prefix + hint) <= width {
                line += prefix + hint
                continue
            }
            // Whole words of this hint while they and the ellipsis fit.
            var cut = ""
            for word in hint.split(separator: " ") {
                let candidate = cut.isEmpty ? String(word) : cut + " " + word
                guard GlyphMapper.columns(of: line + prefix + candidate + ellipsis) <= width else { break }
                cut = candidate
            }
            if !cut.isEmpty {
                line += prefix + cut + ellipsis
            } else if !line.isEmpty && GlyphMapper.columns(of: line + ellipsis) <= width {
                line += ellipsis
            }
            break
        }
        return line
    }

    /// The bottom row: the scene's title and its keys on the left (cut at a word boundary with "…"), `? keys  q
    /// back` (`q quit` on the home screen) on the right — both clickable (`statusTargets`). In monochrome
    /// (`NO_COLOR`) the row is in reverse video, so it still stands apart from the scene.
    func drawStatusLine(into buffer: inout CellBuffer) {
        let row = rows - 1
        let base: CellAttributes = configuration.monochrome ? [.reverse] : []
        for column in 0..<columns {
            buffer[column, row] = Cell(
                " ", foreground: Chrome.statusForeground, background: Chrome.statusBackground, attributes: base)
        }
        let title: String
        var keys: [String]
        if let descriptor = sceneDescriptor {
            title = descriptor.title
            keys = descriptor.keyHelp.map { "\($0.keys) \($0.summary)" }
        } else {
            title = "Cardistry"
            keys = ["enter open", "↑↓ choose", "1–\(configuration.catalog.names.count) open"]
        }
        let message = self.message ?? stateProblem
        if let message { keys = [message] }
        let ascii = configuration.ascii
        let encoding = configuration.encoding
        func clean(_ text: String) -> String {
            GlyphMapper.displayed(text, decoration: ascii, encoding: encoding)
        }
        let right = statusRight
        let rightStart = statusTargets().help.lowerBound
        var column = buffer.put(
            " " + clean(title) + " ", column: 0, row: row, foreground: Chrome.statusAccent,
            attributes: base.union(.bold), maxColumn: rightStart)
        let separator = ascii ? " | " : " · "
        let line = Self.statusHints(
            keys.map(clean), separator: separator, width: max(0, rightStart - 1 - column), ascii: ascii)
        column = buffer.put(
            line, column: column, row: row, foreground: message == nil ? Chrome.statusForeground : Chrome.statusAccent,
            attributes: base, maxColumn: rightStart - 1)
        buffer.put(
            clean(right), column: rightStart, row: row, foreground: Chrome.statusForeground, attributes: base)
    }

    /// The `?` overlay: every key of the screen and the mouse gestures, in a box in the middle.
    func drawHelp(into buffer: inout CellBuffer) {
        var entries: [(String, String)]
        if let descriptor = sceneDescriptor {
            entries = descriptor.keyHelp.map { ($0.keys, $0.summary) }
        } else {
            let count = configuration.catalog.names.count
            entries = [
                ("↑ ↓ tab", "choose a scene"), ("enter space", "open it"), ("1–\(count)", "open scene 1–\(count)"),
            ]
        }
        entries += [
            ("click", "tap"), ("hold", "long press"), ("drag", "drag, swipe, reorder"), ("wheel", "scroll, pull"),
            ("?", "show or hide these keys"), ("q Esc", "back (quit on the home screen)"), ("Ctrl-C", "quit"),
            ("Ctrl-Z", "suspend"),
        ]
        let ascii = configuration.ascii
        let encoding = configuration.encoding
        func clean(_ text: String) -> String {
            GlyphMapper.displayed(text, decoration: ascii, encoding: encoding)
        }
        let keyWidth = min(
            16, entries.map { GlyphMapper.columns(of: $0.0, decoration: ascii, encoding: encoding) }.max() ?? 0)
        let width = min(
            columns,
            max(
                24,
                keyWidth + 6
                    + (entries.map { GlyphMapper.columns(of: $0.1, decoration: ascii, encoding: encoding) }.max() ?? 0))
        )
        let height = min(contentRows, entries.count + 4)
        let left = (columns - width) / 2
        let top = max(0, (contentRows - height) / 2)
        let glyphs = ascii ? BoxGlyphs.ascii : BoxGlyphs.rounded
        for row in top..<(top + height) {
            for column in left..<(left + width) {
                let edgeRow = row == top || row == top + height - 1
                let edgeColumn = column == left || column == left + width - 1
                var character: Glyph = " "
                switch (edgeRow, edgeColumn, row == top, column == left) {
                case (true, true, true, true): character = glyphs.topLeft
                case (true, true, true, false): character = glyphs.topRight
                case (true, true, false, true): character = glyphs.bottomLeft
                case (true, true, false, false): character = glyphs.bottomRight
                case (true, false, _, _): character = glyphs.horizontal
                case (false, true, _, _): character = glyphs.vertical
                default: break
                }
                buffer[column, row] = Cell(
                    character, foreground: edgeRow || edgeColumn ? Chrome.helpBorder : Chrome.text,
                    background: Chrome.helpBackground)
            }
        }
        buffer.put(
            " Keys ", column: left + 2, row: top, foreground: Chrome.helpBorder, attributes: [.bold],
            maxColumn: left + width - 1)
        for (index, entry) in entries.enumerated() {
            let row = top + 2 + index
            guard row < top + height - 1 else { break }
            buffer.put(
                clean(entry.0), column: left + 2, row: row, foreground: Chrome.helpBorder, attributes: [.bold],
                maxColumn: left + 2 + keyWidth)
            buffer.put(
                clean(entry.1), column: left + 3 + keyWidth, row: row, foreground: Chrome.text,
                maxColumn: left + width - 1)
        }
        // The box's edges may have cut wide characters of the scene in two.
        for row in top..<(top + height) { buffer.repairWideCharacters(row: row) }
    }
}
