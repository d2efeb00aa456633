import CardEngine

/// Decodes the bytes a terminal sends into keys, mouse events, pastes and replies: a pure state machine fed
/// with bytes and the time they arrived (so the Esc timeout is testable without a clock).
///
/// A lone Esc is a key only when nothing follows it within `escapeTimeout` (50 ms by default, as most TUIs use);
/// call `flush(at:)` once `deadline` has passed. Sequences follow ECMA-48 (CSI parameter, intermediate and final
/// bytes) and xterm's ctlseqs: cursor keys (`CSI A`…, `SS3 A`…, with `1;m` modifiers), `CSI n ~` keys, SGR mouse
/// (`CSI < b ; x ; y M/m`), bracketed paste (`CSI 200 ~` … `CSI 201 ~`), DECRPM (`CSI ? m ; s $ y`) and DA1.
/// Malformed or unknown sequences are dropped whole; no input can crash the decoder. O(1) per byte.
public struct InputDecoder: Sendable {
    enum State: Sendable, Hashable {
        case ground
        /// An Esc arrived at `since`; the next byte decides what it starts.
        case escape(since: Double)
        /// Inside a control sequence (after `ESC [`), with the bytes so far.
        case controlSequence(since: Double, bytes: [UInt8])
        /// After `ESC O` (SS3).
        case singleShift(since: Double)
        /// Inside a multi-byte UTF-8 character, with `remaining` continuation bytes to come.
        case utf8(bytes: [UInt8], remaining: Int, alt: Bool)
        /// Inside a bracketed paste, with the bytes so far.
        case paste(bytes: [UInt8])
        /// Dropping the rest of a malformed or overlong control sequence, up to its final byte.
        case discarding
    }

    /// How long a lone Esc waits for a sequence to follow, in seconds.
    public var escapeTimeout: Double
    private(set) var state: State = .ground
    /// Longer control sequences are garbage and are dropped.
    static let maximumSequenceLength = 64
    /// Pastes are cut at this many bytes (the rest is dropped, the paste still ends cleanly).
    static let maximumPasteLength = 1 << 20
    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    public init(escapeTimeout: Double = 0.05) {
        self.escapeTimeout = escapeTimeout
    }

    /// When `flush(at:)` should be called to resolve a pending Esc, or nil.
    public var deadline: Double? {
        switch state {
        case .escape(let since), .controlSequence(let since, _), .singleShift(let since): since + escapeTimeout
        default: nil
        }
    }

    /// Decodes `bytes` that arrived at `time`.
    public mutating func feed(_ bytes: some Sequence<UInt8>, at time: Double) -> [TerminalInput] {
        var events: [TerminalInput] = []
        events.append(contentsOf: flush(at: time))
        for byte in bytes { consume(byte, at: time, into: &events) }
        return events
    }

    /// Resolves a pending Esc (or an unfinished sequence) whose timeout has passed by `time`.
    public mutating func flush(at time: Double) -> [TerminalInput] {
        guard let deadline, time >= deadline else { return [] }
        switch state {
        case .escape:
            state = .ground
            return [.key(KeyInput("escape"))]
        case .controlSequence(_, let bytes):
            state = .ground
            return bytes.isEmpty ? [.key(KeyInput("[", alt: true))] : []
        case .singleShift:
            state = .ground
            return [.key(KeyInput("O", alt: true))]
        default:
            return []
        }
    }

    private mutating func consume(_ byte: UInt8, at time: Double, into events: inout [TerminalInput]) {
        switch state {
        case .ground:
            ground(byte, alt: false, at: time, into: &events)
        case .escape:
            switch byte {
            case UInt8(ascii: "["): state = .controlSequence(since: time, bytes: [])
            case UInt8(ascii: "O"): state = .singleShift(since: time)
            case 0x1B:
                events.append(.key(KeyInput("escape")))
                state = .escape(since: time)
            default:
                state = .ground
                ground(byte, alt: true, at: time, into: &events)
            }
        case .controlSequence(let since, var bytes):
            state = .ground  // Releases the state's copy so that `bytes` is appended to in place.
            if byte >= 0x40 && byte <= 0x7E {
                state = .ground
                controlSequence(bytes, final: byte, into: &events)
            } else if byte >= 0x20 && byte <= 0x3F && bytes.count < Self.maximumSequenceLength {
                bytes.append(byte)
                state = .controlSequence(since: since, bytes: bytes)
            } else if byte >= 0x20 {
                state = .discarding  // Overlong or malformed: drop the rest of it.
            } else {
                // A control byte aborts the sequence and acts as itself (ECMA-48 §5.5); an Esc starts a new one.
                ground(byte, alt: false, at: time, into: &events)
            }
        case .discarding:
            if byte >= 0x40 && byte <= 0x7E {
                state = .ground
            } else if byte < 0x20 {
                state = .ground
                ground(byte, alt: false, at: time, into: &events)
            }
        case .singleShift:
            state = .ground
            switch byte {
            case UInt8(ascii: "A"): events.append(.key(KeyInput("up")))
            case UInt8(ascii: "B"): events.append(.key(KeyInput("down")))
            case UInt8(ascii: "C"): events.append(.key(KeyInput("right")))
            case UInt8(ascii: "D"): events.append(.key(KeyInput("left")))
            case UInt8(ascii: "H"): events.append(.key(KeyInput("home")))
            case UInt8(ascii: "F"): events.append(.key(KeyInput("end")))
            case UInt8(ascii: "M"): events.append(.key(KeyInput("enter")))
            case 0x1B: state = .escape(since: time)
            default: break  // F1–F4 and keypad keys mean nothing here.
            }
        case .utf8(var bytes, let remaining, let alt):
            state = .ground
            guard byte & 0xC0 == 0x80 else {
                consume(byte, at: time, into: &events)
                return
            }
            bytes.append(byte)
            if remaining > 1 {
                state = .utf8(bytes: bytes, remaining: remaining - 1, alt: alt)
                return
            }
            state = .ground
            var decoded = String.UnicodeScalarView()
            var iterator = bytes.makeIterator()
            var codec = UTF8()
            if case .scalarValue(let scalar) = codec.decode(&iterator) { decoded.append(scalar) }
            if !decoded.isEmpty { events.append(.key(KeyInput(String(decoded), alt: alt))) }
        case .paste(var bytes):
            state = .ground
            if bytes.count < Self.maximumPasteLength + Self.pasteEnd.count {
                bytes.append(byte)
            } else {
                // Keep only a window wide enough to see the end marker.
                bytes.removeSubrange(Self.maximumPasteLength..<(Self.maximumPasteLength + 1))
                bytes.append(byte)
            }
            if bytes.count >= Self.pasteEnd.count && bytes.suffix(Self.pasteEnd.count).elementsEqual(Self.pasteEnd) {
                state = .ground
                let text = String(decoding: bytes.dropLast(Self.pasteEnd.count), as: UTF8.self)
                events.append(.paste(text))
            } else {
                state = .paste(bytes: bytes)
            }
        }
    }

    private mutating func ground(_ byte: UInt8, alt: Bool, at time: Double, into events: inout [TerminalInput]) {
        func key(_ name: String, control: Bool = false) {
            events.append(.key(KeyInput(name, control: control, alt: alt)))
        }
        switch byte {
        case 0x1B: state = .escape(since: time)
        case 0x0D, 0x0A: key("enter")
        case 0x09: key("tab")
        case 0x7F, 0x08: key("backspace")
        case 0x20: key("space")
        case 0x00: key("space", control: true)
        case 0x01...0x1A: key(String(UnicodeScalar(byte + 0x60)), control: true)
        case 0x21...0x7E: key(String(UnicodeScalar(byte)))
        case 0xC2...0xDF: state = .utf8(bytes: [byte], remaining: 1, alt: alt)
        case 0xE0...0xEF: state = .utf8(bytes: [byte], remaining: 2, alt: alt)
        case 0xF0...0xF4: state = .utf8(bytes: [byte], remaining: 3, alt: alt)
        default: break  // Other C0 controls and stray UTF-8 bytes are dropped.
        }
    }

    /// Interprets a complete control sequence `ESC [ bytes final`.
    private mutating func controlSequence(_ bytes: [UInt8], final: UInt8, into events: inout [TerminalInput]) {
        var prefix: UInt8?
        var body = bytes[...]
        if let first = body.first, first >= 0x3C && first <= 0x3F {
            prefix = first
            body = body.dropFirst()
        }
        let intermediates = body.filter { $0 >= 0x20 && $0 <= 0x2F }
        let parameterBytes = body.filter { $0 >= 0x30 && $0 <= 0x3B }
        guard let parameters = Self.parameters(parameterBytes) else { return }
        switch (prefix, intermediates.first, final) {
        case (UInt8(ascii: "<"), nil, UInt8(ascii: "M")), (UInt8(ascii: "<"), nil, UInt8(ascii: "m")):
            if let mouse = Self.mouse(parameters, release: final == UInt8(ascii: "m")) { events.append(.mouse(mouse)) }
        case (UInt8(ascii: "?"), UInt8(ascii: "$"), UInt8(ascii: "y")):
            if parameters.count >= 2, let mode = parameters[0], let status = parameters[1] {
                events.append(.modeReport(mode: mode, status: status))
            }
        case (UInt8(ascii: "?"), nil, UInt8(ascii: "c")):
            events.append(.deviceAttributes)
        case (nil, nil, UInt8(ascii: "~")):
            let code = parameters.first.flatMap { $0 } ?? 0
            if code == 200 {
                state = .paste(bytes: [])
                return
            }
            let names: [Int: String] = [1: "home", 7: "home", 4: "end", 8: "end", 5: "pageup", 6: "pagedown"]
            if let name = names[code] { events.append(.key(Self.modified(name, parameters))) }
        case (nil, nil, _):
            let names: [UInt8: String] = [
                UInt8(ascii: "A"): "up", UInt8(ascii: "B"): "down", UInt8(ascii: "C"): "right",
                UInt8(ascii: "D"): "left", UInt8(ascii: "H"): "home", UInt8(ascii: "F"): "end",
                UInt8(ascii: "Z"): "backtab",
            ]
            if let name = names[final] { events.append(.key(Self.modified(name, parameters))) }
        default:
            break
        }
    }

    /// Semicolon-separated decimal parameters (empty ones are nil); nil for a malformed or absurd list.
    static func parameters(_ bytes: [UInt8]) -> [Int?]? {
        var result: [Int?] = []
        var current: Int?
        for byte in bytes {
            if byte == UInt8(ascii: ";") {
                result.append(current)
                current = nil
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                let value = (current ?? 0) * 10 + Int(byte - UInt8(ascii: "0"))
                guard value < 1_000_000 else { return nil }
                current = value
            } else {
                return nil  // ':' sub-parameters are not used by anything decoded here.
            }
        }
        result.append(current)
        return result
    }

    /// A key with the xterm modifier parameter (the second one, 1 + bits: 1 shift, 2 alt, 4 control) applied.
    static func modified(_ name: String, _ parameters: [Int?]) -> KeyInput {
        let bits = parameters.count >= 2 ? max(0, (parameters[1] ?? 1) - 1) : 0
        return KeyInput(name, shift: bits & 1 != 0, control: bits & 4 != 0, alt: bits & 2 != 0)
    }

    /// An SGR mouse report: button code (low two bits the button, +4 shift, +8 alt, +16 control, +32 motion,
    /// +64 wheel), then 1-based column and row.
    static func mouse(_ parameters: [Int?], release: Bool) -> MouseInput? {
        guard parameters.count == 3, let code = parameters[0], let column = parameters[1], let row = parameters[2],
            column >= 1, row >= 1
        else { return nil }
        let button = code & 3
        let action: MouseInput.Action
        if code & 64 != 0 {
            action = .wheel
        } else if code & 32 != 0 {
            action = button == 3 ? .move : .drag
        } else {
            action = release ? .release : .press
        }
        return MouseInput(
            action, button: button, column: column - 1, row: row - 1, shift: code & 4 != 0, alt: code & 8 != 0,
            control: code & 16 != 0)
    }
}
