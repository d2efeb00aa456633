import CardGeometry
import CardPhysics

/// Reduced motion (`Engine.reducesMotion`; a host's `initialize {reduceMotion: true}`, `cardistry tui
/// --reduce-motion`): as iOS's Reduce Motion replaces slides and zooms by dissolves, an animated change that would
/// move, scale or rotate a node puts it at its new place at once and fades it in there over `crossFadeDuration`;
/// a node that enters or leaves with a transition fades in or out where it is (a slide, a scale or a matched-geometry
/// flight becomes a fade); velocity kicks play not at all. What follows the pointer (a drag, a scroll) still
/// follows it — that is the person's own movement — and so does a scroll's coast. The same for every scene: the
/// scene asks for its usual animations, and the engine decides how they play.
extension Engine {
    /// How long a reduced-motion cross-fade takes (seconds), ease-in-out: short, as iOS's.
    public static let crossFadeDuration = 0.2

    /// The cross-fade that replaces `animation`: ease-in-out over `crossFadeDuration`, after the same delay (a
    /// stagger stays a stagger, of fades).
    static func crossFade(replacing animation: Animation) -> Animation {
        Animation(.curve(.easeInOut, duration: crossFadeDuration)).delay(animation.delay)
    }

    /// Whether retargeting `id` to `target` would move it: its place now (its running motion, else `start`)
    /// differs from the target in frame, rotation or scale.
    func moves(_ id: NodeID, to target: NodeMotion, from start: NodeMotion?, at time: Double) -> Bool {
        guard let now = geometry.sample(id, at: time)?.value ?? start else { return false }
        return now.rect != target.rect || now.rotation != target.rotation || now.scale != target.scale
    }

    /// Puts `id` at `target` at once and fades it in there from transparent.
    mutating func crossFade(_ id: NodeID, to target: NodeMotion, animation: Animation, at time: Double) {
        var faded = target
        faded.opacity = 0
        geometry.remove(id)
        geometry.animate(id, to: target, with: Self.crossFade(replacing: animation), at: time, from: faded)
    }

    /// An entering node fades in at its place (instead of its transition's or a matched flight's motion).
    mutating func fadeIn(_ node: Node, animation: Animation, at time: Double) {
        crossFade(node.id, to: node.motion, animation: animation, at: time)
    }

    /// A leaving node fades out where it is (instead of sliding, scaling or flying to a matched partner), keeping
    /// its place in the paint order until it is gone.
    mutating func fadeOut(_ node: Node, animation: Animation, at time: Double, orderIndex: Int) {
        let shown = geometry.sample(node.id, at: time)?.value ?? node.motion
        var absent = shown
        absent.opacity = 0
        geometry.remove(node.id)
        geometry.animate(node.id, to: absent, with: Self.crossFade(replacing: animation), at: time, from: shown)
        leaving[node.id] = LeavingNode(node: node, orderIndex: orderIndex)
        leavingOrder.append(node.id)
    }
}
