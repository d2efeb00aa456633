import CardEngine
import CardGeometry
import CardGestures
import CardJSON

extension Server {
    /// `input.pointer {phase, x, y, t, pointer?, buttons?, modifiers?}` → `{t}`.
    mutating func inputPointer(_ p: Params, now: Double, into output: inout [Outbound]) throws(RPCError)
        -> [OutboundPart]
    {
        try p.only(["phase", "x", "y", "col", "row", "t", "pointer", "buttons", "modifiers"])
        guard let phase = try p.choice("phase", ["down", "move", "up", "cancel"]) else {
            throw .invalidParams("phase", "is required (\"down\", \"move\", \"up\" or \"cancel\")")
        }
        let kind: PointerEvent.Kind =
            switch phase {
            case "down": .down
            case "move": .move
            case "up": .up
            default: .cancel
            }
        return try pointer(kind, p, now: now, into: &output)
    }

    /// `input.wheel {dx, dy, x, y, t, modifiers?}` → `{t}`.
    mutating func inputWheel(_ p: Params, now: Double, into output: inout [Outbound]) throws(RPCError)
        -> [OutboundPart]
    {
        try p.only(["dx", "dy", "x", "y", "col", "row", "t", "pointer", "modifiers"])
        var dx = try p.requiredNumber("dx")
        var dy = try p.requiredNumber("dy")
        // A cells session scrolls in cells: columns and rows of content offset.
        if let scale = session?.cells?.scale {
            dx *= scale.pointsPerColumn
            dy *= scale.pointsPerRow
        }
        return try pointer(.wheel(dx: dx, dy: dy), p, now: now, into: &output)
    }

    private mutating func pointer(
        _ kind: PointerEvent.Kind, _ p: Params, now: Double, into output: inout [Outbound]
    ) throws(RPCError) -> [OutboundPart] {
        let location = try pointerLocation(p)
        let pointerID = try p.int("pointer") ?? 0
        var buttons = PointerButtons.primary
        if let raw = try p.int("buttons") {
            guard (0...7).contains(raw) else { throw .invalidParams("buttons", "must be a bit set in 0…7") }
            buttons = PointerButtons(rawValue: UInt8(raw))
        }
        let modifiers = try self.modifiers(p)
        _ = try time(p, "t")  // the fields' values before what the request asks of the state
        _ = try requireDriver()
        let time = try inputTime(p, now: now)
        let event = PointerEvent(
            kind, at: location, time: time, pointerID: pointerID, buttons: buttons,
            modifiers: PointerModifiers(
                rawValue: (modifiers.shift ? 1 : 0) | (modifiers.control ? 2 : 0)
                    | (modifiers.alt ? 4 : 0) | (modifiers.command ? 8 : 0)))
        try changeScene(at: time, into: &output) { driver in driver.pointer(event) }
        return timeResult(time)
    }

    /// Where a pointer is: `x`, `y` in points, or in a cells session `col`, `row`, a cell of the grid, converted
    /// to the cell's centre (`CellsSession.point(column:row:)`). A cell outside the grid is −32602 naming it.
    private func pointerLocation(_ p: Params) throws(RPCError) -> Point {
        guard let cells = session?.cells else {
            if p.has("col") || p.has("row") {
                throw .invalidParams(
                    p.has("col") ? "col" : "row", "is taken only in a cells session (frames \"cells\")")
            }
            return Point(x: try p.requiredNumber("x"), y: try p.requiredNumber("y"))
        }
        if p.has("x") || p.has("y") {
            throw .invalidParams(
                p.has("x") ? "x" : "y", "is not taken in a cells session: send the cell as col and row")
        }
        let column = try p.requiredInt("col")
        let row = try p.requiredInt("row")
        guard column >= 0, column < cells.columns else {
            throw .invalidParams("col", "must be in 0…\(cells.columns - 1) (the grid has \(cells.columns) columns)")
        }
        guard row >= 0, row < cells.rows else {
            throw .invalidParams("row", "must be in 0…\(cells.rows - 1) (the grid has \(cells.rows) rows)")
        }
        return cells.point(column: column, row: row)
    }

    /// The `modifiers` array: any of "shift", "control", "alt", "command".
    private func modifiers(_ p: Params) throws(RPCError) -> (shift: Bool, control: Bool, alt: Bool, command: Bool) {
        var result = (shift: false, control: false, alt: false, command: false)
        guard let value = p.value("modifiers") else { return result }
        guard case .array(let elements) = value else {
            throw .invalidParams(
                p.name("modifiers"), "must be an array of \"shift\", \"control\", \"alt\", \"command\"")
        }
        for (index, element) in elements.enumerated() {
            switch element {
            case .string("shift"): result.shift = true
            case .string("control"): result.control = true
            case .string("alt"): result.alt = true
            case .string("command"): result.command = true
            default:
                throw .invalidParams(
                    "modifiers[\(index)]", "must be one of \"shift\", \"control\", \"alt\", \"command\"")
            }
        }
        return result
    }

    /// The key names `input.key` accepts besides a single printable character.
    static let keyNames: Set<String> = [
        "left", "right", "up", "down", "tab", "backtab", "enter", "space", "escape", "backspace", "home", "end",
        "pageup", "pagedown",
    ]

    /// `input.key {key, modifiers?, t}` → `{t, used}`: whether the scene used the key (a host may give an unused
    /// key a meaning of its own).
    mutating func inputKey(_ p: Params, now: Double, into output: inout [Outbound]) throws(RPCError)
        -> [OutboundPart]
    {
        try p.only(["key", "modifiers", "t"])
        let key = try p.requiredString("key")
        let isPrintable =
            key.unicodeScalars.count == 1
            && key.unicodeScalars.allSatisfy {
                $0.value >= 0x20 && $0.value != 0x7F && !(0x80..<0xA0).contains($0.value)
            }
        guard Self.keyNames.contains(key) || isPrintable else {
            throw .invalidParams(
                "key",
                "must be a key name (left, right, up, down, tab, backtab, enter, space, "
                    + "escape, backspace, home, end, pageup, pagedown) or one printable character")
        }
        let modifiers = try self.modifiers(p)
        _ = try time(p, "t")  // the fields' values before what the request asks of the state
        _ = try requireDriver()
        let time = try inputTime(p, now: now)
        let input = KeyInput(key, shift: modifiers.shift, control: modifiers.control, alt: modifiers.alt)
        var used = false
        try changeScene(at: time, into: &output) { driver in used = driver.key(input, at: time) }
        var out = JSONOutput()
        out.raw("{\"t\":")
        out.number(time)
        out.raw(",\"used\":")
        out.bool(used)
        out.byte(UInt8(ascii: "}"))
        return [.bytes(out.bytes)]
    }

    /// `viewport.resize {width, height, t}` → `{t}`.
    mutating func viewportResize(_ p: Params, now: Double, into output: inout [Outbound]) throws(RPCError)
        -> [OutboundPart]
    {
        // An unknown field first, then the fields this kind of session does not take (docs/protocol.md, "Which
        // error wins").
        try p.only(["width", "height", "cols", "rows", "t"])
        if var cells = session?.cells {
            // A cells session resizes its grid: the scale follows the rows, and so does the text measurer.
            for key in ["width", "height"] where p.has(key) {
                throw .invalidParams(key, "is not taken in a cells session: send the grid's size as cols and rows")
            }
            try p.only(["cols", "rows", "t"])
            let columns = try Self.gridSide(p, "cols")
            let rows = try Self.gridSide(p, "rows")
            _ = try time(p, "t")
            _ = try requireDriver()
            let time = try inputTime(p, now: now)
            let oldScale = cells.scale
            cells.resize(columns: columns, rows: rows)
            let size = cells.viewport
            let measurer = cells.measurer
            session?.cells = cells
            session?.viewport = size
            try changeScene(at: time, into: &output) { driver in
                if cells.scale != oldScale { driver.setTextMeasurer(measurer, at: time) }
                driver.resize(size, at: time)
            }
            return timeResult(time)
        }
        for key in ["cols", "rows"] where p.has(key) {
            throw .invalidParams(key, "is taken only in a cells session (frames \"cells\")")
        }
        try p.only(["width", "height", "t"])
        let width = try p.requiredNumber("width")
        let height = try p.requiredNumber("height")
        guard width > 0, width <= 100_000 else { throw .invalidParams("width", "must be in 0 < width ≤ 100000") }
        guard height > 0, height <= 100_000 else { throw .invalidParams("height", "must be in 0 < height ≤ 100000") }
        _ = try time(p, "t")
        _ = try requireDriver()
        let time = try inputTime(p, now: now)
        let size = Size(width: width, height: height)
        session?.viewport = size
        try changeScene(at: time, into: &output) { driver in driver.resize(size, at: time) }
        return timeResult(time)
    }

    /// `clock.advance {to} | {by}` → `{frame}` (host clock only).
    mutating func clockAdvance(_ p: Params, now: Double, into output: inout [Outbound]) throws(RPCError)
        -> [OutboundPart]
    {
        try p.only(["to", "by"])
        let session = try requireSession()
        guard session.clock == .host else {
            throw .invalidState("'clock.advance' needs the host clock; this session uses the realtime clock")
        }
        let to = try time(p, "to")
        let by = try p.number("by")
        let target: Double
        switch (to, by) {
        case (let to?, nil):
            guard to >= session.clockTime else {
                throw .invalidParams("to", "must not be earlier than the current time \(session.clockTime)")
            }
            target = to
        case (nil, let by?):
            guard by >= 0 else { throw .invalidParams("by", "must not be negative") }
            target = session.clockTime + by
        case (nil, nil): throw .invalidParams("to", "or 'by' is required")
        case (.some, .some): throw .invalidParams("by", "cannot be given together with 'to'")
        }
        guard target.isFinite, target <= Self.maximumTime else {
            throw .invalidParams(to == nil ? "by" : "to", "would move the clock past 1000000000 seconds")
        }
        var taken = try takeDriver()
        self.session?.clockTime = target
        let frame = taken.frame(at: target)
        let available = taken.availableActions
        driver = taken
        emit(frame, into: &output, notify: false)
        // A timer that fired on the way (a long press) may have changed what is available.
        announce(available, at: target, into: &output)
        announceAccessibility(at: target, into: &output)
        return framed(update(frame, forceFull: false))
    }
}
