/// When the run loop draws and how long it sleeps: frames at most every `interval` seconds, and only while the
/// app has something to show (`wake` at or before now: input changed the screen, something animates, a pulse
/// fades, a timer is due). Pure — times are passed in — so tests drive it with a simulated clock.
public struct FrameScheduler: Sendable, Hashable {
    /// Seconds between frames (1 / fps).
    public let interval: Double
    /// When the last frame was drawn.
    public private(set) var lastFrame = -Double.infinity

    /// A scheduler for `framesPerSecond` (clamped to 1…1000).
    public init(framesPerSecond: Int) {
        interval = 1 / Double(min(max(framesPerSecond, 1), 1000))
    }

    /// Whether to draw at `time`, given the app's next wake time (nil: idle).
    public func shouldDraw(at time: Double, wake: Double?) -> Bool {
        guard let wake else { return false }
        return wake <= time && time >= lastFrame + interval
    }

    /// Records a frame drawn at `time`.
    public mutating func didDraw(at time: Double) {
        lastFrame = time
    }

    /// How long to sleep from `time` before the next frame or timer, or the input decoder's Esc deadline; nil
    /// sleeps until input or a signal (an idle screen).
    public func timeout(at time: Double, wake: Double?, inputDeadline: Double?) -> Double? {
        var timeout: Double?
        if let wake { timeout = max(0, max(wake, lastFrame + interval) - time) }
        if let inputDeadline { timeout = min(timeout ?? .infinity, max(0, inputDeadline - time)) }
        return timeout
    }
}
