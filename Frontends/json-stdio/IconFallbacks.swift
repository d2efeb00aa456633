/// The icons the scenes draw, as a documented set: each SF Symbols name a node's text may carry (`icon` and
/// `button` nodes) with a portable fallback, an emoji or a Unicode symbol, for hosts without SF Symbols.
/// `initialize` reports the set in `capabilities.icons`; docs/protocol.md lists it.
enum IconFallbacks {
    /// SF Symbols name → fallback, sorted by name.
    static let table: [(symbol: String, fallback: String)] = [
        ("applelogo", "🍎"), ("bag.fill", "🛍️"), ("bolt.fill", "⚡"), ("book.fill", "📕"), ("cart.fill", "🛒"),
        ("cloud.fill", "☁️"), ("cloud.rain.fill", "🌧️"), ("cross.case.fill", "🩹"), ("cup.and.saucer.fill", "☕"),
        ("drop.fill", "💧"), ("figure.run", "🏃"), ("film.fill", "🎞️"), ("flame.fill", "🔥"), ("fork.knife", "🍴"),
        ("fuelpump.fill", "⛽"), ("heart.fill", "❤️"), ("leaf.fill", "🍃"), ("moon.fill", "🌙"), ("music.note", "🎵"),
        ("plus.circle.fill", "⊕"), ("snowflake", "❄️"), ("star.fill", "⭐"), ("sun.max.fill", "☀️"), ("tram.fill", "🚋"),
        ("xmark.circle", "ⓧ"),
    ]
}
