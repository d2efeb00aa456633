/// The terminal UI's `--slow-motion N`: the app's clock runs `factor` times slower than the wall clock, so motion
/// that lasts a blink (a spring's bounce, a matched-geometry flight, a digit's roll) can be watched — and captured
/// by a test — frame by frame, like the iOS Simulator's Slow Animations.
///
/// Everything the app times runs on this clock, gestures included: a drag that takes 40 ms of wall time takes
/// `40 / factor` ms of the app's, so it reads `factor` times as fast (a flick stays a flick). Frames are still
/// drawn at the wall clock's `--fps`, so slowed motion is drawn with `factor` times as many frames; the terminal's
/// own timeouts (the Esc key's, the capability probe's) stay in wall time.
public struct SlowMotion: Sendable, Hashable {
    /// How many times slower than the wall clock the app's clock runs (1: real time).
    public let factor: Double

    /// The accepted factors: real time up to a hundred times slower.
    public static let range: ClosedRange<Double> = 1...100

    /// A clock `factor` times slower than the wall's; `factor` must lie in `range`.
    public init(factor: Double) {
        precondition(Self.range.contains(factor), "slow motion factor \(factor) outside \(Self.range)")
        self.factor = factor
    }

    /// The app's time at wall time `wall` (both in seconds from the session's start).
    public func appTime(wall: Double) -> Double { wall / factor }

    /// The wall time at which the app's clock reads `app` (infinite stays infinite).
    public func wallTime(app: Double) -> Double { app * factor }
}
