import CardEngine
import CardGeometry
import CardScenes

@testable import CardCells
@testable import CardTUI

/// Hand-made frames for rasteriser tests, in points at the base scale (8 × 16 points per cell).
enum TestFrames {
    static func node(
        _ id: String, role: NodeRole = .card, x: Double, y: Double, width: Double, height: Double,
        opacity: Double = 1, rotation: Double = 0, scale: Double = 1, cornerRadius: Double = 12,
        fill: RGBA? = RGBA(red: 1, green: 0, blue: 0), stroke: RGBA? = nil, shadow: Shadow? = nil,
        text: [FrameText] = []
    ) -> FrameNode {
        FrameNode(
            id: NodeID(id), role: role, card: nil, parent: nil, rect: Rect(x: x, y: y, width: width, height: height),
            z: 0, opacity: opacity, rotation: rotation, scale: scale, cornerRadius: cornerRadius, fill: fill,
            stroke: stroke, shadow: shadow, text: text, matchedGeometryID: nil, isLeaving: false)
    }

    static func frame(_ nodes: [FrameNode], width: Double = 320, height: Double = 160) -> Frame {
        Frame(time: 0, viewport: Size(width: width, height: height), nodes: nodes, events: [], isAnimating: false)
    }

    static func render(_ nodes: [FrameNode], columns: Int = 40, rows: Int = 10, ascii: Bool = false) -> CellBuffer {
        var buffer = CellBuffer(width: columns, height: rows)
        Rasterizer(ascii: ascii).render(frame(nodes), into: &buffer)
        return buffer
    }

    static func run(_ text: String, alignment: TextAlignment = .leading, color: RGBA = .white) -> FrameText {
        FrameText(run: TextRun(text, color: color, alignment: alignment))
    }
}

extension CellColor {
    var components: (Int, Int, Int)? {
        if case .rgb(let red, let green, let blue) = kind { (Int(red), Int(green), Int(blue)) } else { nil }
    }
}
