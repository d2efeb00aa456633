import CardCells
import CardEngine
import CardGeometry
import CardModels

/// A session that asked for `frames: "cells"`: the host shows a grid of terminal cells, and the server draws every
/// frame into it with the terminal UI's rasteriser (CardCells), so the host draws styled text and nothing else.
///
/// Everything is as the terminal UI has it for a scene shown in `columns × rows` cells (the rows above its status
/// line): the scale (`CellScale.fitting` the scene's design height), the text measurer and layout grid
/// (`CellTextMeasurer`), the card text placement, the haptic pulses, sub-cell edges while something moves, and the
/// colour depth. Pointer input arrives in cells and is converted to the centre of the cell (`point(column:row:)`).
struct CellsSession: Sendable {
    /// The grid's size, in cells.
    var columns: Int
    var rows: Int
    /// The colours the host shows (`none`: `NO_COLOR`, with the rasteriser's monochrome cues).
    var depth: ColorDepth
    /// Every character of the frames is ASCII: box decoration in ASCII, text transliterated.
    var ascii: Bool
    /// The open scene's scale (the base scale until one is open).
    var scale = CellScale()
    /// The open scene's design height (`SceneDescriptor.designHeight`), which the scale fits into the rows.
    var designHeight: Double?
    /// The open scene puts a card's text on its first inner row.
    var textAtTop = false
    /// The frame drawn last (what moved since tells the rasteriser which edges lead); nil after an open or resize.
    var lastFrame: Frame? {
        didSet { lastDrawn = nil }
    }
    /// The grid drawn from `lastFrame`: a frame asked for again at the same time (`scene.frame` after a delta) is
    /// this picture, not a redraw that would see nothing move (and draw a moving edge as a still border).
    var lastDrawn: CellBuffer?
    /// Haptic pulses: node and start time; pulses of a card whose node is not known yet (the host clock takes
    /// events without a frame) wait in `cardPulses`.
    var pulses: [NodeID: Double] = [:]
    var cardPulses: [CardID: Double] = [:]

    /// The largest grid accepted, each way.
    static let maximumSide = 1000
    /// How long a haptic pulse shows (the terminal UI's).
    static let pulseDuration = 0.2

    /// The scale for the grid and a scene of `designHeight` points (nil: any height).
    static func scale(designHeight: Double?, rows: Int) -> CellScale {
        guard let designHeight else { return CellScale() }
        return CellScale.fitting(height: designHeight, rows: rows)
    }

    /// The viewport in points the open scene gets.
    var viewport: Size { scale.viewport(columns: columns, rows: rows) }

    /// How text is measured for the open scene (and the grid it lays out on).
    var measurer: CellTextMeasurer {
        CellTextMeasurer(scale: scale, ascii: ascii, encoding: ascii ? .ascii : .unicode)
    }

    /// Prepares for `descriptor`'s scene: its scale and text placement; nothing drawn before counts.
    mutating func open(_ descriptor: SceneDescriptor?) {
        designHeight = descriptor?.designHeight
        textAtTop = descriptor?.textPlacement == .top
        scale = Self.scale(designHeight: designHeight, rows: rows)
        lastFrame = nil
        pulses = [:]
        cardPulses = [:]
    }

    /// A new grid size: the scale follows; the next frame is drawn without motion.
    mutating func resize(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        scale = Self.scale(designHeight: designHeight, rows: rows)
        lastFrame = nil
    }

    /// The point a pointer in cell (`column`, `row`) carries: the cell's centre.
    func point(column: Int, row: Int) -> Point { scale.point(column: column, row: row) }

    /// Starts the pulses of the haptic events among `events` (a card's on its card node once a frame shows it).
    mutating func note(_ events: [EngineEvent]) {
        for event in events {
            guard case .haptic(let haptic) = event else { continue }
            if let target = haptic.target {
                pulses[target] = haptic.time
            } else if let card = haptic.card {
                cardPulses[card] = haptic.time
            }
        }
    }

    /// Draws `frame` as the terminal UI draws a scene, in the host's colour depth. The same frame twice in a row
    /// (the same time, nodes and events) is the same picture: the grid drawn the first time. O(cells), or O(nodes)
    /// for the same frame again.
    mutating func draw(_ frame: Frame) -> CellBuffer {
        if let lastDrawn, let lastFrame, lastFrame == frame { return lastDrawn }
        for (card, start) in cardPulses {
            if let node = frame.node(card: card) { pulses[node.id] = start }
        }
        cardPulses = [:]
        let time = frame.time
        pulses = pulses.filter { time < $0.value + Self.pulseDuration }
        let amounts = pulses.mapValues { start in max(0, 1 - (time - start) / Self.pulseDuration) }
        let rasterizer = Rasterizer(
            scale: scale, ascii: ascii, cardTextAtTop: textAtTop, encoding: ascii ? .ascii : .unicode,
            monochrome: depth == .none, subCell: depth != .none)
        var buffer = CellBuffer(width: columns, height: rows)
        rasterizer.render(frame, into: &buffer, pulses: amounts, previous: lastFrame)
        depth.convert(&buffer)
        lastFrame = frame
        lastDrawn = buffer
        return buffer
    }
}
