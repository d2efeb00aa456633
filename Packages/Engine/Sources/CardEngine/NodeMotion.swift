import CardGeometry
import CardPhysics

/// The animatable state of a node as one vector, so that one timeline entry moves a node's frame, opacity,
/// rotation (degrees), scale and corner radius together with one animation, from its current value and velocity.
struct NodeMotion: Animatable {
    var rect: Rect
    var opacity: Double
    var rotation: Double
    var scale: Double
    var cornerRadius: Double

    static let zero = NodeMotion(rect: .zero, opacity: 0, rotation: 0, scale: 0, cornerRadius: 0)

    func adding(_ other: NodeMotion) -> NodeMotion {
        NodeMotion(
            rect: Rect(
                x: rect.origin.x + other.rect.origin.x, y: rect.origin.y + other.rect.origin.y,
                width: rect.size.width + other.rect.size.width, height: rect.size.height + other.rect.size.height),
            opacity: opacity + other.opacity, rotation: rotation + other.rotation, scale: scale + other.scale,
            cornerRadius: cornerRadius + other.cornerRadius)
    }

    func subtracting(_ other: NodeMotion) -> NodeMotion {
        adding(other.scaled(by: -1))
    }

    func scaled(by factor: Double) -> NodeMotion {
        NodeMotion(
            rect: Rect(
                x: rect.origin.x * factor, y: rect.origin.y * factor, width: rect.size.width * factor,
                height: rect.size.height * factor),
            opacity: opacity * factor, rotation: rotation * factor, scale: scale * factor,
            cornerRadius: cornerRadius * factor)
    }

    var magnitudeSquared: Double {
        rect.origin.x * rect.origin.x + rect.origin.y * rect.origin.y + rect.size.width * rect.size.width
            + rect.size.height * rect.size.height + opacity * opacity + rotation * rotation + scale * scale
            + cornerRadius * cornerRadius
    }

    /// Whether every component is finite (a frame never carries NaN or infinity).
    var isFinite: Bool {
        rect.origin.x.isFinite && rect.origin.y.isFinite && rect.size.width.isFinite && rect.size.height.isFinite
            && opacity.isFinite && rotation.isFinite && scale.isFinite && cornerRadius.isFinite
    }
}
