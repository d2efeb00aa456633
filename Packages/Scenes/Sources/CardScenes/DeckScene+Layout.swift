import CardEngine
import CardGeometry
import CardGestures
import CardPhysics

/// The deck scene's geometry for one viewport, in points.
///
/// On a 390×844 phone: cards 358 wide (16 pt margins) and 225.7 tall (a payment card's 1.586 aspect), each 60 pt
/// below the one before (`step`), the column starting 72 pt from the top under the title bar. Narrow or short
/// viewports scale the card down (at most 35 % of the height) and the step with it (at most 30 % of a card).
package struct DeckMetrics: Sendable, Hashable {
    /// The space left and right of the cards: 16 pt, or 5 % of the width on narrower viewports.
    package var sideMargin: Double
    /// A card's width: the viewport's width less both side margins.
    package var cardWidth: Double
    /// A card's height: its width over 1.586, at most 35 % of the viewport's height.
    package var cardHeight: Double
    /// The distance between the tops of neighbouring cards in the closed stack.
    package var step: Double
    /// The top of the first card when the column is not scrolled.
    package var contentTop: Double
    /// Space below the last card.
    package var bottomPadding: Double
    /// The detail view's distance from the top and bottom edges (the strips left for a background tap).
    package var detailInset: Double
    /// The viewport these metrics were computed for.
    package var viewport: Size
    /// The height of a row of the grid the metrics are on (0 off a grid): the fan opens by whole rows.
    package var rowHeight: Double
    /// The most cards one layout holds.
    package static let maximumVisibleCards = 1_000

    /// The metrics for `viewport`, on `grid` (`LayoutGrid`): on a terminal's cells every length is a whole number of
    /// cells, so every strip of the stack shows the same number of rows (3.75 rows apart they showed 3, 4, 4, 4
    /// and 3) and a pointer's row finds the card drawn there.
    package init(viewport: Size) { self.init(viewport: viewport, grid: .continuous) }

    /// The metrics for `viewport` on `grid`.
    package init(viewport: Size, grid: LayoutGrid) {
        self.viewport = viewport
        rowHeight = grid.rowHeight
        sideMargin = grid.width(min(16, viewport.width * 0.05))
        cardWidth = max(1, viewport.width - 2 * sideMargin)
        cardHeight = max(1, grid.height(min(cardWidth / 1.586, viewport.height * 0.35)))
        step = max(1, grid.height(min(60, cardHeight * 0.3)))
        contentTop = grid.y(min(72, viewport.height * 0.12))
        bottomPadding = grid.height(min(24, viewport.height * 0.05), keepsNonZero: false)
        detailInset = grid.y(min(56, viewport.height * 0.08))
    }

    /// The distance between card tops while the stack is pulled `pull` points past its top: every gap widens by
    /// `pull·0.25`, so card i is `i·pull·0.25` lower than in the closed stack.
    package func pitch(pull: Double) -> Double { step + max(0, pull) * DeckScene.fanResistance }

    /// The largest content offset for `count` cards.
    package func maxOffset(count: Int) -> Double {
        guard count > 0 else { return 0 }
        return max(0, contentTop + Double(count - 1) * step + cardHeight + bottomPadding - viewport.height)
    }

    /// The on-screen top of the card in `slot`.
    package func cardTop(slot: Int, scroll: Double, pull: Double) -> Double {
        contentTop + Double(slot) * step + fanOffset(slot: slot, pull: pull) - scroll
    }

    /// How much lower than in the closed stack the fan puts the card in `slot`: `slot · pull · 0.25` off a grid.
    ///
    /// On a grid every gap is a whole number of rows: `pull · 0.25` in rows is a whole part every gap gets and a
    /// fraction `f`, and gap g (between slots g and g + 1) gets one row more when its threshold (`fanThresholds`,
    /// by g mod 16) is below `f`. As the pull grows a gap only ever widens, and the extra rows spread evenly down
    /// the stack, so the card in `slot` is within a row or so of `slot · pull · 0.25`. Rounding each card's exact
    /// top instead made the gaps between neighbours go 3, 4, 3, 4 rows as the pull grew (issue 46, item 10).
    /// O(16).
    package func fanOffset(slot: Int, pull: Double) -> Double {
        let spread = max(0, pull) * DeckScene.fanResistance
        guard spread > 0, spread.isFinite, slot > 0 else { return 0 }
        guard rowHeight > 0 else { return Double(slot) * spread }
        let rows = spread / rowHeight
        let whole = rows.rounded(.down)
        let fraction = rows - whole
        let period = Self.fanThresholds.count
        let perPeriod = Self.fanThresholds.count { $0 < fraction }
        let extra = slot / period * perPeriod + Self.fanThresholds[..<(slot % period)].count { $0 < fraction }
        return (Double(slot) * whole + Double(extra)) * rowHeight
    }

    /// When each gap of 16 gets its extra row, as the fraction of a row the fan is past its whole rows grows: the
    /// base-2 van der Corput sequence (0, ½, ¼, ¾, ⅛ …), so the gaps that have one at any fraction are spread
    /// evenly down the stack.
    static let fanThresholds: [Double] = (0..<16).map { index in
        var (value, bit, rest) = (0.0, 0.5, index)
        while rest > 0 {
            if rest & 1 == 1 { value += bit }
            bit /= 2
            rest >>= 1
        }
        return value
    }

    /// The slots whose cards intersect the viewport widened by one step above and below (at most
    /// `maximumVisibleCards`). O(1).
    package func visibleSlots(count: Int, scroll: Double, pull: Double) -> Range<Int> {
        guard count > 0 else { return 0..<0 }
        let pitch = pitch(pull: pull)
        let low = (scroll - contentTop - cardHeight - step) / pitch
        let high = (scroll - contentTop + viewport.height + step) / pitch
        guard low.isFinite, high.isFinite else { return 0..<0 }
        // Strictly inside: the first slot whose bottom is below −step, the last whose top is above height + step.
        let first = Int(max(0, min(Double(count), low.rounded(.down) + 1)))
        let last = Int(max(-1, min(Double(count - 1), high.rounded(.up) - 1)))
        // A pathological viewport (100,000 pt tall, 1 pt cards) is capped rather than laid out by the thousand.
        return first <= last ? first..<min(last + 1, first + DeckMetrics.maximumVisibleCards) : 0..<0
    }

    /// The full-screen detail's rect, dragged down by `offset`.
    package func detailRect(offset: Double) -> Rect {
        Rect(
            x: sideMargin * 0.75, y: detailInset + offset, width: viewport.width - 1.5 * sideMargin,
            height: max(1, viewport.height - 2 * detailInset))
    }
}

/// Where the cards that enter the view after a sort slide in from: card index → vertical offset from their new
/// place towards their old one (clamped to a screen).
struct SortPlan: Sendable, Hashable {
    var entering: [Int: Double]
}

extension DeckScene {
    static let cardShadow = Shadow(
        color: RGBA(red: 0, green: 0, blue: 0, alpha: 0.22), radius: 8, offset: Vector(dx: 0, dy: -3))
    static let liftedShadow = Shadow(
        color: RGBA(red: 0, green: 0, blue: 0, alpha: 0.35), radius: 18, offset: Vector(dx: 0, dy: 8))

    /// The card shown in `slot` of the current arrangement (accounting for a card being dragged), or nil for the
    /// dragged card's own slot. O(1).
    func card(inSlot slot: Int) -> Int? {
        guard case .reordering(let drag) = mode else { return card(at: slot) }
        if slot == drag.drop { return nil }
        let without = slot < drag.drop ? slot : slot - 1
        return card(at: without < drag.from ? without : without + 1)
    }

    /// The slot a position's card occupies while a card is dragged (its position otherwise). O(1).
    func slot(ofPosition position: Int) -> Int {
        guard case .reordering(let drag) = mode else { return position }
        if position == drag.from { return drag.drop }
        let without = position < drag.from ? position : position - 1
        return without < drag.drop ? without : without + 1
    }

    /// The card whose rect holds `point` in the closed or fanned stack: the topmost of the overlapping cards
    /// (highest index) whose rect contains it, by coordinate math. O(1).
    func cardPosition(at point: Point, metrics: DeckMetrics) -> Int? {
        guard count > 0, point.x >= metrics.sideMargin, point.x <= metrics.sideMargin + metrics.cardWidth else {
            return nil
        }
        let pitch = metrics.pitch(pull: pull)
        let content = point.y - metrics.contentTop + scrollOffset
        guard content >= 0, content.isFinite else { return nil }
        // The estimate from the exact pitch, moved to the last card whose top (on a grid, by whole rows: see
        // `fanOffset`) is at or above the point.
        func top(_ slot: Int) -> Double { metrics.cardTop(slot: slot, scroll: 0, pull: pull) - metrics.contentTop }
        var topmost = min(count - 1, Int((content / pitch).rounded(.down)))
        while topmost + 1 < count, top(topmost + 1) <= content { topmost += 1 }
        while topmost > 0, top(topmost) > content { topmost -= 1 }
        return content - top(topmost) < metrics.cardHeight ? topmost : nil
    }

    public func layout(in viewport: Size) -> [Node] { layout(in: viewport, text: StandardTextMeasurer()) }

    public func layout(in viewport: Size, text measurer: any TextMeasurer) -> [Node] {
        let metrics = DeckMetrics(viewport: viewport, grid: measurer.layoutGrid)
        // The header holds its two lines whatever the text metrics (it covers the top of the column).
        let titleHeight = max(
            metrics.contentTop * 0.8, measurer.lineHeight(of: .largeTitle) + measurer.lineHeight(of: .footnote))
        let top = Double(count)
        var nodes: [Node] = [
            Node(
                id: "background", role: .background,
                rect: Rect(x: 0, y: 0, width: viewport.width, height: viewport.height),
                z: -2, fill: Palette.background, isHitTestable: false),
            Node(
                id: "column", role: .background,
                rect: Rect(x: 0, y: 0, width: viewport.width, height: viewport.height), z: -1,
                gestures: columnGestures(metrics: metrics), clipsContent: true),
            Node(
                id: "title", role: .title,
                rect: Rect(x: metrics.sideMargin, y: 0, width: metrics.cardWidth, height: titleHeight),
                z: top + 2, fill: Palette.background.opacity(0.92), text: titleText(), isHitTestable: false),
        ]
        let expanded: Int? = if case .expanded(let card, _) = mode { card } else { nil }
        var slots = metrics.visibleSlots(count: count, scroll: scrollOffset, pull: pull)
        if let carried = coastSlots, !carried.isEmpty, carried.upperBound <= count {
            slots = min(slots.lowerBound, carried.lowerBound)..<max(slots.upperBound, carried.upperBound)
        }
        for slot in slots {
            guard let card = card(inSlot: slot), card != expanded else { continue }
            let rect = Rect(
                x: metrics.sideMargin, y: metrics.cardTop(slot: slot, scroll: scrollOffset, pull: pull),
                width: metrics.cardWidth, height: metrics.cardHeight)
            var node = cardNode(card, rect: rect, z: Double(slot))
            if let offset = sortPlan?.entering[card] { node.transition = .offset(Vector(dx: 0, dy: offset)) }
            nodes.append(node)
        }
        switch mode {
        case .browsing:
            break
        case .reordering(let drag):
            let rect = Rect(
                x: metrics.sideMargin,
                y: metrics.cardTop(slot: drag.from, scroll: scrollOffset, pull: pull) + drag.translation,
                width: metrics.cardWidth, height: metrics.cardHeight)
            var node = cardNode(drag.card, rect: rect, z: top + 1)
            node.scale = 1.04
            node.shadow = Self.liftedShadow
            nodes.append(node)
        case .expanded(let card, let dismissOffset):
            nodes.append(
                Node(
                    id: "backdrop", role: .overlay,
                    rect: Rect(x: 0, y: 0, width: viewport.width, height: viewport.height), z: top + 3,
                    opacity: max(0, 1 - dismissOffset / 400), fill: RGBA(red: 0, green: 0, blue: 0, alpha: 0.4),
                    transition: .opacity, gestures: [GestureAttachment("collapse", TapGesture())]))
            nodes.append(detailNode(card, rect: metrics.detailRect(offset: dismissOffset), z: top + 4))
        }
        return nodes
    }

    /// The column's gestures, ranked in this order on one surface (like the seed's UIKit wrapper): tap, long
    /// press then drag (reorder), scroll.
    func columnGestures(metrics: DeckMetrics) -> [GestureAttachment] {
        [
            GestureAttachment("tap", TapGesture()),
            GestureAttachment(
                "reorder",
                LongPressGesture(minimumDuration: Self.longPressDuration).sequenced(
                    before: DragGesture(minimumDistance: 0))),
            GestureAttachment(
                "scroll",
                ScrollGesture(contentOffset: scrollOffset, offsetRange: 0...metrics.maxOffset(count: count))),
        ]
    }

    func titleText() -> [TextRun] {
        var subtitle = "\(Self.grouped(count)) \(count == 1 ? "card" : "cards")"
        if let sort { subtitle += " · by \(Self.sortName(sort.key)) \(sort.descending ? "↓" : "↑")" }
        return [
            TextRun("Cards", style: .largeTitle, color: Palette.text, weight: .bold, lineLimit: 1),
            TextRun(subtitle, style: .footnote, color: Palette.secondaryTextOnBar, lineLimit: 1),
        ]
    }

    func cardNode(_ card: Int, rect: Rect, z: Double) -> Node {
        let value = base[card]
        return Node(
            id: Self.node(value.id), role: .card, card: value.id, parent: "column", rect: rect, z: z,
            cornerRadius: 16, fill: RGBA(value.color),
            stroke: slot(of: card) == focus ? Palette.focusRing(on: RGBA(value.color)) : nil,
            shadow: Self.cardShadow,
            text: [TextRun(value.title, style: .headline, color: Palette.label(on: RGBA(value.color)), weight: .bold)],
            matchedGeometryID: Self.matchedID(value.id), isHitTestable: false, accessibilityLabel: value.title)
    }

    func detailNode(_ card: Int, rect: Rect, z: Double) -> Node {
        let value = base[card]
        let sortOrder = order.manualRank(of: card) ?? value.sortOrder
        let label = Palette.label(on: RGBA(value.color))
        return Node(
            id: Self.detailNode(value.id), role: .card, card: value.id, rect: rect, z: z, cornerRadius: 24,
            fill: RGBA(value.color), shadow: Self.liftedShadow,
            text: [
                TextRun(value.title, style: .largeTitle, color: label, weight: .bold),
                TextRun(
                    "Card \(Self.grouped(slot(of: card) + 1)) of \(Self.grouped(count)) · your order: "
                        + Self.grouped(sortOrder + 1),
                    style: .body,
                    color: label),
                TextRun("Drag down or tap outside to close", style: .footnote, color: label),
            ],
            transition: .asymmetric(insertion: .opacity, removal: .identity),
            matchedGeometryID: Self.matchedID(value.id),
            gestures: [
                GestureAttachment(
                    "dismiss", DragGesture(minimumDistance: Self.dismissMinimumDistance), priority: .simultaneous)
            ])
    }
}

extension DeckScene {
    /// `value` with its thousands grouped by commas ("1,000,000"), as people read counts. O(digits).
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// A sort key in the words the help and the header share: "title", "colour", "your order".
    static func sortName(_ key: DeckSort.Key) -> String {
        switch key {
        case .title: "title"
        case .color: "colour"
        case .sortOrder: "your order"
        }
    }
}
