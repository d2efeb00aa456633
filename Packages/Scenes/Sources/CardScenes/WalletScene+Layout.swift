import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardPhysics

/// The wallet's layout: the seed's `VStack { TopNavBar; Spacer; ZStack { cards }; [history]; Spacer }`, in points.
extension WalletScene {
    static let titleTop = 20.0
    static let titleHeight = 41.0
    /// The title bar's bottom padding (`.padding(.bottom)`).
    static let titleBottomPadding = 16.0
    /// The cards' horizontal padding (`.padding(.horizontal, 35)`).
    static let cardPadding = 35.0
    /// A payment card's width over its height (ISO/IEC 7810 ID-1: 85.60 × 53.98 mm).
    static let cardAspect = 85.60 / 53.98
    static let historyTopPadding = 10.0
    static let historyHeaderHeight = 40.0
    static let historyPadding = 16.0
    /// A transaction tile's width, the space between tiles and the padding inside a tile (the starter project's
    /// `TransactionView` in its horizontal `ScrollView`; the seed's text does not reproduce it, so these are a
    /// documented choice of that shape: icon, merchant, amount and date stacked in a rounded tile).
    static let tileWidth = 120.0
    static let tileSpacing = 20.0
    static let tilePadding = 12.0
    static let tileGap = 8.0

    /// The frame a card's content is laid out in: the card's size and the y of card 0 at rest (the ZStack's top).
    struct Metrics {
        var cardSize: Size
        var originX: Double
        var stackTop: Double
        /// The transaction history's top (under the selected card).
        var historyTop: Double
        /// A transaction tile's size, the step from one tile to the next and the padding before the first.
        var tileSize: Size
        var tileStep: Double
        var tileInset: Double
        /// The vertical step between stacked cards: the seed's 50 points, in whole rows on a terminal's grid so
        /// that every card shows the same number of rows of itself.
        var step = WalletScene.cardOffset
    }

    /// A transaction tile's size for `text`'s metrics and `grid`: padding, the icon's line, a gap, the merchant's
    /// and the amount's lines, a gap, the date's line, padding.
    /// The width is the seed's 120 points, or what the widest amount or date needs with the tile's padding (a
    /// terminal's cell-wide characters): a date is never cut.
    static func tileSize(text: any TextMeasurer, transactions: [Transaction] = []) -> Size {
        let grid = text.layoutGrid
        var widest = 0.0
        for transaction in transactions {
            widest = max(
                widest, text.width(of: transaction.date[...], style: .footnote, weight: .regular),
                text.width(of: transaction.formattedAmount[...], style: .body, weight: .bold))
        }
        let width = grid.width(max(tileWidth, widest + 2 * tileMargin), rounded: .up)
        let height =
            2 * grid.height(tilePadding) + text.lineHeight(of: .title) + 2 * grid.height(tileGap, keepsNonZero: false)
            + text.lineHeight(of: .headline) + text.lineHeight(of: .body) + text.lineHeight(of: .footnote)
        return Size(width: width, height: height)
    }

    /// The space on each side of a tile's text (a documented choice: 6 points, a column at most on a terminal).
    static let tileMargin = 6.0

    /// The history's horizontal scroll view sized for `viewport` on `grid`: the tiles side by side with the
    /// history's padding before the first and after the last.
    static func historyContentLength(count: Int, tileWidth: Double, grid: LayoutGrid) -> Double {
        let inset = grid.width(historyPadding)
        let step = tileWidth + grid.width(tileSpacing)
        return 2 * inset + Double(max(count, 0)) * step - (count > 0 ? grid.width(tileSpacing) : 0)
    }

    /// Brings the history's scroll view up to date with `viewport` and the front end's text (before an event
    /// uses it).
    mutating func sizeHistory(viewport: Size, text: any TextMeasurer) {
        let tile = Self.tileSize(text: text, transactions: transactions)
        history.resize(
            contentLength: Self.historyContentLength(
                count: transactions.count, tileWidth: tile.width, grid: text.layoutGrid),
            viewportLength: viewport.width)
    }

    func metrics(in viewport: Size, text: any TextMeasurer = StandardTextMeasurer()) -> Metrics {
        let grid = text.layoutGrid
        let tile = Self.tileSize(text: text, transactions: transactions)
        let step = grid.height(Self.cardOffset)
        let titleBottom = Self.titleTop + Self.titleHeight + Self.titleBottomPadding
        // The card fills the width (padding 35) unless the stack would not fit under the title bar, as a
        // `scaledToFit` image shrinks to the height it is offered; never below 40 points high.
        let padding = min(Self.cardPadding, viewport.width * 0.09)
        let stackRise = step * Double(max(deck.count - 1, 0))
        let fittingHeight = max(viewport.height - titleBottom - 16 - stackRise, 40)
        let width = grid.width(max(min(viewport.width - 2 * padding, fittingHeight * Self.cardAspect), 1))
        let size = Size(width: width, height: grid.height(width / Self.cardAspect))
        var fixed = size.height
        if selected != nil {
            fixed +=
                Self.historyTopPadding + Self.historyHeaderHeight + tile.height
                + grid.height(Self.historyPadding, keepsNonZero: false)
        }
        // The two spacers share what is left equally; in a short viewport the stack is lowered so that the card
        // at the back (offset −50·(count − 1)) stays under the title bar.
        var stackTop = titleBottom + max(viewport.height - titleBottom - fixed, 0) / 2
        if selected == nil { stackTop = max(stackTop, titleBottom + stackRise) }
        stackTop = grid.y(stackTop)
        return Metrics(
            cardSize: size, originX: grid.x((viewport.width - width) / 2), stackTop: stackTop,
            historyTop: grid.y(stackTop + size.height + Self.historyTopPadding), tileSize: tile,
            tileStep: tile.width + grid.width(Self.tileSpacing), tileInset: grid.width(Self.historyPadding),
            step: step)
    }

    /// The seed's `offset(for:)`: selection first, then the press-and-drag of the pressed card; `step` is the
    /// stack's step (`Metrics.step`).
    func offset(forIndex index: Int, step: Double = WalletScene.cardOffset) -> Vector {
        if let selected, let selectedIndex = deck.index(of: selected) {
            return Vector(dx: 0, dy: index >= selectedIndex ? 0 : Self.dropOffset)
        }
        var pressed = Vector.zero
        var dragY = 0.0
        if held == index, dragState.index == nil { pressed.dy = -20 }
        if let dragging = dragState.index, dragging == index {
            pressed.dy = dragState.isPressing ? -20 : 0
            let width = dragState.translation.dx
            if width < -10 { pressed.dx = -20 } else if width > 10 { pressed.dx = 20 }
            dragY = dragState.translation.dy
        }
        return Vector(dx: pressed.dx, dy: -step * Double(index) + pressed.dy + dragY)
    }

    /// The seed's `zIndex(for:)`: −index, plus height/step for the card being dragged (`step` the stack's step as
    /// laid out, 50 points off a grid), so it passes over a card as it passes it on screen.
    func zIndex(forIndex index: Int, step: Double = WalletScene.cardOffset) -> Double {
        let base = -Double(index)
        guard let dragging = dragState.index, dragging == index else { return base }
        return base + dragState.translation.dy / (step > 0 ? step : Self.cardOffset)
    }

    public func layout(in viewport: Size) -> [Node] { layout(in: viewport, text: StandardTextMeasurer()) }

    public func layout(in viewport: Size, text measurer: any TextMeasurer) -> [Node] {
        let metrics = metrics(in: viewport, text: measurer)
        var nodes: [Node] = [
            Node(
                id: "background", role: .background,
                rect: Rect(x: 0, y: 0, width: viewport.width, height: viewport.height), z: -10_000,
                fill: Palette.white, isHitTestable: false),
            Node(
                id: "title", role: .title,
                rect: Rect(x: 16, y: Self.titleTop, width: max(viewport.width - 32 - 40, 1), height: Self.titleHeight),
                z: -9_999, text: [TextRun("Wallet", style: .largeTitle, weight: .heavy)], isHitTestable: false),
            Node(
                id: "title.plus", role: .icon,
                rect: Rect(x: viewport.width - 16 - 32, y: Self.titleTop + 4.5, width: 32, height: 32), z: -9_999,
                text: [TextRun("plus.circle.fill", style: .title, alignment: .center)], isHitTestable: false),
        ]
        guard isPresented else { return nodes }
        nodes.reserveCapacity(3 + deck.count * 4 + (selected == nil ? 0 : 3 + transactions.count * 5))
        // Back to front (ascending z), so the frame is usually in paint order already.
        for index in deck.indices.reversed() {
            let card = deck[index]
            guard case .payment(let payment) = card.payload else { continue }
            let offset = offset(forIndex: index, step: metrics.step)
            let rect = Rect(
                x: metrics.originX + offset.dx, y: metrics.stackTop + offset.dy, width: metrics.cardSize.width,
                height: metrics.cardSize.height)
            nodes += cardNodes(
                card, payment, rect: rect, z: zIndex(forIndex: index, step: metrics.step), text: measurer)
        }
        if selected != nil { nodes += historyNodes(metrics, in: viewport, text: measurer) }
        return nodes
    }

    /// A card and its text: brand at the top trailing corner, number and "holder Valid Thru expiry" at the bottom
    /// leading corner (padding leading 25, bottom 20), white, with the seed's shadow (gray, radius 1, y 1).
    func cardNodes(
        _ card: Card, _ payment: PaymentCard, rect: Rect, z: Double, text: any TextMeasurer = StandardTextMeasurer()
    ) -> [Node] {
        let id = Self.node(card.id)
        // The launch transition: the card slides in and fades; its text is offset by the same distance (the fade
        // reaches the text through the card: opacity applies to a subtree).
        let slide = Vector(dx: -rect.maxX, dy: 0)
        let childTransition = NodeTransition.offset(slide)
        // The seed's padding (leading 25, top and bottom 20) in whole cells on a terminal's grid, the same on
        // both sides, so the brand ends as far from the card's edge as the number starts.
        let grid = text.layoutGrid
        let insetX = grid.width(25)
        let insetY = grid.height(20)
        let inner = max(rect.width - 2 * insetX, 1)
        // Lines as tall as the front end's text: the holder line on the padding, the number over it.
        let holderHeight = text.lineHeight(of: .body)
        // The seed's `Text(number).bold()`: body size, bold (it was drawn at title size).
        let numberHeight = text.lineHeight(of: .body)
        let brandHeight = text.lineHeight(of: .headline)
        let holderY = rect.maxY - insetY - holderHeight
        let numberY = holderY - 4 - numberHeight
        // The seed's white text where it reads on the card's colour, else black (`Palette.label(on:)`).
        let label = Palette.label(on: RGBA(card.color))
        var nodes = [
            Node(
                id: id, role: .card, card: card.id, rect: rect, z: z, cornerRadius: 12, fill: RGBA(card.color),
                stroke: focused == card.id ? Palette.focusRing(on: RGBA(card.color), page: Palette.white) : nil,
                shadow: Shadow(color: RGBA(red: 0.5, green: 0.5, blue: 0.5), radius: 1, offset: Vector(dx: 0, dy: 1)),
                transition: .combined([.slide, .move(.leading), .opacity]),
                gestures: Self.cardGestures,
                accessibilityLabel: "\(Self.brandName(payment.brand)) card ending \(payment.number.suffix(4))"),
            Node(
                id: id.child("brand"), role: .text, parent: id,
                rect: Rect(x: rect.minX + insetX, y: rect.minY + insetY, width: inner, height: brandHeight), z: z,
                text: [
                    TextRun(
                        Self.brandName(payment.brand), style: .headline, color: label, weight: .heavy,
                        alignment: .trailing, lineLimit: 1)
                ], transition: childTransition, isHitTestable: false),
            Node(
                id: id.child("number"), role: .text, parent: id,
                rect: Rect(x: rect.minX + insetX, y: numberY, width: inner, height: numberHeight), z: z,
                text: [TextRun(payment.number, style: .body, color: label, weight: .bold, lineLimit: 1)],
                transition: childTransition, isHitTestable: false),
            Node(
                id: id.child("holder"), role: .text, parent: id,
                rect: Rect(x: rect.minX + insetX, y: holderY, width: inner, height: holderHeight), z: z,
                text: Self.holderLine(payment, width: inner, text: text, color: label), transition: childTransition,
                isHitTestable: false),
        ]
        // A card too short for all three lines (a landscape phone) keeps the number and the holder: the brand
        // goes first, then the number, so that no line overlaps another.
        let needed = insetY + brandHeight + 4 + numberHeight + 4 + holderHeight + insetY
        if rect.height < needed { nodes.removeAll { $0.id == id.child("brand") } }
        if rect.height < needed - brandHeight - 4 { nodes.removeAll { $0.id == id.child("number") } }
        return nodes
    }

    /// "holder  Valid Thru expiry" (the seed's line); where that does not fit `width` (a narrow terminal), the
    /// label goes and the date stays whole: "Simon Ng  08/29" (the date was cut to "08/…" at 60x20). In `color`.
    static func holderLine(_ payment: PaymentCard, width: Double, text: any TextMeasurer, color: RGBA) -> [TextRun] {
        let holder = TextRun(payment.holder + "  ", color: color, weight: .bold, lineLimit: 1)
        let label = TextRun("Valid Thru ", style: .footnote, color: color, lineLimit: 1)
        let expiry = TextRun(payment.expiry, style: .footnote, color: color, lineLimit: 1)
        let full = [holder, label, expiry].reduce(0.0) {
            $0 + text.width(of: $1.text[...], style: $1.style, weight: $1.weight)
        }
        return full <= width ? [holder, label, expiry] : [holder, expiry]
    }

    static func brandName(_ brand: PaymentCard.Brand) -> String {
        switch brand {
        case .visa: "VISA"
        case .mastercard: "Mastercard"
        case .amex: "AMEX"
        case .discover: "DISCOVER"
        case .unionPay: "UnionPay"
        case .jcb: "JCB"
        }
    }

    /// The transaction history under the selected card: a header and the transactions as tiles side by side in a
    /// horizontal scroll view (the starter project's `TransactionHistoryView`: `ScrollView(.horizontal)` over an
    /// `HStack` of `TransactionView`s), each tile an icon, the merchant, the amount and the date. The scrolling
    /// node (`history.scroll`) clips the tiles and carries the scroll gesture, so a host hit-tests it as the
    /// thing that scrolls; the tiles are laid out at `−history.offset`. The block moves in and out past the bottom
    /// edge (`.move(edge: .bottom)` on the seed's history view).
    func historyNodes(_ metrics: Metrics, in viewport: Size, text: any TextMeasurer) -> [Node] {
        let top = metrics.historyTop
        let x = Self.historyPadding
        let width = max(viewport.width - 2 * x, 1)
        let grid = text.layoutGrid
        let rowTop = top + Self.historyHeaderHeight
        let rowHeight = metrics.tileSize.height
        let transition = NodeTransition.offset(Vector(dx: 0, dy: max(viewport.height - top, 0)))
        // One z for the whole history: tiles paint over the container and their contents over them by layout order.
        let z = 1_000.0
        // The offset the layout shows: the scroll view's, kept within a view's width of the content (the rubber
        // band never reaches that far; a viewport that changed since the last event cannot push it further).
        let contentLength = Self.historyContentLength(
            count: transactions.count, tileWidth: metrics.tileSize.width, grid: grid)
        let maxOffset = max(contentLength - viewport.width, 0)
        let offset = min(max(history.offset, -viewport.width), maxOffset + viewport.width)
        var nodes: [Node] = [
            Node(
                id: "history", role: .overlay,
                rect: Rect(x: 0, y: top, width: viewport.width, height: Self.historyHeaderHeight + rowHeight), z: z,
                transition: transition, isHitTestable: false),
            Node(
                id: "history.header", role: .title, parent: "history",
                rect: Rect(x: x, y: top, width: width, height: Self.historyHeaderHeight), z: z,
                text: [TextRun("Transaction History", style: .title, weight: .bold, lineLimit: 1)],
                transition: transition,
                isHitTestable: false),
            Node(
                id: "history.scroll", role: .background, parent: "history",
                rect: Rect(x: 0, y: rowTop, width: viewport.width, height: rowHeight), z: z,
                transition: transition, gestures: [GestureAttachment("history", history.gesture)],
                clipsContent: true, accessibilityLabel: "Transaction history, \(transactions.count) transactions"),
        ]
        let padding = grid.height(Self.tilePadding)
        let gap = grid.height(Self.tileGap, keepsNonZero: false)
        let iconHeight = text.lineHeight(of: .title)
        let merchantHeight = text.lineHeight(of: .headline)
        let amountHeight = text.lineHeight(of: .body)
        let dateHeight = text.lineHeight(of: .footnote)
        let tileWidth = metrics.tileSize.width
        let inner = max(tileWidth - 2 * grid.width(Self.tileMargin, keepsNonZero: false), 1)
        for (index, transaction) in transactions.enumerated() {
            let id = NodeID("history.\(transaction.id)")
            let tileX = metrics.tileInset + Double(index) * metrics.tileStep - offset
            let tile = Rect(x: tileX, y: rowTop, width: tileWidth, height: rowHeight)
            let textX = tileX + (tileWidth - inner) / 2
            var y = rowTop + padding
            func line(_ height: Double) -> Rect {
                defer { y += height }
                return Rect(x: textX, y: y, width: inner, height: height)
            }
            let iconRect = line(iconHeight)
            y += gap
            let merchantRect = line(merchantHeight)
            let amountRect = line(amountHeight)
            y += gap
            let dateRect = line(dateHeight)
            nodes += [
                Node(
                    id: id, role: .row, parent: "history.scroll", rect: tile, z: z, cornerRadius: 10,
                    fill: Palette.background, transition: transition, isHitTestable: false,
                    accessibilityLabel:
                        "\(transaction.merchant), \(transaction.formattedAmount), \(transaction.date)"),
                Node(
                    id: id.child("icon"), role: .icon, parent: id, rect: iconRect, z: z,
                    text: [TextRun(transaction.icon, style: .title, color: Palette.accent, alignment: .center)],
                    transition: transition, isHitTestable: false),
                Node(
                    id: id.child("merchant"), role: .text, parent: id, rect: merchantRect, z: z,
                    text: [
                        TextRun(
                            transaction.merchant, style: .headline, weight: .bold, alignment: .center, lineLimit: 1)
                    ],
                    transition: transition, isHitTestable: false),
                Node(
                    id: id.child("amount"), role: .text, parent: id, rect: amountRect, z: z,
                    text: [
                        TextRun(
                            transaction.formattedAmount, style: .body, weight: .bold, alignment: .center, lineLimit: 1)
                    ],
                    transition: transition, isHitTestable: false),
                Node(
                    id: id.child("date"), role: .text, parent: id, rect: dateRect, z: z,
                    text: [
                        TextRun(
                            transaction.date, style: .footnote, color: Palette.secondaryText, alignment: .center,
                            lineLimit: 1)
                    ],
                    transition: transition, isHitTestable: false),
            ]
        }
        return nodes
    }
}
