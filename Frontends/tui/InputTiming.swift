/// The times the run loop gives input that arrived together.
///
/// A terminal reports the mouse as bytes on a pipe, with no timestamps; several reports can arrive in one read —
/// the terminal or tmux coalesced them, or the app was busy drawing while the user flicked. Timed by the read, a
/// flick's drag reports would all share one instant, and a velocity tracker (which needs three distinct times)
/// would read the flick as a standstill: no coast, no bounce. So reports read together are spread back from the
/// read over the time the loop was not reading, in order, at most one report-interval apart.
enum InputTiming {
    /// The shortest interval between two mouse reports assumed: 120 reports a second, about the fastest a mouse
    /// and a terminal deliver motion (xterm sends one report per motion event; high-rate mice poll at 125 Hz and
    /// up, but terminals coalesce motion to their own refresh).
    static let reportInterval = 1.0 / 120

    /// The times of `count` inputs read together at `arrival` (seconds), after the loop last looked at `since`:
    /// evenly spaced, the last at `arrival`, none before `since`, at most `reportInterval` apart. O(count).
    static func spread(count: Int, since: Double, arrival: Double) -> [Double] {
        guard count > 1 else { return Array(repeating: arrival, count: max(count, 0)) }
        let window = max(0, arrival - since)
        let step = min(window / Double(count), reportInterval)
        return (0..<count).map { arrival - step * Double(count - 1 - $0) }
    }
}
