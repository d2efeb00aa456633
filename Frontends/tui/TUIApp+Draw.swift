import CardCells
import CardEngine
import CardGeometry

extension TUIApp {
    /// The colours of the TUI's own chrome (status line, help, home screen).
    enum Chrome {
        static let statusBackground = CellColor.rgb(38, 40, 48)
        static let statusForeground = CellColor.rgb(235, 235, 240)
        static let statusAccent = CellColor.rgb(255, 204, 0)
        static let helpBackground = CellColor.rgb(250, 250, 252)
        /// Apple's accessible system blue (light appearance, increased contrast: 0, 64, 221; Human Interface
        /// Guidelines, "Color"): 6.7:1 on the help's background and under white text, where the system blue
        /// (0, 122, 255) is 3.9:1 and 4.0:1 (issue 28's contrast lint).
        static let helpBorder = CellColor.rgb(0, 64, 221)
        static let text = CellColor.rgb(20, 20, 24)
        static let accent = RGBA(red: 0, green: 64 / 255, blue: 221 / 255)
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
        drawMessagePanel(into: &buffer)
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
            if selected { homeFocus = (textLeft, textRow) }
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
    /// lists them in, its main gestures first), joined by `separator`; the first that does not fit is left out and
    /// the line ends with "…" (or "..." in ASCII) — a key without the word that says what it does ("enter space…")
    /// tells nobody anything. Only a first hint wider than the line is cut, at a word boundary. O(length).
    static func statusHints(_ hints: [String], separator: String, width: Int, ascii: Bool) -> String {
        let ellipsis = ascii ? "..." : "…"
        var line = ""
        for hint in hints {
            let prefix = line.isEmpty ? "" : separator
            if GlyphMapper.columns(of: line + prefix + hint) <= width {
                line += prefix + hint
                continue
            }
            // Whole words of the first hint while they and the ellipsis fit; a later hint is left out whole.
            var cut = ""
            for word in hint.split(separator: " ") where line.isEmpty {
                let candidate = cut.isEmpty ? String(word) : cut + " " + word
                guard GlyphMapper.columns(of: line + prefix + candidate + ellipsis) <= width else { break }
                cut = candidate
            }
            if !cut.isEmpty {
                line += prefix + cut + ellipsis
            } else if !line.isEmpty && GlyphMapper.columns(of: line + " " + ellipsis) <= width {
                line += " " + ellipsis
            }
            break
        }
        return line
    }

    /// A scene's keys in the order the status line shows them: the scene's own letter and digit keys first (`s`,
    /// `p`, `r`, `1–9`: what nobody guesses), then the rest in the scene's order (arrows, tab and enter, which every
    /// user tries). Stable.
    static func statusOrder(_ help: [KeyHelp]) -> [KeyHelp] {
        func isOwn(_ entry: KeyHelp) -> Bool {
            entry.names.contains { $0.count == 1 && ($0.first?.isLetter == true || $0.first?.isNumber == true) }
        }
        return help.filter(isOwn) + help.filter { !isOwn($0) }
    }

    /// The bottom row: the scene's title and its keys on the left — in full when they all fit, else each key with
    /// its `short` word, the scene's own keys first (`statusOrder`), cut at a word boundary with "…" — and `? keys
    /// q back` (`q quit` on the home screen) on the right, both clickable (`statusTargets`). In monochrome
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
        var shortKeys: [String]
        if let descriptor = sceneDescriptor {
            title = descriptor.title
            let help = Self.statusOrder(descriptor.keyHelp)
            keys = help.map { "\($0.keys) \($0.summary)" }
            shortKeys = help.map { "\($0.keys) \($0.short)" }
        } else {
            title = "Cardistry"
            keys = ["enter open", "↑↓ choose", "1–\(configuration.catalog.names.count) open"]
            shortKeys = keys
        }
        // A message that fits shows here; a longer one in the panel above (`drawMessagePanel`), the keys here.
        let message = panelMessage == nil ? self.message ?? stateProblem ?? saveFault : nil
        if let message {
            keys = [message]
            shortKeys = keys
        }
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
        // Two columns between the hints and "? keys": one would read as one phrase ("close ? keys").
        let width = max(0, rightStart - 2 - column)
        // Every hint in full when they all fit, else every hint in brief ("s sort"), cut at the end if need be.
        let full = keys.map(clean).joined(separator: separator)
        let line =
            GlyphMapper.columns(of: full) <= width
            ? full : Self.statusHints(shortKeys.map(clean), separator: separator, width: width, ascii: ascii)
        column = buffer.put(
            line, column: column, row: row, foreground: message == nil ? Chrome.statusForeground : Chrome.statusAccent,
            attributes: base, maxColumn: rightStart - 1)
        buffer.put(
            clean(right), column: rightStart, row: row, foreground: Chrome.statusForeground, attributes: base)
    }

    /// A message (a scene that could not open, a state that was not restored) longer than the status line has room
    /// for, in full: wrapped at word boundaries in a panel just above the status line, in the status line's colours,
    /// until the next input. The status line itself shows as much as fits. Nothing when the message fits.
    func drawMessagePanel(into buffer: inout CellBuffer) {
        guard let text = panelMessage else { return }
        let lines = HelpLayout.wrap(text, width: columns - 2)
        let shown = lines.prefix(max(0, min(lines.count, contentRows)))
        let base: CellAttributes = configuration.monochrome ? [.reverse] : []
        for (index, line) in shown.enumerated() {
            let row = rows - 1 - shown.count + index
            for column in 0..<columns {
                buffer[column, row] = Cell(
                    " ", foreground: Chrome.statusAccent, background: Chrome.statusBackground, attributes: base)
            }
            buffer.put(line, column: 1, row: row, foreground: Chrome.statusAccent, attributes: base, maxColumn: columns)
            buffer.repairWideCharacters(row: row)
        }
    }

    /// The message to show, as displayed, when it is too long for the status line; nil when there is none or it fits.
    var panelMessage: String? {
        guard let message = message ?? stateProblem ?? saveFault, columns >= 4 else { return nil }
        let text = GlyphMapper.displayed(message, decoration: configuration.ascii, encoding: configuration.encoding)
        let title = GlyphMapper.displayed(
            sceneDescriptor?.title ?? "Cardistry", decoration: configuration.ascii, encoding: configuration.encoding)
        let room = statusTargets().help.lowerBound - GlyphMapper.columns(of: title) - 3
        return GlyphMapper.columns(of: text) > room ? text : nil
    }

    /// The help overlay's geometry: the box and its lines split into pages (`HelpLayout`).
    func helpLayout() -> HelpLayout {
        var entries: [(String, String)]
        if let descriptor = sceneDescriptor {
            entries = descriptor.keyHelp.map { ($0.keys, $0.summary) }
            entries += descriptor.pointerHelp.map { ($0.keys, $0.summary) }
        } else {
            let count = configuration.catalog.names.count
            entries = [
                ("↑ ↓ tab", "choose a scene"), ("enter space", "open it"), ("1–\(count)", "open scene 1–\(count)"),
            ]
        }
        // The pointer in general, where the scene does not say what it does with it.
        if sceneDescriptor?.pointerHelp.isEmpty ?? true {
            entries += [
                ("click", "tap"), ("hold", "long press"), ("drag", "drag, swipe, reorder"), ("wheel", "scroll, pull"),
            ]
        }
        entries += [
            ("?", "show or hide these keys"), ("q Esc", "back (quit on the home screen)"), ("Ctrl-C", "quit"),
            ("Ctrl-Z", "suspend"),
        ]
        let ascii = configuration.ascii
        let encoding = configuration.encoding
        let cleaned = entries.map {
            (
                GlyphMapper.displayed($0.0, decoration: ascii, encoding: encoding),
                GlyphMapper.displayed($0.1, decoration: ascii, encoding: encoding)
            )
        }
        return HelpLayout(entries: cleaned, columns: columns, rows: contentRows)
    }

    /// The `?` overlay: every key of the screen and the mouse gestures, in a box in the middle. Nothing is dropped:
    /// a key or a summary wider than its column wraps at word boundaries, and keys that do not fit the screen's
    /// rows go on further pages ("Keys 1/2", space for the next).
    func drawHelp(into buffer: inout CellBuffer) {
        let layout = helpLayout()
        let page = min(helpPage, layout.pages.count - 1)
        let (left, top, width, height) = (layout.left, layout.top, layout.width, layout.height)
        guard width >= 3, height >= 3 else { return }
        let glyphs = configuration.ascii ? BoxGlyphs.ascii : BoxGlyphs.rounded
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
        let title = layout.pages.count > 1 ? " Keys \(page + 1)/\(layout.pages.count) " : " Keys "
        buffer.put(
            title, column: left + 2, row: top, foreground: Chrome.helpBorder, attributes: [.bold],
            maxColumn: left + width - 1)
        for (index, line) in layout.pages[page].enumerated() {
            let row = top + layout.firstLineOffset + index
            buffer.put(
                line.key, column: left + 2, row: row, foreground: Chrome.helpBorder, attributes: [.bold],
                maxColumn: left + 2 + layout.keyWidth)
            buffer.put(
                line.summary, column: left + 3 + layout.keyWidth, row: row, foreground: Chrome.text,
                maxColumn: left + width - 1)
        }
        if layout.pages.count > 1 {
            let hint =
                page + 1 < layout.pages.count ? " space: more · any other key: close " : " ↑: back · any key: close "
            let text = GlyphMapper.displayed(hint, decoration: configuration.ascii, encoding: configuration.encoding)
            let column = max(left + 1, left + width - 1 - GlyphMapper.columns(of: text))
            buffer.put(
                text, column: column, row: top + height - 1, foreground: Chrome.helpBorder,
                maxColumn: left + width - 1)
        }
        // The box's edges may have cut wide characters of the scene in two.
        for row in top..<(top + height) { buffer.repairWideCharacters(row: row) }
    }
}

/// Where the help overlay's lines go: a key column (at most 24 columns) and a summary column, each wrapped at
/// word boundaries, in a box centred in the content rows, split into pages when the lines outnumber the rows.
/// An entry's lines stay on one page when they fit one. O(characters of the entries).
struct HelpLayout {
    /// One row of the overlay: a piece of a key's label and a piece of its summary (either may be empty).
    struct Line: Equatable {
        var key: String
        var summary: String
    }

    var keyWidth: Int
    var left: Int
    var top: Int
    var width: Int
    var height: Int
    /// Rows between the box's top edge and its first line.
    var firstLineOffset: Int
    /// The lines of each page; never empty (a page may be).
    var pages: [[Line]]

    init(entries: [(key: String, summary: String)], columns: Int, rows: Int) {
        let keyNatural = entries.map { GlyphMapper.columns(of: $0.key) }.max() ?? 0
        let summaryNatural = entries.map { GlyphMapper.columns(of: $0.summary) }.max() ?? 0
        // Borders, a column of margin each side, and one between the columns.
        let available = max(0, columns - 5)
        keyWidth = max(1, min(keyNatural, 24, available / 2))
        let summaryWidth = max(1, min(summaryNatural, available - keyWidth))
        width = min(columns, max(24, keyWidth + summaryWidth + 5))
        var lines: [[Line]] = []
        for entry in entries {
            let keys = Self.wrap(entry.key, width: keyWidth)
            let summaries = Self.wrap(entry.summary, width: summaryWidth)
            lines.append(
                (0..<max(keys.count, summaries.count)).map { index in
                    Line(
                        key: index < keys.count ? keys[index] : "",
                        summary: index < summaries.count ? summaries[index] : "")
                })
        }
        // A blank row under the top edge when the screen has room for it.
        let total = lines.reduce(0) { $0 + $1.count }
        firstLineOffset = rows >= total + 4 ? 2 : 1
        let perPage = max(1, rows - firstLineOffset - 1)
        var pages: [[Line]] = [[]]
        for entry in lines {
            if let last = pages.last, !last.isEmpty, last.count + entry.count > perPage { pages.append([]) }
            for line in entry {
                if let last = pages.last, last.count >= perPage { pages.append([]) }
                pages[pages.count - 1].append(line)
            }
        }
        self.pages = pages
        let tallest = pages.map(\.count).max() ?? 0
        height = min(rows, tallest + firstLineOffset + 1 + (firstLineOffset == 2 ? 1 : 0))
        left = max(0, (columns - width) / 2)
        top = max(0, (rows - height) / 2)
    }

    /// `text` in lines of at most `width` columns: the engine's own word wrap (`TextLayout.lines`: broken at spaces,
    /// a word wider than a line between grapheme clusters), measured in columns. Empty text is no line.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard !text.isEmpty else { return [] }
        let columns = CellTextMeasurer(scale: CellScale(pointsPerColumn: 1, pointsPerRow: 1), ascii: false)
        return TextLayout.lines(text, width: Double(max(1, width)), style: .body, weight: .regular, measurer: columns)
    }
}
