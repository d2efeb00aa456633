import CardGeometry

/// How a node enters or leaves a layout: SwiftUI's `AnyTransition` family.
///
/// A transition maps the node's state to its "absent" state; insertion animates from absent to present, removal
/// from present to absent (the node stays in frames until the removal settles).
public indirect enum NodeTransition: Sendable, Hashable {
    /// No visual change (SwiftUI's `.identity`): the node appears and disappears at once.
    case identity
    /// Fades (opacity 0 when absent).
    case opacity
    /// Moves by a fixed offset when absent (`.offset(x:y:)`).
    case offset(Vector)
    /// Moves just past an edge of the viewport when absent (`.move(edge:)`).
    case move(Edge)
    /// In from the leading edge, out through the trailing edge (`.slide`).
    case slide
    /// Scales to `factor` when absent (`.scale`, 0 by default).
    case scale(Double)
    /// All of these at once (`.combined(with:)`).
    case combined([NodeTransition])
    /// One transition for insertion and another for removal (`.asymmetric`).
    case asymmetric(insertion: NodeTransition, removal: NodeTransition)

    /// A viewport edge.
    public enum Edge: String, Sendable, Hashable, Codable {
        /// The top edge.
        case top
        /// The left edge.
        case leading
        /// The bottom edge.
        case bottom
        /// The right edge.
        case trailing
    }

    /// The node's absent state when it is being inserted (`isInsertion`) or removed.
    func absent(_ motion: NodeMotion, viewport: Size, isInsertion: Bool) -> NodeMotion {
        var result = motion
        switch self {
        case .identity:
            break
        case .opacity:
            result.opacity = 0
        case .offset(let vector):
            result.rect = result.rect.offsetBy(vector)
        case .move(let edge):
            result.rect = result.rect.offsetBy(Self.offset(moving: motion.rect, past: edge, viewport: viewport))
        case .slide:
            result.rect = result.rect.offsetBy(
                Self.offset(moving: motion.rect, past: isInsertion ? .leading : .trailing, viewport: viewport))
        case .scale(let factor):
            result.scale = motion.scale * factor
        case .combined(let transitions):
            for transition in transitions {
                result = transition.absent(result, viewport: viewport, isInsertion: isInsertion)
            }
        case .asymmetric(let insertion, let removal):
            result = (isInsertion ? insertion : removal).absent(motion, viewport: viewport, isInsertion: isInsertion)
        }
        return result
    }

    /// Whether the transition changes anything when the node enters (or leaves).
    func isVisible(isInsertion: Bool) -> Bool {
        switch self {
        case .identity: false
        case .combined(let transitions): transitions.contains { $0.isVisible(isInsertion: isInsertion) }
        case .asymmetric(let insertion, let removal):
            (isInsertion ? insertion : removal).isVisible(isInsertion: isInsertion)
        default: true
        }
    }

    /// The offset that puts `rect` just outside the viewport past `edge`.
    static func offset(moving rect: Rect, past edge: Edge, viewport: Size) -> Vector {
        switch edge {
        case .leading: Vector(dx: -rect.maxX, dy: 0)
        case .trailing: Vector(dx: viewport.width - rect.minX, dy: 0)
        case .top: Vector(dx: 0, dy: -rect.maxY)
        case .bottom: Vector(dx: 0, dy: viewport.height - rect.minY)
        }
    }
}
