import CardGeometry
import Foundation

/// A lint over a frame: every text run legible against what is actually behind it (issue 46).
///
/// WCAG 2.2 asks 4.5:1 for text (success criterion 1.4.3), 3:1 for large text — at least 18 pt, or 14 pt bold,
/// which is 24 and 18.67 CSS pixels; a scene's points are taken as CSS pixels, as the web host draws them, and a
/// style's size is `StandardTextMeasurer.pointSize(of:)` — and 3:1 for a symbol, a graphic that carries meaning
/// (1.4.11).
///
/// What is behind a run is found where its lines are drawn (`docs/protocol.md`, *Text*: the block of lines centred
/// vertically in the node, each line placed by its alignment, measured with `measurer`): at three points along each
/// line, the fills of every node painted before the run whose rect (scaled and rotated about its centre) holds the
/// point, inside its clipping ancestors, each at its fill's alpha times the node's opacity, over `page`; then the
/// run's node's own fill. The run's colour at its alpha times its node's opacity over that is the text's colour. A
/// point that a later fill covers (a child's, a card in front, a scrim's: hidden or, under a scrim, an inactive
/// component, which 1.4.3 exempts), that lies outside the run's clipping ancestors or outside the viewport, is not
/// checked; nor is a run of a node that is invisible (opacity at most 1 %). Shadows and strokes are not fills.
///
/// Meant for frames at rest; mid-animation a fading node is on its way somewhere.
///
/// Complexity: O(runs × lines × n) for n nodes.
public struct FrameContrastLint: Sendable {
    /// A run drawn with less contrast than it needs.
    public struct Finding: Sendable, Hashable, CustomStringConvertible {
        /// The node the run belongs to.
        public var node: NodeID
        /// The run's text.
        public var text: String
        /// The run's colour as drawn on what is behind it where the contrast is lowest, that contrast, and what the
        /// run needs (4.5, or 3 for large text and symbols).
        public var contrast: ContrastShortfall

        public var description: String { "\(node) \"\(text)\": \(contrast)" }
    }

    /// Measures the runs' lines, to find where they are drawn.
    public var measurer: any TextMeasurer
    /// What is under every node (a host's page).
    public var page: RGBA

    /// A lint placing lines with `measurer` over `page`.
    public init(measurer: any TextMeasurer = StandardTextMeasurer(), page: RGBA = .white) {
        self.measurer = measurer
        self.page = page
    }

    /// The contrast a run of `style` and `weight` needs: 3 for large text (WCAG's 18 pt, or 14 pt bold) and for a
    /// symbol, else 4.5.
    public static func minimum(style: TextStyle, weight: TextWeight, isSymbol: Bool) -> Double {
        if isSymbol { return 3 }
        let size = StandardTextMeasurer.pointSize(of: style)
        let large = size >= 24 || (weight != .regular && size >= 18.67)
        return large ? 3 : 4.5
    }

    /// Every run of `frame` with less contrast than it needs, one finding per run (its lowest contrast).
    public func findings(in frame: Frame) -> [Finding] {
        let nodes = frame.nodes
        var position: [NodeID: Int] = [:]
        for (index, node) in nodes.enumerated() { position[node.id] = index }
        // Each node's clipping ancestors, innermost first.
        let clips: [[Int]] = nodes.map { node in
            var found: [Int] = []
            var parent = node.parent.flatMap { position[$0] }
            while let index = parent {
                if nodes[index].clipsContent { found.append(index) }
                parent = nodes[index].parent.flatMap { position[$0] }
            }
            return found
        }
        let viewport = Rect(x: 0, y: 0, width: frame.viewport.width, height: frame.viewport.height)
        func visible(_ point: Point, through index: Int) -> Bool {
            clips[index].allSatisfy { Self.holds(nodes[$0], point) }
        }
        func fillAlpha(_ node: FrameNode) -> Double {
            guard let fill = node.fill else { return 0 }
            return min(max(fill.alpha * node.opacity, 0), 1)
        }

        var findings: [Finding] = []
        for (index, node) in nodes.enumerated() where node.opacity > 0.01 && !node.text.isEmpty {
            for (run, points) in samples(of: node) {
                let minimum = Self.minimum(style: run.style, weight: run.weight, isSymbol: run.isSymbol)
                var worst: (ratio: Double, foreground: RGBA, background: RGBA)?
                for point in points where viewport.contains(point) && visible(point, through: index) {
                    let covered = nodes[(index + 1)...].indices.contains { later in
                        fillAlpha(nodes[later]) > 0.01 && Self.holds(nodes[later], point)
                            && visible(point, through: later)
                    }
                    if covered { continue }
                    var background = page
                    for earlier in 0...index where fillAlpha(nodes[earlier]) > 0 {
                        let under = nodes[earlier]
                        guard Self.holds(under, point), visible(point, through: earlier), let fill = under.fill else {
                            continue
                        }
                        background = RGBA(
                            red: fill.red, green: fill.green, blue: fill.blue, alpha: fillAlpha(under)
                        ).over(background)
                    }
                    let color = run.color
                    let foreground = RGBA(
                        red: color.red, green: color.green, blue: color.blue,
                        alpha: min(max(color.alpha * node.opacity, 0), 1)
                    ).over(background)
                    let ratio = foreground.contrastRatio(with: background)
                    if ratio < (worst?.ratio ?? .infinity) { worst = (ratio, foreground, background) }
                }
                if let worst, worst.ratio < minimum {
                    let contrast = ContrastShortfall(worst.foreground, on: worst.background, needing: minimum)
                    findings.append(Finding(node: node.id, text: run.text, contrast: contrast))
                }
            }
        }
        return findings
    }

    /// Where each run of `node` is drawn: three points (a tenth, half and nine tenths of its width) along the
    /// middle of each of its lines, in viewport points; a symbol at the node's centre.
    func samples(of node: FrameNode) -> [(TextRun, [Point])] {
        let rect = node.rect
        var blocks: [(run: TextRun, lines: [String])] = []
        var height = 0.0
        var previousContinues = false
        for text in node.text {
            let lines = text.run.isSymbol ? [] : (text.lines.isEmpty ? [text.text] : text.lines)
            blocks.append((text.run, lines))
            if !previousContinues { height += Double(lines.count) * measurer.lineHeight(of: text.run.style) }
            previousContinues = !text.run.isSymbol && text.text.last?.isWhitespace == true
        }
        var y = rect.midY - height / 2
        var result: [(TextRun, [Point])] = []
        previousContinues = false
        for (run, lines) in blocks {
            if run.isSymbol {
                result.append((run, [Self.place(rect.center, in: node)]))
                continue
            }
            let lineHeight = measurer.lineHeight(of: run.style)
            if previousContinues { y -= lineHeight }
            var points: [Point] = []
            for line in lines where !line.allSatisfy(\.isWhitespace) {
                let width = min(measurer.width(of: line[...], style: run.style, weight: run.weight), rect.width)
                let left: Double
                switch run.alignment {
                case .leading: left = rect.minX
                case .center: left = rect.midX - width / 2
                case .trailing: left = rect.maxX - width
                }
                // A run continuing a line may sit anywhere along it: the whole width is sampled.
                let (start, span) = previousContinues ? (rect.minX, rect.width) : (left, width)
                for fraction in [0.1, 0.5, 0.9] {
                    points.append(
                        Self.place(Point(x: start + span * fraction, y: y + lineHeight / 2), in: node))
                }
                y += lineHeight
            }
            result.append((run, points))
            previousContinues = run.text.last?.isWhitespace == true
        }
        return result
    }

    /// `point`, given in the node's unscaled, unrotated frame, where it is drawn (scaled and rotated about the
    /// centre of the node's rect).
    static func place(_ point: Point, in node: FrameNode) -> Point {
        let center = node.rect.center
        let radians = node.rotation * .pi / 180
        let (dx, dy) = ((point.x - center.x) * node.scale, (point.y - center.y) * node.scale)
        return Point(
            x: center.x + dx * cos(radians) - dy * sin(radians), y: center.y + dx * sin(radians) + dy * cos(radians))
    }

    /// Whether `point` (in viewport points) lies on `node` as drawn: its rounded rect, scaled and rotated.
    static func holds(_ node: FrameNode, _ point: Point) -> Bool {
        guard node.scale > 0 else { return false }
        let center = node.rect.center
        let radians = -node.rotation * .pi / 180
        let (dx, dy) = (point.x - center.x, point.y - center.y)
        let local = Point(
            x: center.x + (dx * cos(radians) - dy * sin(radians)) / node.scale,
            y: center.y + (dx * sin(radians) + dy * cos(radians)) / node.scale)
        return node.rect.contains(local, cornerRadius: node.cornerRadius)
    }
}
