import CardEngine
import CardGeometry

/// How a scene starts on a grid of cells: keyboard focus on the first card, so Enter acts at once.
///
/// A scene whose cards take the focus with tab and that opens with none focused is given that tab by the host (the
/// terminal UI, and the stdio server for a cells session), through the engine, so a recording replays it. Hosts of
/// nodes keep the scenes' own start.
package enum FirstFocus {
    /// Whether `scene`, laid out in `viewport`, should be given a tab when it opens: it lists tab among its keys,
    /// has cards, and none is focused (outlined).
    package static func wantsTab(_ scene: any Scene, viewport: Size) -> Bool {
        guard scene.descriptor.keyHelp.contains(where: { $0.names.contains("tab") }) else { return false }
        // The scene's own layout (not a frame: that would take the events the first draw reports).
        let nodes = scene.layout(in: viewport)
        return nodes.contains(where: { $0.role == .card })
            && !nodes.contains(where: { $0.role == .card && $0.stroke != nil })
    }
}
