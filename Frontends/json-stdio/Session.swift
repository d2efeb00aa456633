import CardEngine
import CardGeometry

/// What `initialize` set up, and the open scene.
struct Session: Sendable {
    enum Clock: String, Sendable {
        /// Time moves only with input `t` and `clock.advance`.
        case host
        /// Time is the transport's monotonic clock; frames stream while something animates.
        case realtime
    }

    var clock: Clock
    var deltas: Bool
    /// The host asked for the whole order with every deck change (`initialize`'s `deckOrder: "full"`).
    var wholeOrders = false
    /// The open scene's deck revision: 0 at `scene.open`, +1 per `deck.changed`.
    var deckRevision = 0
    /// The last deck change sent, with its stamp (a result that follows reports it).
    var lastDeckChange: (change: DeckChange, stamp: OrderStamp)?
    /// The checksum of the open scene's order as the host was last told it.
    var orderChecksum: UInt32 = 0
    /// Frames per second of the realtime stream.
    var fps: Double
    var viewport: Size
    /// `now` at `initialize` (realtime): session time is `now - origin`.
    var origin: Double
    /// The latest time the session has reached (host: input times and `clock.advance`; realtime: the clock).
    var clockTime: Double = 0
    /// Realtime: the session time of the next frame to stream, or nil when idle.
    var nextTick: Double?
    /// The actions the host was last told are available (`scene.open`, `actions.changed`).
    var availableActions: [String] = []
    /// Realtime: the session time of the last streamed frame.
    var lastFrameTime: Double = -.infinity
    /// The store name the open scene's state is saved under (`persistState`), or nil.
    var stateKey: String?
    /// A cells session (`frames: "cells"`): the grid, and how frames are drawn into it; nil for frames of nodes.
    var cells: CellsSession?
    /// The host asked for the accessibility tree (`initialize`'s `accessibility: true`): `scene.open` carries it,
    /// `a11y.update` its changes, and `a11y.action` is a method. Off, none of it is computed.
    var accessibility = false
    /// The host asked for reduced motion (`initialize`'s `reduceMotion: true`): every scene opens with
    /// `Engine.reducesMotion`.
    var reducesMotion = false
    /// The open scene's accessibility tree as the host was last told it (nil: accessibility off, or no scene).
    var accessibilityTree: AccessibilityTree?

    /// The session time for `now`.
    func sessionTime(now: Double) -> Double { max(now - origin, clockTime) }
}
