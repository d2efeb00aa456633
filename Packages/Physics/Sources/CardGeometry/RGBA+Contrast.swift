import Foundation

extension RGBA {
    /// The relative luminance of the colour's opaque components, 0 (black) … 1 (white), as WCAG 2.2 defines it
    /// (https://www.w3.org/TR/WCAG22/#dfn-relative-luminance): each sRGB component linearised
    /// (`c ≤ 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055)^2.4`), then weighted 0.2126 R + 0.7152 G + 0.0722 B.
    /// Components are clamped to 0…1 first; alpha is ignored (composite first, `over(_:)`).
    public var relativeLuminance: Double {
        func linear(_ component: Double) -> Double {
            let c = component.isFinite ? min(max(component, 0), 1) : 0
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// The WCAG 2.2 contrast ratio of two colours, 1 … 21: `(L_lighter + 0.05) / (L_darker + 0.05)`
    /// (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio). Text needs 4.5 (success criterion 1.4.3), the parts
    /// of a control or a focus indicator 3 (1.4.11). Symmetric.
    public func contrastRatio(with other: RGBA) -> Double {
        let (a, b) = (relativeLuminance, other.relativeLuminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// The colour painted at its alpha over the opaque `background` (source-over, in sRGB as terminals and canvas
    /// blend); opaque.
    public func over(_ background: RGBA) -> RGBA {
        let alpha = min(max(self.alpha.isFinite ? self.alpha : 0, 0), 1)
        func mix(_ top: Double, _ bottom: Double) -> Double { top * alpha + bottom * (1 - alpha) }
        return RGBA(
            red: mix(red, background.red), green: mix(green, background.green), blue: mix(blue, background.blue))
    }
}

extension RGBA {
    /// Text on a card's or a chip's own colour `fill`: white where it has at least 4.5:1 contrast with the fill
    /// (WCAG 2.2, 1.4.3), else black where black has, else whichever of them contrasts more. For any opaque fill one
    /// of white and black has at least 4.58:1. The built-in scenes' cards (`Palette.label`) and a scene
    /// description's `"label"` text colour both draw it.
    public static func label(on fill: RGBA) -> RGBA {
        let (onWhite, onBlack) = (RGBA.white.contrastRatio(with: fill), RGBA.black.contrastRatio(with: fill))
        if onWhite >= 4.5 { return .white }
        if onBlack >= 4.5 { return .black }
        return onBlack > onWhite ? .black : .white
    }
}

/// Text or a graphic drawn with less contrast than it needs: what the contrast lints report (`ContrastLint` over
/// cells, `FrameContrastLint` over a frame's runs).
public struct ContrastShortfall: Sendable, Hashable, CustomStringConvertible {
    /// The colour as drawn, composited over `background`, and what is behind it.
    public var foreground, background: RGBA
    /// The ratio it needs (4.5 for text, 3 for large text and graphics).
    public var minimum: Double

    /// `foreground` (opaque, already composited) on `background`, which needs `minimum`.
    public init(_ foreground: RGBA, on background: RGBA, needing minimum: Double) {
        (self.foreground, self.background, self.minimum) = (foreground, background, minimum)
    }

    /// Their contrast ratio.
    public var ratio: Double { foreground.contrastRatio(with: background) }

    /// "#RRGGBB on #RRGGBB": the colours, to group findings by.
    public var pair: String { "\(Self.hex(foreground)) on \(Self.hex(background))" }

    /// "2.2:1 < 4.5:1 (#FFFFFF on #FF9500)".
    public var description: String { "\((ratio * 100).rounded() / 100):1 < \(minimum):1 (\(pair))" }

    /// `#RRGGBB` of a colour's opaque components, clamped to 0…1.
    public static func hex(_ color: RGBA) -> String {
        "#"
            + [color.red, color.green, color.blue].map {
                let text = String(Int((min(max($0, 0), 1) * 255).rounded()), radix: 16, uppercase: true)
                return text.count == 1 ? "0" + text : text
            }.joined()
    }
}
