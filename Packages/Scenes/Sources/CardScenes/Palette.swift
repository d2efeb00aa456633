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
    /// Secondary text the scenes choose themselves (the deck's count, the wallet history's dates): Apple's accessible
    /// system gray (light appearance, increased contrast: 108, 108, 112; Human Interface Guidelines, "Color"),
    /// 4.7:1 on the grouped background, where the system gray (142, 142, 147) is 2.9:1.
    static let secondaryText = RGBA(red: 108 / 255, green: 108 / 255, blue: 112 / 255)
    /// Secondary text on a translucent bar that content scrolls under (the deck's header, the page at 92 % over
    /// the cards): the accessible gray darkened to 96, 96, 100, which keeps 4.7:1 on the bar even over a black card
    /// (`secondaryText` there was 3.9:1, and 4.2:1 over the deck's blue card).
    static let secondaryTextOnBar = RGBA(red: 96 / 255, green: 96 / 255, blue: 100 / 255)
    /// Where a seed asks for SwiftUI's `Color.gray` as text (seed 003's answer): Apple's accessible system gray,
    /// as `secondaryText`, 5.3:1 on the white card, where the system gray (142, 142, 147) is 3.3:1 (issue 46).
    static let gray = secondaryText
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
    static func focusRing(on fill: RGBA, page: RGBA = background) -> RGBA {
        firstContrasting([focus, .black, .white], with: [fill, page], atLeast: 3)
    }

    /// Text and symbols on a card's or a chip's own colour `fill`, where the seeds draw white: white where it has
    /// at least 4.5:1 contrast with the fill, else black (issue 46: white on the system yellow is 1.5:1, on orange,
    /// green, mint, teal and cyan 2.1–2.6:1, on red, blue, purple, pink, brown and gray 3.3–4.1:1; black has at
    /// least 5:1 on each of those). The fill is the seed's colour, kept; for any opaque fill one of white and black
    /// has at least 4.58:1. The text bar is 4.5:1 for every size, so a card's title keeps its colour when it grows
    /// (large text would pass at 3:1) and a terminal's cells, all one size, pass too.
    static func label(on fill: RGBA) -> RGBA {
        RGBA.label(on: fill)
    }

    /// Text for `background`: `preferred` when it has at least 4.5:1 contrast with it (WCAG 2.2, 1.4.3), else black,
    /// else white, else whichever of them contrasts most.
    static func readableText(on background: RGBA, preferring preferred: RGBA) -> RGBA {
        firstContrasting([preferred, text, white], with: [background], atLeast: 4.5)
    }

    /// The first of `candidates` whose lowest contrast with `backgrounds` is at least `minimum`, else the one whose
    /// lowest contrast is highest (the first of equals). O(candidates × backgrounds).
    static func firstContrasting(_ candidates: [RGBA], with backgrounds: [RGBA], atLeast minimum: Double) -> RGBA {
        func lowest(_ colour: RGBA) -> Double { backgrounds.map(colour.contrastRatio(with:)).min() ?? .infinity }
        if let colour = candidates.first(where: { lowest($0) >= minimum }) { return colour }
        return candidates.max { lowest($0) < lowest($1) } ?? text
    }
}
