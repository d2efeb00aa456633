import CardEngine

/// One decoded piece of terminal input.
public enum TerminalInput: Sendable, Hashable {
    /// A key press, named as the engine names keys.
    case key(KeyInput)
    /// A mouse event reported in SGR form (mode 1006).
    case mouse(MouseInput)
    /// Text pasted while bracketed paste (mode 2004) was on.
    case paste(String)
    /// A DECRPM reply to DECRQM: `mode` and its status (1 set, 2 reset, 3 permanently set, 4 permanently reset,
    /// 0 not recognised).
    case modeReport(mode: Int, status: Int)
    /// A primary device-attributes (DA1) reply.
    case deviceAttributes
}

/// A mouse event at a 0-based cell.
public struct MouseInput: Sendable, Hashable {
    public enum Action: Sendable, Hashable {
        case press
        case release
        /// Motion with a button held (mode 1002 reports only these, and motion with none under mode 1003).
        case drag
        case move
        case wheel
    }

    public var action: Action
    /// 0 left, 1 middle, 2 right; for `wheel`: 0 up, 1 down, 2 left, 3 right.
    public var button: Int
    public var column: Int
    public var row: Int
    public var shift: Bool
    public var alt: Bool
    public var control: Bool

    public init(
        _ action: Action, button: Int = 0, column: Int, row: Int, shift: Bool = false, alt: Bool = false,
        control: Bool = false
    ) {
        self.action = action
        self.button = button
        self.column = column
        self.row = row
        self.shift = shift
        self.alt = alt
        self.control = control
    }
}
