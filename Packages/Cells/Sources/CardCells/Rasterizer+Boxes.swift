import CardEngine
import CardGeometry
import Foundation

/// Boxes, fills, lines, shadows and the focus emphasis: what a node paints besides its text.
extension PaintContext {
    /// A shadow: the node's cells shifted down and right (by at least a column, at most three columns and two
    /// rows, so it shows and stays near), blended towards the shadow colour. Its blur falls off softly: a cell's
    /// coverage is the product of two linear ramps across `radius / 2` points on each side of the shifted edges
    /// (a Gaussian blur of standard deviation `radius / 2`, SwiftUI's `shadow(radius:)`, approximated by its
    /// tangent at the edge), so the shadow fades over a cell or two instead of ending in a hard step.
    func paintShadow(_ shadow: Shadow, extent: Extent, opacity: Double, into buffer: inout CellBuffer) {
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
    func paintThumb(color: RGB8, alpha: Double, extent: Extent, into buffer: inout CellBuffer) {
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

    /// A line of line glyphs blended over what is below. Under half opacity a glyph already there is kept (as
    /// `paintFill` keeps glyphs under a translucent fill): a hairline fading in over a label blanked its letters.
    func paintLine(color: RGB8, alpha: Double, extent: Extent, into buffer: inout CellBuffer) {
        let character = extent.isVerticalLine ? glyphs.vertical : glyphs.horizontal
        let page = self.page
        visit(extent, into: &buffer) { cell, _, _ in
            if alpha < 0.5 && cell.character != " " { return }
            let under = RGB8(cell.background, fallback: page)
            cell.character = character
            cell.foreground = color.over(under, alpha: alpha).cellColor
            cell.attributes = []
        }
    }

    /// A fill blended over what is below; when `boxed` (`isBoxed`) its edge cells are box-drawing glyphs in
    /// `outline`, or a shade of the fill when there is none (rounded corners with `rounded`, bold with `bold`).
    func paintFill(
        color: RGB8, alpha: Double, outline: RGB8?, boxed: Bool, rounded: Bool, bold: Bool, extent: Extent,
        into buffer: inout CellBuffer
    ) {
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
            // Under a translucent box the letters that still show stay whole: its border does not take one of them
            // (a swiped flashcard fading out over the next one's prompt read "How many │ides").
            let keepsText =
                !opaque && Self.holdsText(cell)
                && Self.showsThrough(
                    foreground: foregrounds.blend(cell.foreground), background: cell.background, alpha: alpha,
                    page: page)
            if boxed && !keepsText {
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
            } else if alpha >= 0.5 && !keepsText {
                // A mostly opaque fill hides the text under it once it no longer reads: a glyph cannot be 90 %
                // covered, only kept or not, and a faint one reads as part of the text painted on top ("12 cards"
                // + "ts" below).
                cell.character = " "
                cell.foreground = foregrounds.blend(cell.foreground)
                cell.attributes = []
            } else {
                cell.foreground = foregrounds.blend(cell.foreground)
            }
        }
    }

    /// The contrast (WCAG ratio) below which a letter under a fill of half opacity or more is hidden: 1.3:1 is
    /// about what a letter behind a 75 % white veil keeps of black on white, and barely reads.
    static let showThroughContrast = 1.3

    /// Whether a letter under a translucent fill of coverage `alpha` still shows, drawn in `foreground` (blended) on
    /// `background` (blended): always below half coverage, and above it while the two contrast by
    /// `showThroughContrast`. Hiding every letter from half coverage on made a fading overlay take the labels
    /// under it away at once, at half opacity (the hero's white details over the other lines).
    static func showsThrough(foreground: CellColor, background: CellColor, alpha: Double, page: RGB8) -> Bool {
        guard alpha >= 0.5 else { return true }
        let text = RGB8(foreground, fallback: .black)
        let back = RGB8(background, fallback: page)
        return text.rgba.contrastRatio(with: back.rgba) >= showThroughContrast
    }

    func paintOutlineOnly(
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

    /// Whether `row`, over columns `left..<right` and one column either side, is inside the clip and the buffer and
    /// shows nothing but one background: room for a focus ring to pass (another card's row, text or a partial edge
    /// of a moving card is not). O(right − left).
    func isFreeRow(_ row: Int, from left: Int, to right: Int, in buffer: CellBuffer) -> Bool {
        guard row >= max(clip.top, 0), row < min(clip.bottom, rowLimit), left - 1 >= max(clip.left, 0),
            right < min(clip.right, buffer.width)
        else { return false }
        let background = buffer[left - 1, row].background
        for column in (left - 1)...right {
            let cell = buffer[column, row]
            guard cell.character == " ", cell.background == background else { return false }
        }
        return true
    }

    /// A bar without colour (`monochrome`): a shade glyph per cell by its opacity (█ from ¾, ▓ from ⅜, else ░),
    /// or for a bar one line thin a heavy ━ when its colour is strong (a slider's filled part) and a light ─ when
    /// it is pale (the track). ASCII: # = . and = -.
    func paintMonochromeBar(color: RGB8, alpha: Double, extent: Extent, into buffer: inout CellBuffer) {
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
    /// last columns instead, in its ring colour `ring`: before, such a card showed no focus at all. When the rows
    /// just above and below it are free (`isFreeRow`: a gap between cards), the ring closes through them, so the
    /// focus reads as a ring as it does on a box, not as two ticks.
    func emphasizeOutline(extent: Extent, boxed: Bool, ring: RGB8, alpha: Double, into buffer: inout CellBuffer) {
        guard boxed else {
            guard extent.right - extent.left >= 2 else { return }
            let bar: Glyph = ascii ? "#" : "┃"
            var foregrounds = Blender(color: ring, alpha: alpha, fallback: page)
            visit(extent, into: &buffer) { cell, column, _ in
                guard column == extent.left || column == extent.right - 1 else { return }
                cell.character = bar
                cell.foreground = alpha >= 0.999 ? ring.cellColor : foregrounds.blend(cell.background)
                cell.attributes = [.bold]
            }
            let above = extent.top - 1
            let below = extent.bottom
            guard extent.right - extent.left >= 3, extent.shearPerPoint == 0,
                isFreeRow(above, from: extent.left, to: extent.right, in: buffer),
                isFreeRow(below, from: extent.left, to: extent.right, in: buffer)
            else { return }
            let (left, line, right): (Glyph, Glyph, Glyph) = ascii ? ("#", "=", "#") : ("┏", "━", "┓")
            let (lowerLeft, lowerRight): (Glyph, Glyph) = ascii ? ("#", "#") : ("┗", "┛")
            for (row, corners) in [(above, (left, right)), (below, (lowerLeft, lowerRight))] {
                for column in extent.left..<extent.right {
                    var cell = buffer[column, row]
                    cell.character =
                        column == extent.left ? corners.0 : column == extent.right - 1 ? corners.1 : line
                    cell.foreground = alpha >= 0.999 ? ring.cellColor : foregrounds.blend(cell.background)
                    cell.attributes = [.bold]
                    buffer.cells[row * buffer.width + column] = cell
                }
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
}
