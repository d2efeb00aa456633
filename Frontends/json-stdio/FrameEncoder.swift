import CardCells
import CardEngine
import CardJSON

/// Encodes frames as protocol JSON by hand, remembering what the host was last sent so that delta frames carry
/// only changed and removed nodes (and the paint order when it changed).
///
/// Encoding a node is O(fields + text); a delta frame costs one dictionary lookup and one comparison per node.
public struct FrameEncoder: Sendable {
    private var sentNodes: [NodeID: FrameNode] = [:]
    private var sentOrder: [NodeID] = []
    /// Whether the host holds a frame a delta can apply to.
    private var hasSent = false
    /// Cells sessions: the grid the host shows, and the style ids it knows.
    private var sentCells: CellBuffer?
    private var styleIDs: [CellStyle: Int] = [:]

    public init() {}

    /// Turns one outbound item into its line (without the newline).
    public mutating func encode(_ item: Outbound) -> [UInt8] {
        switch item {
        case .message(let bytes): return bytes
        case .streamed(let head, let tail): return head + tail()
        case .frameNotification(let frame):
            // A cells frame in which no cell changed is not sent at all: an idle grid costs nothing.
            if let cells = frame.cells, !frame.forceFull, let sent = sentCells, sent.looksSame(as: cells) {
                return []
            }
            var out = JSONOutput(capacity: 256 + frame.nodes.count * 200)
            out.raw("{\"jsonrpc\":\"2.0\",\"method\":\"frame\",\"params\":")
            encode(frame, into: &out)
            out.byte(UInt8(ascii: "}"))
            return out.bytes
        case .composite(let parts):
            var out = JSONOutput(capacity: 1024)
            for part in parts {
                switch part {
                case .bytes(let bytes): out.rawBytes(bytes)
                case .frame(let frame): encode(frame, into: &out)
                }
            }
            return out.bytes
        }
    }

    /// Writes the frame object `{seq, t, full, animating, ...}` (the engine's `FrameJSON`, the bytes a recording's
    /// digests are taken over) and records it as what the host has.
    mutating func encode(_ frame: FrameUpdate, into out: inout JSONOutput) {
        if let cells = frame.cells {
            encodeCells(frame, cells, into: &out)
            return
        }
        if !frame.deltaMode || frame.forceFull || !hasSent {
            FrameJSON.fullFrame(
                seq: frame.seq, time: frame.time, isAnimating: frame.isAnimating, viewport: frame.viewport,
                nodes: frame.nodes, into: &out)
        } else {
            FrameJSON.head(
                seq: frame.seq, time: frame.time, full: false, isAnimating: frame.isAnimating,
                viewport: frame.viewport, into: &out)
            encodeDelta(frame, into: &out)
            out.byte(UInt8(ascii: "}"))
        }
        if frame.deltaMode { remember(frame) }
    }

    private mutating func remember(_ frame: FrameUpdate) {
        var nodes: [NodeID: FrameNode] = [:]
        nodes.reserveCapacity(frame.nodes.count)
        for node in frame.nodes { nodes[node.id] = node }
        sentNodes = nodes
        sentOrder = frame.nodes.map(\.id)
        hasSent = true
    }

    private func encodeDelta(_ frame: FrameUpdate, into out: inout JSONOutput) {
        out.nextKey("changed")
        out.byte(UInt8(ascii: "["))
        var first = true
        for node in frame.nodes where sentNodes[node.id] != node {
            if !first { out.byte(UInt8(ascii: ",")) }
            first = false
            FrameJSON.node(node, into: &out)
        }
        out.byte(UInt8(ascii: "]"))
        out.nextKey("removed")
        out.byte(UInt8(ascii: "["))
        var present: Set<NodeID> = []
        present.reserveCapacity(frame.nodes.count)
        for node in frame.nodes { present.insert(node.id) }
        first = true
        for id in sentOrder where !present.contains(id) {
            if !first { out.byte(UInt8(ascii: ",")) }
            first = false
            out.string(id.rawValue)
        }
        out.byte(UInt8(ascii: "]"))
        let orderChanged = frame.nodes.count != sentOrder.count || zip(frame.nodes, sentOrder).contains { $0.id != $1 }
        if orderChanged {
            out.nextKey("order")
            out.byte(UInt8(ascii: "["))
            for (index, node) in frame.nodes.enumerated() {
                if index > 0 { out.byte(UInt8(ascii: ",")) }
                out.string(node.id.rawValue)
            }
            out.byte(UInt8(ascii: "]"))
        }
    }

    /// A cells frame: `{seq, t, full, animating, viewport, grid?, styles?, rows}`. Full (the first frame, a forced
    /// one, a new grid size): `grid` and every row, the style table started over. Otherwise only the changed span of
    /// each changed row, and only the styles the host has not been sent. A row is `[row, column, run, …]`; a run
    /// `[style, text]`, `[style, [character, count]]` for one character repeated, or `[style, cluster, cells]` for one
    /// cluster that is not one cell per scalar.
    private mutating func encodeCells(_ frame: FrameUpdate, _ cells: CellBuffer, into out: inout JSONOutput) {
        let previous = sentCells.flatMap { $0.width == cells.width && $0.height == cells.height ? $0 : nil }
        let full = frame.forceFull || previous == nil
        if full { styleIDs = [:] }
        FrameJSON.head(
            seq: frame.seq, time: frame.time, full: full, isAnimating: frame.isAnimating, viewport: frame.viewport,
            into: &out)
        if full {
            out.raw(",\"grid\":{\"cols\":")
            out.integer(cells.width)
            out.raw(",\"rows\":")
            out.integer(cells.height)
            out.raw(",\"pointsPerColumn\":")
            out.number(frame.cellScale.pointsPerColumn)
            out.raw(",\"pointsPerRow\":")
            out.number(frame.cellScale.pointsPerRow)
            out.byte(UInt8(ascii: "}"))
        }
        let spans = CellRows.spans(of: CellDiff(from: full ? nil : previous, to: cells))
        var rows: [(row: Int, column: Int, runs: [CellRun])] = []
        rows.reserveCapacity(spans.count)
        var newStyles: [(CellStyle, Int)] = []
        for span in spans {
            let runs = CellRows.runs(of: cells, row: span.row, columns: span.columns)
            for run in runs where styleIDs[run.style] == nil {
                let id = styleIDs.count
                styleIDs[run.style] = id
                newStyles.append((run.style, id))
            }
            rows.append((span.row, span.columns.lowerBound, runs))
        }
        if !newStyles.isEmpty {
            out.raw(",\"styles\":{")
            for (index, (style, id)) in newStyles.enumerated() {
                if index > 0 { out.byte(UInt8(ascii: ",")) }
                out.byte(UInt8(ascii: "\""))
                out.integer(id)
                out.raw("\":{")
                var first = true
                func color(_ key: StaticString, _ color: CellColor) {
                    switch color.kind {
                    case .terminalDefault: return
                    case .rgb(let red, let green, let blue):
                        if !first { out.byte(UInt8(ascii: ",")) }
                        out.raw(key)
                        out.raw(":\"#")
                        for channel in [red, green, blue] {
                            out.byte(Self.hexDigits[Int(channel >> 4)])
                            out.byte(Self.hexDigits[Int(channel & 15)])
                        }
                        out.byte(UInt8(ascii: "\""))
                    case .indexed(let index):
                        if !first { out.byte(UInt8(ascii: ",")) }
                        out.raw(key)
                        out.byte(UInt8(ascii: ":"))
                        out.integer(Int(index))
                    }
                    first = false
                }
                color("\"fg\"", style.foreground)
                color("\"bg\"", style.background)
                for (flag, name) in Self.attributeNames where style.attributes.contains(flag) {
                    if !first { out.byte(UInt8(ascii: ",")) }
                    out.raw(name)
                    out.raw(":true")
                    first = false
                }
                out.byte(UInt8(ascii: "}"))
            }
            out.byte(UInt8(ascii: "}"))
        }
        out.raw(",\"rows\":[")
        for (index, row) in rows.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            out.byte(UInt8(ascii: "["))
            out.integer(row.row)
            out.byte(UInt8(ascii: ","))
            out.integer(row.column)
            for run in row.runs {
                let style = styleIDs[run.style] ?? 0
                if let width = run.width {
                    out.raw(",[")
                    out.integer(style)
                    out.byte(UInt8(ascii: ","))
                    out.string(run.text)
                    out.byte(UInt8(ascii: ","))
                    out.integer(width)
                    out.byte(UInt8(ascii: "]"))
                    continue
                }
                Self.writePlain(run.text, style: style, into: &out)
            }
            out.byte(UInt8(ascii: "]"))
        }
        out.raw("]}")
        sentCells = cells
        hasSent = true
    }

    /// A character repeated this many times or more goes as `[style, [character, count]]`.
    static let repeatRun = 8

    /// Writes plain text as runs of one style: `[style, text]`, with every stretch of one character repeated
    /// `repeatRun` times or more as `[style, [character, count]]` (a box's edge, a card's blank rows).
    private static func writePlain(_ text: String, style: Int, into out: inout JSONOutput) {
        let scalars = Array(text.unicodeScalars)
        var start = 0
        var plainStart = 0
        func flushPlain(upTo end: Int) {
            guard end > plainStart else { return }
            out.raw(",[")
            out.integer(style)
            out.byte(UInt8(ascii: ","))
            var piece = String.UnicodeScalarView()
            piece.append(contentsOf: scalars[plainStart..<end])
            out.string(String(piece))
            out.byte(UInt8(ascii: "]"))
        }
        while start < scalars.count {
            var end = start + 1
            while end < scalars.count && scalars[end] == scalars[start] { end += 1 }
            if end - start >= repeatRun {
                flushPlain(upTo: start)
                out.raw(",[")
                out.integer(style)
                out.raw(",[")
                out.string(String(Character(scalars[start])))
                out.byte(UInt8(ascii: ","))
                out.integer(end - start)
                out.raw("]]")
                plainStart = end
            }
            start = end
        }
        flushPlain(upTo: scalars.count)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
    private static let attributeNames: [(CellAttributes, StaticString)] = [
        (.bold, "\"bold\""), (.dim, "\"dim\""), (.underline, "\"underline\""), (.reverse, "\"reverse\""),
    ]
}
