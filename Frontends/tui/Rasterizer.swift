import CardEngine
import CardGeometry
import Foundation

/// Draws an engine `Frame` into a `CellBuffer`.
///
/// Points map to cells through `scale` (see `CellScale`). Each node is painted in frame order (the engine's paint
/// order: depth-first through the view tree), clipped to the cells of every ancestor that clips its content: its
/// shadow as cells dimmed towards the shadow colour, shifted down and right; its fill
/// blended over what is below with the node's opacity (so fading nodes blend towards the background); cards and
/// stroked nodes get a box outline (rounded corners when the corner radius is set, ASCII with `ascii`); its text
/// runs laid out inside. Scale applies about the centre; rotation is approximated by shearing rows sideways by
/// `−dy · sin θ` (a rotated card leans the right way and keeps its rows). Nodes thinner than half a cell become
/// line characters. Everything is clipped to the buffer and to `rows`.
///
/// Complexity: O(cells covered) per node, so O(nodes + covered cells) per frame.
public struct Rasterizer: Sendable {
    public var scale: CellScale
    /// Avoid box-drawing and other ambiguous-width characters in decoration (the text of runs is kept, but for
    /// typographic punctuation, see `GlyphMapper.decorationLookAlikes`).
    public var ascii: Bool
    /// What the terminal can show: with `.ascii`, text is transliterated (`GlyphMapper.transliterated`).
    public var encoding: TextEncoding
    /// No colour will show (`NO_COLOR`): what colour alone tells gets another cue — bars are drawn with shade
    /// glyphs (█ ▓ ░, a heavy ━ for a strong line) and the status line reverse video. (A focused card's outline is
    /// heavy and bold in every mode.)
    public var monochrome: Bool
    /// The colour behind every node (the seeds' white system background).
    public var page: RGBA

    /// Puts a card's text on its first inner row instead of centring it (for overlapping stacks, where only the
    /// top edge of most cards shows).
    public var cardTextAtTop: Bool
    /// Draws the leading edge of a moving node at a fraction of a cell (block elements in eighths), when `render`
    /// is given the previous frame. Off with `ascii`, and for terminals without colour (the partial blocks are
    /// drawn in the fill's colour against what is under it).
    public var subCell: Bool

    public init(
        scale: CellScale = CellScale(), ascii: Bool = false, page: RGBA = .white, cardTextAtTop: Bool = false,
        encoding: TextEncoding = .unicode, monochrome: Bool = false, subCell: Bool = true
    ) {
        self.scale = scale
        self.ascii = ascii
        self.encoding = encoding
        self.monochrome = monochrome
        self.page = page
        self.cardTextAtTop = cardTextAtTop
        self.subCell = subCell
    }

    /// Paints `frame` over a cleared `buffer`, in rows `0..<rows` (all rows when nil). `pulses` brightens the
    /// nodes it names by an amount in 0…1 (haptic feedback). `previous`, the frame drawn before this one, tells
    /// which nodes move (relative to their parents) and which way: with `subCell`, while the frame animates, a
    /// moving node's box is anchored at its leading edge, which is drawn at its exact position in eighths of a cell
    /// (see `SubCellEdges`).
    /// Returns whether any partial edge was drawn (then the caller draws once more, so none stays on screen).
    @discardableResult
    public func render(
        _ frame: Frame, into buffer: inout CellBuffer, rows: Int? = nil, pulses: [NodeID: Double] = [:],
        previous: Frame? = nil
    ) -> Bool {
        var drewEdges = false
        let rowLimit = min(rows ?? buffer.height, buffer.height)
        let pageColor = RGB8(page)
        let blank = Cell(" ", foreground: RGB8.black.cellColor, background: pageColor.cellColor)
        for row in 0..<rowLimit {
            for column in 0..<buffer.width { buffer.cells[row * buffer.width + column] = blank }
        }
        var context = PaintContext(
            scale: scale, glyphs: ascii ? .ascii : .rounded, square: ascii ? .ascii : .square, ascii: ascii,
            encoding: encoding, monochrome: monochrome, page: pageColor, rowLimit: rowLimit,
            cardTextAtTop: cardTextAtTop,
            clip: CellClip(left: 0, right: buffer.width, top: 0, bottom: rowLimit))
        // Each node's clip: its parent's, narrowed to the parent's cells when the parent clips its content, and to
        // the inside of the parent's box outline when it has one (a child never paints over its parent's border).
        // Frames are in depth-first order, so a parent's clip is known before its children's.
        let everything = context.clip
        var clips: [NodeID: CellClip] = [:]
        var placed: [NodeID: PaintContext.Placement] = [:]
        // Partial edges only while the engine animates: the frame that settles is drawn in whole cells, so no partial
        // edge stays on an idle screen.
        var motion = SubCellMotion(previous: subCell && !ascii && frame.isAnimating ? previous : nil)
        for node in frame.nodes {
            let inherited = node.parent.flatMap { clips[$0] } ?? everything
            context.clip = inherited
            context.parent = node.parent.flatMap { placed[$0] }
            let extent = context.extent(of: node, moving: motion.direction(of: node))
            if let extent, !extent.edges.isEmpty, node.fill != nil { drewEdges = true }
            context.paint(node, extent: extent, pulse: pulses[node.id] ?? 0, into: &buffer)
            var own = inherited
            if let extent {
                placed[node.id] = PaintContext.Placement(extent: extent, origin: context.visualOrigin(of: node))
                let boxed =
                    node.fill != nil && (node.role == .card || node.stroke != nil) && node.opacity > 0.01
                    && extent.right - extent.left >= 3 && extent.bottom - extent.top >= 3 && extent.shearPerPoint == 0
                let inset = boxed ? 1 : 0
                if node.clipsContent || boxed {
                    own = inherited.intersection(
                        CellClip(
                            left: extent.left + inset, right: extent.right - inset, top: extent.top + inset,
                            bottom: extent.bottom - inset))
                }
            }
            clips[node.id] = own
        }
        // Scroll indicators over everything, in the last column of each node that scrolls.
        for node in frame.nodes {
            guard let scroll = Self.verticalScroll(in: node.gestures), let placement = placed[node.id] else { continue }
            let clip = node.parent.flatMap { clips[$0] } ?? everything
            paintScrollIndicator(
                scroll, visible: node.rect.height, extent: placement.extent, clip: clip, into: &buffer)
        }
        // A node painted over half of a wide character leaves the other half: it becomes a space. (Only text puts
        // wide characters in the buffer, which was cleared above: without non-ASCII text, there is nothing to
        // repair.)
        let hasWideText = frame.nodes.contains { node in
            node.text.contains { !$0.run.text.utf8.allSatisfy { $0 < 0x80 } }
        }
        if hasWideText {
            for row in 0..<rowLimit { buffer.repairWideCharacters(row: row) }
        }
        return drewEdges
    }
}

/// The cells a node may paint: columns `left..<right`, rows `top..<bottom`.
struct CellClip: Sendable, Hashable {
    var left: Int
    var right: Int
    var top: Int
    var bottom: Int

    func intersection(_ other: CellClip) -> CellClip {
        CellClip(
            left: max(left, other.left), right: min(right, other.right), top: max(top, other.top),
            bottom: min(bottom, other.bottom))
    }

    func contains(column: Int, row: Int) -> Bool {
        column >= left && column < right && row >= top && row < bottom
    }
}

/// The per-frame constants of painting, and the painting of one node.
struct PaintContext {
    let scale: CellScale
    let glyphs: BoxGlyphs
    let square: BoxGlyphs
    let ascii: Bool
    let encoding: TextEncoding
    let monochrome: Bool
    let page: RGB8
    let rowLimit: Int
    let cardTextAtTop: Bool
    /// The cells the node being painted may change (its clipping ancestors' cells, the buffer, the rows).
    var clip: CellClip
    /// Where the parent of the node being painted was placed: a child's cells are counted from its parent's, so
    /// rounding never moves a child out of its box and equal sizes always take equal cells.
    var parent: Placement?

    /// A node's cells and the point its cell grid is anchored at (its top-left corner after scaling).
    struct Placement {
        var extent: Extent
        var origin: Point
    }

    /// The top-left corner of a node after its scale about the centre, in points.
    func visualOrigin(of node: FrameNode) -> Point {
        let nodeScale = node.scale.isFinite ? max(0, node.scale) : 1
        let rect = node.rect.standardized
        return Point(x: rect.center.x - rect.width * nodeScale / 2, y: rect.center.y - rect.height * nodeScale / 2)
    }

    /// The cell extent of a node: rows `top..<bottom`, columns `left..<right` before shearing.
    struct Extent {
        var left: Int
        var right: Int
        var top: Int
        var bottom: Int
        var centerY: Double
        var shearPerPoint: Double
        var isHorizontalLine: Bool
        var isVerticalLine: Bool
        /// The fill beyond the box on the side the node moves to, in eighths of a cell (0: none): at the bottom of
        /// row `top − 1`, the top of row `bottom`, the right of column `left − 1`, the left of column `right`.
        var edges = SubCellEdges()

        /// The column shift of `row` (rotation approximated as a shear about the node's centre).
        func shift(_ row: Int, scale: CellScale) -> Int {
            guard shearPerPoint != 0 else { return 0 }
            let dy = (Double(row) + 0.5) * scale.pointsPerRow - centerY
            let value = -dy * shearPerPoint / scale.pointsPerColumn
            return value.isFinite ? Int(value.rounded()) : 0
        }
    }

    func extent(of node: FrameNode, moving direction: SubCellMotion.Direction = .still) -> Extent? {
        let nodeScale = node.scale.isFinite ? max(0, node.scale) : 1
        let rect = node.rect.standardized
        let width = rect.width * nodeScale
        let height = rect.height * nodeScale
        let center = rect.center
        guard width.isFinite, height.isFinite, center.x.isFinite, center.y.isFinite, width > 0 || height > 0,
            abs(center.x) < 1e7, abs(center.y) < 1e7, width < 1e7, height < 1e7
        else { return nil }
        let sx = scale.pointsPerColumn
        let sy = scale.pointsPerRow
        // The position rounds to the nearest cell (from the parent's cells when there is a parent) and the size
        // separately, so that nodes of one size take the same number of cells wherever they are.
        let originX = center.x - width / 2
        let originY = center.y - height / 2
        var left: Int
        var top: Int
        if let parent {
            left = parent.extent.left + Int(((originX - parent.origin.x) / sx).rounded())
            top = parent.extent.top + Int(((originY - parent.origin.y) / sy).rounded())
        } else {
            left = Int((originX / sx).rounded())
            top = Int((originY / sy).rounded())
        }
        var right = left + Int((width / sx).rounded())
        var bottom = top + Int((height / sy).rounded())
        // Nodes thinner than half a cell are lines (hairlines, slider tracks), drawn with line characters.
        let horizontalLine = height < sy / 2
        let verticalLine = !horizontalLine && width < sx / 2
        if bottom <= top || horizontalLine {
            top = Int((center.y / sy).rounded(.down))
            bottom = top + 1
        }
        if right <= left || verticalLine {
            left = Int((center.x / sx).rounded(.down))
            right = left + 1
        }
        let radians = node.rotation.isFinite ? node.rotation * .pi / 180 : 0
        var extent = Extent(
            left: left, right: right, top: top, bottom: bottom, centerY: center.y, shearPerPoint: sin(radians),
            isHorizontalLine: horizontalLine, isVerticalLine: verticalLine)
        if direction != .still, !horizontalLine, !verticalLine, radians == 0 {
            // The exact edges in cells, counted like the box (from the parent's cells when there is one).
            let x0 = parent.map { Double($0.extent.left) + (originX - $0.origin.x) / sx } ?? originX / sx
            let y0 = parent.map { Double($0.extent.top) + (originY - $0.origin.y) / sy } ?? originY / sy
            extent.anchor(
                exactLeft: x0, exactRight: x0 + width / sx, exactTop: y0, exactBottom: y0 + height / sy,
                moving: direction)
        }
        return extent
    }

    /// Paints `node` in its cells `extent` (`extent(of:)`; nil: nowhere on the grid).
    mutating func paint(_ node: FrameNode, extent: Extent?, pulse: Double, into buffer: inout CellBuffer) {
        let opacity = node.opacity.isFinite ? min(max(node.opacity, 0), 1) : 0
        guard opacity > 0.01, let extent else { return }
        // A slider's knob is one glyph (`paintThumb`): the shadow of its whole rect was a grey block beside it.
        if let shadow = node.shadow, node.fill != nil, node.role != .sliderThumb, !extent.isHorizontalLine,
            !extent.isVerticalLine
        {
            paintShadow(shadow, extent: extent, opacity: opacity, into: &buffer)
        }
        if let fill = node.fill {
            var color = RGB8(fill)
            if pulse > 0 {
                let target = color.luminance > 160 ? RGB8(red: 255, green: 200, blue: 0) : RGB8.white
                color = target.over(color, alpha: 0.55 * min(pulse, 1))
            }
            let alpha = (fill.alpha.isFinite ? min(max(fill.alpha, 0), 1) : 0) * opacity
            if monochrome && node.role == .bar {
                paintMonochromeBar(color: color, alpha: alpha, extent: extent, into: &buffer)
            } else if extent.isHorizontalLine || extent.isVerticalLine {
                paintLine(color: color, alpha: alpha, extent: extent, into: &buffer)
            } else if node.role == .sliderThumb {
                paintThumb(color: color, alpha: alpha, extent: extent, into: &buffer)
            } else {
                let outlined = node.role == .card || node.stroke != nil
                paintFill(
                    color: color, alpha: alpha, outline: outlined ? node.stroke.map(RGB8.init) : nil,
                    outlined: outlined, rounded: node.cornerRadius >= 4, bold: pulse > 0, extent: extent,
                    into: &buffer)
                if !extent.edges.isEmpty {
                    paintEdges(
                        color: color, alpha: alpha, rounded: node.cornerRadius >= 4, extent: extent, into: &buffer)
                }
            }
        } else if let stroke = node.stroke, !extent.isHorizontalLine, !extent.isVerticalLine {
            paintOutlineOnly(
                color: RGB8(stroke), alpha: opacity, rounded: node.cornerRadius >= 4, extent: extent,
                into: &buffer)
        } else if let stroke = node.stroke {
            paintLine(color: RGB8(stroke), alpha: opacity, extent: extent, into: &buffer)
        }
        if node.role == .card, node.stroke != nil, !extent.isHorizontalLine, !extent.isVerticalLine {
            emphasizeOutline(extent: extent, ring: RGB8(node.stroke ?? .black), alpha: opacity, into: &buffer)
        }
        if !node.text.isEmpty {
            var texts = node.text
            // A symbol run (every run of an icon) is an SF Symbols name: draw one glyph, not the name.
            for index in texts.indices where texts[index].run.isSymbol && texts[index].rollingFrom == nil {
                texts[index].run.text = SymbolGlyphs.glyph(for: texts[index].run.text, ascii: ascii)
            }
            let outlined =
                node.fill != nil && (node.role == .card || node.stroke != nil)
                && extent.right - extent.left >= 3 && extent.bottom - extent.top >= 3
            // A tick label is centred on its tick and never cut: one narrower than its text (the slider's "10" at
            // 60x20 showed as "1…") takes the columns it needs on both sides.
            var textExtent = extent
            if node.role == .tick, texts.count == 1 {
                // The whole label, not the line the engine cut to the node's width.
                texts[0].lines = [texts[0].run.text]
                let grow = GlyphMapper.columns(of: texts[0].run.text) - (extent.right - extent.left)
                if grow > 0 {
                    textExtent.left -= grow / 2
                    textExtent.right += grow - grow / 2
                }
            }
            paintText(
                texts, opacity: opacity, atTop: cardTextAtTop && node.role == .card, outlined: outlined,
                extent: textExtent, into: &buffer)
        }
    }

    private func visit(
        _ extent: Extent, offsetColumns: Int = 0, offsetRows: Int = 0, into buffer: inout CellBuffer,
        _ body: (inout Cell, _ column: Int, _ row: Int) -> Void
    ) {
        let top = max(extent.top + offsetRows, 0, clip.top)
        let bottom = min(extent.bottom + offsetRows, rowLimit, clip.bottom)
        guard top < bottom else { return }
        let width = buffer.width
        let clip = self.clip
        buffer.cells.withUnsafeMutableBufferPointer { cells in
            for row in top..<bottom {
                let shift = extent.shift(row - offsetRows, scale: scale) + offsetColumns
                let left = max(extent.left + shift, 0, clip.left)
                let right = min(extent.right + shift, width, clip.right)
                guard left < right else { continue }
                for column in left..<right {
                    body(&cells[row * width + column], column - shift, row - offsetRows)
                }
            }
        }
    }

    /// A shadow: the node's cells shifted down and right (by at least a column, at most three columns and two
    /// rows, so it shows and stays near), blended towards the shadow colour. Its blur falls off softly: a cell's
    /// coverage is the product of two linear ramps across `radius / 2` points on each side of the shifted edges
    /// (a Gaussian blur of standard deviation `radius / 2`, SwiftUI's `shadow(radius:)`, approximated by its
    /// tangent at the edge), so the shadow fades over a cell or two instead of ending in a hard step.
    private func paintShadow(_ shadow: Shadow, extent: Extent, opacity: Double, into buffer: inout CellBuffer) {
        let sx = scale.pointsPerColumn
        let sy = scale.pointsPerRow
        let radius = shadow.radius.isFinite ? min(max(0, shadow.radius), 1000) : 0
        let dx = shadow.offset.dx.isFinite ? shadow.offset.dx : 0
        let dy = shadow.offset.dy.isFinite ? shadow.offset.dy : 0
        let columns = min(3, max(1, Int(((dx + radius / 2) / sx).rounded())))
        let rows = min(2, max(0, Int(((dy + radius / 2) / sy).rounded())))
        let color = RGB8(shadow.color)
        let alpha = (shadow.color.alpha.isFinite ? min(max(shadow.color.alpha, 0), 1) : 0) * opacity
        guard alpha > 0.01 else { return }
        // The blur's half-width in cells; under a quarter of a cell the edge stays hard (as before blur existed).
        let blurColumns = ascii ? 0 : radius / 2 / sx
        let blurRows = ascii ? 0 : radius / 2 / sy
        let reachColumns = blurColumns >= 0.25 ? min(2, Int(blurColumns.rounded(.up))) : 0
        let reachRows = blurRows >= 0.25 ? min(1, Int(blurRows.rounded(.up))) : 0
        let left = Double(extent.left + columns)
        let right = Double(extent.right + columns)
        let top = Double(extent.top + rows)
        let bottom = Double(extent.bottom + rows)
        /// How much of a cell centred at `center` the blurred span `low..<high` covers (0…1).
        func ramp(_ center: Double, _ low: Double, _ high: Double, blur: Double) -> Double {
            let inside = min(center - low, high - center)
            guard blur >= 0.25 else { return inside > 0 ? 1 : 0 }
            return min(max(0.5 + inside / (2 * blur), 0), 1)
        }
        var spread = extent
        spread.left -= reachColumns
        spread.right += reachColumns
        spread.top -= reachRows
        spread.bottom += reachRows
        var backgrounds = Blender(color: color, alpha: alpha, fallback: page)
        var foregrounds = Blender(color: color, alpha: alpha, fallback: .black)
        let page = self.page
        visit(spread, offsetColumns: columns, offsetRows: rows, into: &buffer) { cell, column, row in
            let coverage =
                ramp(Double(column + columns) + 0.5, left, right, blur: blurColumns)
                * ramp(Double(row + rows) + 0.5, top, bottom, blur: blurRows)
            // Under 4 % the shadow changes a colour by a few levels at most: invisible, but it would make every
            // cell it touches change as the shadow moves (bytes for nothing).
            guard alpha * coverage >= 0.04 else { return }
            if coverage >= 0.999 {
                cell.background = backgrounds.blend(cell.background)
                cell.foreground = foregrounds.blend(cell.foreground)
            } else {
                cell.background = color.over(RGB8(cell.background, fallback: page), alpha: alpha * coverage).cellColor
                cell.foreground = color.over(RGB8(cell.foreground, fallback: .black), alpha: alpha * coverage).cellColor
            }
        }
    }

    /// A slider thumb: a knob character at the node's centre cell, dark so it shows on light tracks.
    private func paintThumb(color: RGB8, alpha: Double, extent: Extent, into buffer: inout CellBuffer) {
        let row = (extent.top + extent.bottom - 1) / 2
        let column = (extent.left + extent.right - 1) / 2 + extent.shift(row, scale: scale)
        guard row >= 0, row < rowLimit, buffer.contains(column: column, row: row),
            clip.contains(column: column, row: row)
        else { return }
        let index = row * buffer.width + column
        let under = RGB8(buffer.cells[index].background, fallback: page)
        let knob = color.luminance > 160 ? RGB8(red: 60, green: 60, blue: 67) : color
        buffer.cells[index].character = ascii ? "O" : "●"
        buffer.cells[index].foreground = knob.over(under, alpha: alpha).cellColor
        buffer.cells[index].attributes = [.bold]
    }

    private func paintLine(color: RGB8, alpha: Double, extent: Extent, into buffer: inout CellBuffer) {
        let character = extent.isVerticalLine ? glyphs.vertical : glyphs.horizontal
        let page = self.page
        visit(extent, into: &buffer) { cell, _, _ in
            let under = RGB8(cell.background, fallback: page)
            cell.character = character
            cell.foreground = color.over(under, alpha: alpha).cellColor
            cell.attributes = []
        }
    }

    private func paintFill(
        color: RGB8, alpha: Double, outline: RGB8?, outlined: Bool, rounded: Bool, bold: Bool, extent: Extent,
        into buffer: inout CellBuffer
    ) {
        let boxed = outlined && extent.right - extent.left >= 3 && extent.bottom - extent.top >= 3
        let edge =
            outline
            ?? (color.luminance > 128
                ? RGB8.black.over(color, alpha: 0.35)
                : RGB8.white.over(color, alpha: 0.45))
        let glyphs = rounded ? self.glyphs : square
        let page = self.page
        let opaque = alpha >= 0.999
        // Opaque fills store precomputed colours; translucent ones blend, remembering the last colour blended
        // (neighbouring cells mostly share what is under them).
        let opaqueFill = color.cellColor
        let opaqueEdge = edge.cellColor
        var backgrounds = Blender(color: color, alpha: alpha, fallback: page)
        var edges = Blender(color: edge, alpha: alpha, fallback: page)
        var foregrounds = Blender(color: color, alpha: alpha, fallback: .black)
        visit(extent, into: &buffer) { cell, column, row in
            let under = cell.background
            cell.background = opaque ? opaqueFill : backgrounds.blend(under)
            var glyph: Glyph?
            if boxed {
                let top = row == extent.top
                let bottom = row == extent.bottom - 1
                let left = column == extent.left
                let right = column == extent.right - 1
                if top || bottom || left || right {
                    switch (top, bottom, left, right) {
                    case (true, _, true, _): glyph = glyphs.topLeft
                    case (true, _, _, true): glyph = glyphs.topRight
                    case (_, true, true, _): glyph = glyphs.bottomLeft
                    case (_, true, _, true): glyph = glyphs.bottomRight
                    case (true, _, _, _), (_, true, _, _): glyph = glyphs.horizontal
                    default: glyph = glyphs.vertical
                    }
                }
            }
            if let glyph {
                cell.character = glyph
                cell.foreground = opaque ? opaqueEdge : edges.blend(under)
                cell.attributes = bold ? [.bold] : []
            } else if opaque {
                cell.character = " "
                cell.foreground = opaqueFill
                cell.attributes = []
            } else if alpha >= 0.5 {
                // A mostly opaque fill hides the text under it: a glyph cannot be 90 % covered, only kept or not,
                // and a kept one reads as part of the text painted on top ("12 cards" + "ts" below).
                cell.character = " "
                cell.foreground = foregrounds.blend(cell.foreground)
                cell.attributes = []
            } else {
                cell.foreground = foregrounds.blend(cell.foreground)
            }
        }
    }

    private func paintOutlineOnly(
        color: RGB8, alpha: Double, rounded: Bool, extent: Extent, into buffer: inout CellBuffer
    ) {
        guard extent.right - extent.left >= 2, extent.bottom - extent.top >= 2 else { return }
        let glyphs = rounded ? self.glyphs : square
        let page = self.page
        visit(extent, into: &buffer) { cell, column, row in
            let top = row == extent.top
            let bottom = row == extent.bottom - 1
            let left = column == extent.left
            let right = column == extent.right - 1
            guard top || bottom || left || right else { return }
            switch (top, bottom, left, right) {
            case (true, _, true, _): cell.character = glyphs.topLeft
            case (true, _, _, true): cell.character = glyphs.topRight
            case (_, true, true, _): cell.character = glyphs.bottomLeft
            case (_, true, _, true): cell.character = glyphs.bottomRight
            case (true, _, _, _), (_, true, _, _): cell.character = glyphs.horizontal
            default: cell.character = glyphs.vertical
            }
            cell.foreground = color.over(RGB8(cell.background, fallback: page), alpha: alpha).cellColor
            cell.attributes = []
        }
    }

    /// A bar without colour (`monochrome`): a shade glyph per cell by its opacity (█ from ¾, ▓ from ⅜, else ░),
    /// or for a bar one line thin a heavy ━ when its colour is strong (a slider's filled part) and a light ─ when
    /// it is pale (the track). ASCII: # = . and = -.
    private func paintMonochromeBar(color: RGB8, alpha: Double, extent: Extent, into buffer: inout CellBuffer) {
        let glyph: Glyph
        if extent.isHorizontalLine || extent.isVerticalLine {
            let strong = color.luminance < 160 && alpha >= 0.5
            switch (extent.isVerticalLine, strong) {
            case (false, true): glyph = ascii ? "=" : "━"
            case (false, false): glyph = ascii ? "-" : "─"
            case (true, true): glyph = ascii ? "#" : "┃"
            case (true, false): glyph = ascii ? "|" : "│"
            }
        } else if alpha >= 0.75 {
            glyph = ascii ? "#" : "█"
        } else if alpha >= 0.375 {
            glyph = ascii ? "=" : "▓"
        } else {
            glyph = ascii ? "." : "░"
        }
        visit(extent, into: &buffer) { cell, _, _ in
            cell.character = glyph
            cell.foreground = CellColor.terminalDefault
            cell.attributes = []
        }
    }

    /// A focused (stroked) card: its outline's glyphs heavy (━ ┃ ┏ ┓ ┗ ┛; ASCII = # #) and bold, so the focus shows
    /// by weight as well as by its colour (which the scenes choose with ≥ 3:1 contrast against the card and the
    /// page), and without colour at all (`monochrome`).
    ///
    /// A card too short or narrow for a box (a two-row card at 60x20) gets heavy bars down its first and
    /// last columns instead, in its ring colour `ring`: before, such a card showed no focus at all.
    private func emphasizeOutline(extent: Extent, ring: RGB8, alpha: Double, into buffer: inout CellBuffer) {
        guard extent.right - extent.left >= 3, extent.bottom - extent.top >= 3 else {
            guard extent.right - extent.left >= 2 else { return }
            let bar: Glyph = ascii ? "#" : "┃"
            var foregrounds = Blender(color: ring, alpha: alpha, fallback: page)
            visit(extent, into: &buffer) { cell, column, _ in
                guard column == extent.left || column == extent.right - 1 else { return }
                cell.character = bar
                cell.foreground = alpha >= 0.999 ? ring.cellColor : foregrounds.blend(cell.background)
                cell.attributes = [.bold]
            }
            return
        }
        let heavy: [Glyph: Glyph] = [
            "─": "━", "│": "┃", "╭": "┏", "┌": "┏", "╮": "┓", "┐": "┓", "╰": "┗", "└": "┗", "╯": "┛", "┘": "┛",
            "-": "=", "|": "#", "+": "#",
        ]
        visit(extent, into: &buffer) { cell, column, row in
            guard row == extent.top || row == extent.bottom - 1 || column == extent.left || column == extent.right - 1,
                let glyph = heavy[cell.character]
            else { return }
            cell.character = glyph
            cell.attributes.insert(.bold)
        }
    }

    /// A character (a whole grapheme cluster) of laid-out text: the columns it takes (1, or 2 for a wide
    /// character), and whether it is mid-roll (drawn dim).
    struct StyledCharacter {
        var glyph: Glyph
        var columns = 1
        var dim: Bool
    }

    /// The columns `characters` take.
    static func columns(of characters: [StyledCharacter]) -> Int {
        characters.reduce(0) { $0 + $1.columns }
    }

    /// The characters a text run shows now, grapheme cluster by grapheme cluster (`GlyphMapper.glyph`: whole
    /// clusters at their display width, zero-width ones dropped): for rolling digits (right-aligned against the old
    /// text), each position shows the old character until its progress passes ½, then the new one, dim while
    /// mid-roll.
    func characters(of text: FrameText) -> [StyledCharacter] {
        let new = Array(text.run.text)
        guard let old = text.rollingFrom.map({ Array($0) }), !text.digitProgress.isEmpty else {
            return new.compactMap { cluster in
                GlyphMapper.glyph(cluster, decoration: ascii, encoding: encoding).map {
                    StyledCharacter(glyph: $0.glyph, columns: $0.columns, dim: false)
                }
            }
        }
        let length = max(new.count, old.count)
        var result: [StyledCharacter] = []
        result.reserveCapacity(length)
        for position in 0..<length {
            let newIndex = position - (length - new.count)
            let oldIndex = position - (length - old.count)
            let progress: Double
            if newIndex >= 0, newIndex < text.digitProgress.count {
                progress = text.digitProgress[newIndex]
            } else {
                progress = text.digitProgress.min() ?? 1
            }
            let shown: Character =
                progress >= 0.5 ? (newIndex >= 0 ? new[newIndex] : " ") : (oldIndex >= 0 ? old[oldIndex] : " ")
            guard let glyph = GlyphMapper.glyph(shown, decoration: ascii, encoding: encoding) else { continue }
            result.append(
                StyledCharacter(glyph: glyph.glyph, columns: glyph.columns, dim: progress > 0.1 && progress < 0.9))
        }
        while result.first?.glyph == " " && result.count > new.count { result.removeFirst() }
        return result
    }

    /// Two runs as one: the second's text appended to the first's, its rolling digits kept aligned right.
    static func joined(_ first: FrameText, _ second: FrameText) -> FrameText {
        var run = second.run
        run.text = first.run.text + second.run.text
        run.weight = first.run.weight == .regular ? second.run.weight : first.run.weight
        guard let from = second.rollingFrom else { return FrameText(run: run) }
        let prefixCount = first.run.text.count
        return FrameText(
            run: run, rollingFrom: first.run.text + from,
            digitProgress: Array(repeating: 1, count: prefixCount) + second.digitProgress)
    }

    private func paintText(
        _ texts: [FrameText], opacity: Double, atTop: Bool, outlined: Bool, extent: Extent,
        into buffer: inout CellBuffer
    ) {
        let height = extent.bottom - extent.top
        let width = extent.right - extent.left
        var inset = outlined && height >= 3 ? 1 : 0
        var left = extent.left + (outlined ? min(2, max(0, (width - 1) / 2)) : 0)
        var right = extent.right - (outlined ? min(2, max(0, (width - 1) / 2)) : 0)
        if right <= left {
            left = extent.left
            right = extent.right
        }
        if height - 2 * inset <= 0 { inset = 0 }
        let top = extent.top + inset
        let rows = height - 2 * inset
        // A run ending in whitespace continues on the same line (SwiftUI's `Text + Text`: "Test " + "3"); other runs
        // take a line each while they fit, else share lines by alignment (leading | center | trailing).
        // Each run as the engine laid it out: a run of several lines is a group per line.
        var texts = texts
        if texts.contains(where: { $0.lines.count > 1 }) {
            texts = texts.flatMap { text -> [FrameText] in
                guard text.lines.count > 1 else { return [text] }
                return text.lines.map { line in
                    var run = text.run
                    run.text = line
                    return FrameText(run: run, lines: [line])
                }
            }
        }
        var groups: [FrameText] = []
        for text in texts {
            if let last = groups.last, last.run.text.last?.isWhitespace == true, last.rollingFrom == nil,
                text.run.alignment == last.run.alignment
            {
                groups[groups.count - 1] = Self.joined(last, text)
            } else {
                groups.append(text)
            }
        }
        var lines: [[FrameText]]
        if groups.count <= rows {
            lines = groups.map { [$0] }
        } else {
            lines = Array(repeating: [], count: max(rows, 1))
            for (index, text) in groups.enumerated() { lines[index * lines.count / groups.count].append(text) }
        }
        let firstRow = atTop ? top : top + (rows - lines.count) / 2
        for (lineIndex, line) in lines.enumerated() {
            let row = firstRow + lineIndex
            guard row >= 0, row < rowLimit, row >= clip.top, row < clip.bottom else { continue }
            let shift = extent.shift(row, scale: scale)
            // Runs sharing a line and an alignment are set one after the other, two spaces apart.
            var merged: [FrameText] = []
            for text in line {
                if let index = merged.firstIndex(where: { $0.run.alignment == text.run.alignment }) {
                    var first = merged[index]
                    first.run.text += "  "
                    merged[index] = Self.joined(first, text)
                } else {
                    merged.append(text)
                }
            }
            // Leading text first; centred and trailing text only in the room it leaves (one space apart).
            let order: [TextAlignment: Int] = [.leading: 0, .center: 1, .trailing: 2]
            merged.sort { (order[$0.run.alignment] ?? 0) < (order[$1.run.alignment] ?? 0) }
            var taken = left
            for text in merged {
                var characters = characters(of: text)
                let from = text.run.alignment == .leading ? left : (taken > left ? taken + 1 : left)
                let available = right - from
                guard available > 0 else { continue }
                var width = Self.columns(of: characters)
                if width > available {
                    // As many characters as leave a column for the ellipsis.
                    var kept = 0
                    width = 0
                    while kept < characters.count && width + characters[kept].columns <= available - 1 {
                        width += characters[kept].columns
                        kept += 1
                    }
                    characters.removeSubrange(kept...)
                    characters.append(StyledCharacter(glyph: ascii ? "." : "…", dim: false))
                    width += 1
                }
                let start: Int
                switch text.run.alignment {
                case .leading: start = left
                case .center: start = max(from, left + (right - left - width) / 2)
                case .trailing: start = right - width
                }
                taken = max(taken, start + width)
                let bold = text.run.weight != .regular || [.largeTitle, .title, .headline].contains(text.run.style)
                let color = RGB8(text.run.color)
                let alpha = (text.run.color.alpha.isFinite ? min(max(text.run.color.alpha, 0), 1) : 0) * opacity
                // The cells the text may use on this row: inside the node's text area and the buffer.
                let clipLeft = max(left + shift, 0, clip.left)
                let clipRight = min(right + shift, buffer.width, clip.right)
                var column = start + shift
                for character in characters {
                    defer { column += character.columns }
                    let wideFits = character.columns == 2 && column >= clipLeft && column + 1 < clipRight
                    for part in 0..<character.columns {
                        let cellColumn = column + part
                        guard cellColumn >= clipLeft, cellColumn < clipRight else { continue }
                        let index = row * buffer.width + cellColumn
                        let under = RGB8(buffer.cells[index].background, fallback: page)
                        if character.columns == 1 {
                            buffer.cells[index].character = character.glyph
                        } else if wideFits {
                            buffer.cells[index].character = part == 0 ? character.glyph : Cell.wideContinuation
                        } else {
                            buffer.cells[index].character = " "  // half a wide character fits: a space
                        }
                        buffer.cells[index].foreground = color.over(under, alpha: alpha).cellColor
                        var attributes: CellAttributes = bold ? [.bold] : []
                        if character.dim { attributes.insert(.dim) }
                        buffer.cells[index].attributes = attributes
                    }
                }
            }
        }
    }
}

/// Blends one colour over cell colours, remembering the last result: runs of cells over the same colour (the
/// common case) cost one comparison each.
struct Blender {
    let color: RGB8
    let alpha: Double
    let fallback: RGB8
    private var lastInput = CellColor(rawValue: .max)
    private var lastOutput = CellColor.terminalDefault

    init(color: RGB8, alpha: Double, fallback: RGB8) {
        self.color = color
        self.alpha = alpha
        self.fallback = fallback
    }

    mutating func blend(_ under: CellColor) -> CellColor {
        if under == lastInput { return lastOutput }
        lastInput = under
        lastOutput = color.over(RGB8(under, fallback: fallback), alpha: alpha).cellColor
        return lastOutput
    }
}
