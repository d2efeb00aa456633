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
/// line characters. Everything is clipped to the buffer and to `rows`. The two copies of a matched element in
/// flight are drawn as one, cross-fading (`MatchedFlights`).
///
/// The work is split by concern: this file walks the frame (clips, the one box decision `isBoxed`, the order of a
/// node's layers); `Rasterizer+Geometry.swift` turns points into cell extents and visits cells within the clip;
/// `Rasterizer+Boxes.swift` paints shadows, fills, boxes, lines and the focus emphasis; `Rasterizer+Text.swift`
/// sets text; `Rasterizer+ScrollIndicator.swift` and `SubCell.swift` draw scroll thumbs and sub-cell edges.
///
/// Complexity: O(cells covered) per node, so O(nodes + covered cells) per frame.
public struct Rasterizer: Sendable {
    /// How points map to cells.
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

    /// A rasteriser with the given options (see each property).
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
        // A matched element in flight is drawn once, cross-fading (`MatchedFlights`).
        let flights = MatchedFlights(frame: frame)
        for node in flights.isEmpty ? frame.nodes : flights.paintOrder(of: frame.nodes) {
            // A copy in flight is clipped by no container (as the engine paints the leaving one as a root).
            let inherited = flights.isFlying(node.id) ? everything : node.parent.flatMap { clips[$0] } ?? everything
            context.clip = inherited
            context.parent = node.parent.flatMap { placed[$0] }
            context.textAlternatives = flights.labelColours[node.id] ?? []
            let extent = context.extent(
                of: node, moving: flights.isFlying(node.id) ? .still : motion.direction(of: node))
            if let extent, !extent.edges.isEmpty, node.fill != nil { drewEdges = true }
            context.paint(node, extent: extent, pulse: pulses[node.id] ?? 0, into: &buffer)
            var own = inherited
            if let extent {
                placed[node.id] = PaintContext.Placement(extent: extent, origin: context.visualOrigin(of: node))
                // A box's children paint inside its border; a leaning box's inside is no rectangle of cells, so its
                // children are clipped to its cells only when it clips its content.
                let boxed = PaintContext.isBoxed(node, extent: extent) && extent.shearPerPoint == 0
                let inset = boxed ? 1 : 0
                if (node.clipsContent || boxed) && !flights.isFlying(node.id) {
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

extension PaintContext {
    /// Whether `node` is drawn as a box: its fill outlined with box-drawing glyphs (a card, or a filled node with a
    /// stroke), visible (opacity above 1 %), not a line, and at least 3 × 3 cells. The one answer the fill, the
    /// focus emphasis, the text's inset and the clip of the node's children all use (they asked three slightly
    /// different questions, and only the clip's checked opacity and shear).
    static func isBoxed(_ node: FrameNode, extent: Extent) -> Bool {
        let opacity = node.opacity.isFinite ? node.opacity : 0
        return node.fill != nil && (node.role == .card || node.stroke != nil) && opacity > 0.01
            && !extent.isHorizontalLine && !extent.isVerticalLine && extent.right - extent.left >= 3
            && extent.bottom - extent.top >= 3
    }

    /// Paints `node` in its cells `extent` (`extent(of:)`; nil: nowhere on the grid).
    mutating func paint(_ node: FrameNode, extent: Extent?, pulse: Double, into buffer: inout CellBuffer) {
        let opacity = node.opacity.isFinite ? min(max(node.opacity, 0), 1) : 0
        guard opacity > 0.01, let extent else { return }
        let boxed = Self.isBoxed(node, extent: extent)
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
                paintFill(
                    color: color, alpha: alpha, outline: node.stroke.map(RGB8.init), boxed: boxed,
                    rounded: node.cornerRadius >= 4, bold: pulse > 0, extent: extent, into: &buffer)
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
            emphasizeOutline(
                extent: extent, boxed: boxed, ring: RGB8(node.stroke ?? .black), alpha: opacity, into: &buffer)
        }
        if !node.text.isEmpty {
            var texts = node.text
            // A symbol run (every run of an icon) is an SF Symbols name: draw one glyph, not the name.
            for index in texts.indices where texts[index].run.isSymbol && texts[index].rollingFrom == nil {
                texts[index].run.text = SymbolGlyphs.glyph(for: texts[index].run.text, ascii: ascii)
            }
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
                texts, opacity: opacity, atTop: cardTextAtTop && node.role == .card, outlined: boxed,
                extent: textExtent, into: &buffer)
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
