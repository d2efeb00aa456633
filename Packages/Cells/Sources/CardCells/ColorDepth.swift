/// How many colours the terminal shows, chosen from the environment at start-up.
public enum ColorDepth: String, Sendable, Hashable, CaseIterable {
    /// 24-bit colour (SGR 38;2 / 48;2).
    case trueColor
    /// The xterm 256-colour palette (SGR 38;5 / 48;5).
    case palette256
    /// The 16 basic colours (SGR 30–37, 90–97 and 40–47, 100–107).
    case basic16
    /// No colour at all (`NO_COLOR`): only the terminal's default colours and text attributes.
    case none

    /// The depth the environment asks for: `NO_COLOR` (any non-empty value, https://no-color.org) wins; then
    /// `COLORTERM` `truecolor` or `24bit`; then a `TERM` ending in `256color`; else 16 colours.
    public static func detect(environment: [String: String]) -> ColorDepth {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
        if (environment["TERM"] ?? "").hasSuffix("256color") { return .palette256 }
        return .basic16
    }

    /// `color` as this depth shows it. RGB colours are mapped to the nearest palette entry; palette and default
    /// colours pass through (a palette index above 15 in 16-colour mode is mapped through its RGB value).
    public func convert(_ color: CellColor) -> CellColor {
        switch self {
        case .trueColor:
            return color
        case .none:
            return .terminalDefault
        case .palette256:
            guard case .rgb(let red, let green, let blue) = color.kind else { return color }
            return .indexed(Palette.nearest256(red, green, blue))
        case .basic16:
            switch color.kind {
            case .terminalDefault: return color
            case .rgb(let red, let green, let blue): return .indexed(Palette.nearest16(red, green, blue))
            case .indexed(let index):
                if index < 16 { return color }
                let (red, green, blue) = Palette.rgb(of: index)
                return .indexed(Palette.nearest16(red, green, blue))
            }
        }
    }

    /// Converts every colour of `buffer` in place. O(cells); a no-op for true colour.
    public func convert(_ buffer: inout CellBuffer) {
        guard self != .trueColor else { return }
        var lastIn = CellColor.terminalDefault
        var lastOut = convert(lastIn)
        for index in buffer.cells.indices {
            let foreground = buffer.cells[index].foreground
            if foreground != lastIn {
                lastIn = foreground
                lastOut = convert(foreground)
            }
            buffer.cells[index].foreground = lastOut
            let background = buffer.cells[index].background
            if background != lastIn {
                lastIn = background
                lastOut = convert(background)
            }
            buffer.cells[index].background = lastOut
        }
    }
}

/// The xterm palettes and nearest-colour searches.
enum Palette {
    /// The six levels of each channel in xterm's 6×6×6 colour cube (indices 16–231), from xterm's 256colres.pl.
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// xterm's default RGB values of the 16 basic colours (xterm's XTerm-col.ad / charproc.c defaults).
    static let basic: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
        (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255),
        (0, 255, 255), (255, 255, 255),
    ]

    /// The RGB value of a 256-palette entry: the basic colours, the cube, then the grey ramp 8 + 10·i (232–255).
    static func rgb(of index: UInt8) -> (UInt8, UInt8, UInt8) {
        let value = Int(index)
        if value < 16 {
            let (red, green, blue) = basic[value]
            return (UInt8(red), UInt8(green), UInt8(blue))
        }
        if value >= 232 {
            let level = UInt8(8 + 10 * (value - 232))
            return (level, level, level)
        }
        let cube = value - 16
        return (
            UInt8(cubeLevels[cube / 36]), UInt8(cubeLevels[(cube / 6) % 6]), UInt8(cubeLevels[cube % 6])
        )
    }

    /// The nearest cube level index for a channel value (the thresholds tmux's colour.c uses: below 48 → 0,
    /// below 115 → 1, else (v − 35) / 40).
    static func cubeIndex(_ value: Int) -> Int {
        if value < 48 { return 0 }
        if value < 115 { return 1 }
        return (value - 35) / 40
    }

    static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let dr = a.0 - b.0
        let dg = a.1 - b.1
        let db = a.2 - b.2
        return dr * dr + dg * dg + db * db
    }

    /// The nearest entry of the 256-colour palette among the cube and the grey ramp (as tmux's
    /// `colour_find_rgb` does; the 16 basic colours are skipped because terminals redefine them). O(1).
    static func nearest256(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt8 {
        let rgb = (Int(red), Int(green), Int(blue))
        let (qr, qg, qb) = (cubeIndex(rgb.0), cubeIndex(rgb.1), cubeIndex(rgb.2))
        let cube = (cubeLevels[qr], cubeLevels[qg], cubeLevels[qb])
        let cubeIndexValue = 16 + 36 * qr + 6 * qg + qb
        if cube == rgb { return UInt8(cubeIndexValue) }
        let average = (rgb.0 + rgb.1 + rgb.2) / 3
        let greyIndex = average > 238 ? 23 : max(0, (average - 3) / 10)
        let greyLevel = 8 + 10 * greyIndex
        let grey = (greyLevel, greyLevel, greyLevel)
        return distance(grey, rgb) < distance(cube, rgb) ? UInt8(232 + greyIndex) : UInt8(cubeIndexValue)
    }

    /// The nearest of the 16 basic colours by squared RGB distance. O(16).
    static func nearest16(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt8 {
        let rgb = (Int(red), Int(green), Int(blue))
        var best = 0
        var bestDistance = Int.max
        for (index, entry) in basic.enumerated() {
            let candidate = distance(entry, rgb)
            if candidate < bestDistance {
                bestDistance = candidate
                best = index
            }
        }
        return UInt8(best)
    }
}
