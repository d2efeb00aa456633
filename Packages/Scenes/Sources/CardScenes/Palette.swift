import CardGeometry
import CardModels

extension RGBA {
    /// The same colour as an opaque `RGBA`.
    public init(_ color: RGBColor) {
        self.init(red: Double(color.red) / 255, green: Double(color.green) / 255, blue: Double(color.blue) / 255)
    }

    /// The colour with its alpha multiplied by `opacity`.
    public func opacity(_ opacity: Double) -> RGBA {
        RGBA(red: red, green: green, blue: blue, alpha: alpha * opacity)
    }
}

/// Colours the scenes share (iOS system colours in light mode).
enum Palette {
    static let background = RGBA(red: 0.95, green: 0.95, blue: 0.97)
    static let text = RGBA.black
    static let secondaryText = RGBA(red: 0.56, green: 0.56, blue: 0.58)
    static let white = RGBA.white
    /// The slider's other tick labels (the seed leaves their colour to us): grey, but 4.7:1 on the page (the
    /// secondary label grey is 2.9:1 there, under the 4.5:1 text needs).
    static let tickText = RGBA(red: 0.42, green: 0.42, blue: 0.45)
    static let hairline = RGBA(red: 0.78, green: 0.78, blue: 0.8)
    static let accent = RGBA(RGBColor.blue)
    /// The keyboard focus ring's first choice (the system accent, as a focus ring is on Apple's platforms).
    static let focus = accent

    /// The focus ring for a node filled with `fill` on `page`: the first of the accent, black and white that has at
    /// least 3:1 contrast with both (WCAG 2.2 non-text contrast, 1.4.11), else the one whose lower contrast is
    /// highest. A fixed yellow ring vanished on a yellow card (1.00:1) and faded on orange (1.45:1) and white.
    /// Text for `background`: `preferred` when it has at least 4.5:1 contrast with it (WCAG 2.2, 1.4.3), else black,
    /// else white, else whichever of them contrasts most.
    static func readableText(on background: RGBA, preferring preferred: RGBA) -> RGBA {
        let candidates = [preferred, text, white]
        if let colour = candidates.first(where: { $0.contrastRatio(with: background) >= 4.5 }) { return colour }
        return candidates.max { $0.contrastRatio(with: background) < $1.contrastRatio(with: background) } ?? text
    }

    static func focusRing(on fill: RGBA, page: RGBA = background) -> RGBA {
        let candidates = [focus, .black, .white]
        func worst(_ ring: RGBA) -> Double { min(ring.contrastRatio(with: fill), ring.contrastRatio(with: page)) }
        if let ring = candidates.first(where: { worst($0) >= 3 }) { return ring }
        return candidates.max { worst($0) < worst($1) } ?? focus
    }
}
