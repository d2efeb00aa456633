import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardPhysics

/// Seed 000 (CardSortingAnimation): five students ranked by the score of the selected test.
///
/// - A header "Test N" whose number rolls (numeric-text transition) when N changes.
/// - Cards sorted descending by the selected test's score (ties keep the deck's order, a stable sort); changing the
///   test re-ranks them in one `.smooth` transaction (the seed's `.animation(.smooth, value: selectedTest)`), and
///   every card's score rolls like the header.
/// - A slider 1…10 (step 1) with tick labels: drag the thumb or tap the track; keys left/right.
/// - Tapping a card expands its bar chart (ten bars, width = score/100 of the bar track, the selected test's bar
///   at opacity 0.9 with a bold label, the others at 0.5), inserted and removed with an offset(y: 50) transition;
///   the cards below move out of the way. At most one card is expanded. The seed changes the expansion without
///   `withAnimation` (SwiftUI would snap it); we animate it with `.smooth` so the transition is seen.
public struct ScoresScene: Scene {
    /// What the scene is, for front ends and hosts (see `SceneDescriptor`).
    public static let descriptor = SceneDescriptor(
        name: "scores", title: "Scores", summary: "student scores that re-rank with animation",
        seed: "000 CardSortingAnimation",
        // The height the layout needs to show whole: padding 16 + header 48 + spacing 10 + 5 cards × (56 + 10) + slider 96.
        designHeight: 500, textPlacement: .centered, takesDeck: true, takesCardCount: false,
        keyHelp: [
            KeyHelp("← →", "previous / next test", short: "test", names: ["left", "right"]),
            KeyHelp(
                "1–9, 0", "test 1–9, 10", short: "test", names: ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"]),
            KeyHelp(
                "↑ ↓ tab", "move the focus between cards", short: "focus", names: ["up", "down", "tab", "backtab"]),
            KeyHelp("enter space", "expand or collapse", short: "expand", names: ["enter", "space"]),
            KeyHelp("escape", "collapse the expanded card", short: "collapse", names: ["escape"]),
            KeyHelp(
                "pgup pgdn home end", "scroll the list by a page, to the top or the bottom", short: "scroll",
                names: ["pageup", "pagedown", "home", "end"]),
        ],
        actions: [
            ActionInfo(
                "select", "select a test",
                arguments: [ActionArgument("test", .integer(minimum: 1, maximum: 10), "1…10")]
            ),
            ActionInfo("next", "select the next test"), ActionInfo("previous", "select the previous test"),
            ActionInfo(
                "toggle", "expand or collapse a card's bar chart",
                arguments: [ActionArgument("card", .card, "card id")],
                availability: .deckHasAtLeast(1)),
            ActionInfo("collapse", "collapse the expanded card"),
        ]
    )
    .explainingPointer([
        KeyHelp("drag the bar", "choose a test (or click a number under it)"),
        KeyHelp("click a card", "open or close its chart"), KeyHelp("wheel", "scroll the list"),
    ])
    .changingLook(
        "a chart opening or closing while its card moves (the list scrolling, a card above collapsing) slides in "
            + "and out relative to the card, below its name (the engine played it from the chart's own final place)"
    )
    .changingLook(
        "on a terminal's grid the cards keep a gap of a row: two-row cards at 80x24 and 60x20 (three rows touching "
            + "before), a row above the first card and below the last, and at 60x20 the list from under the header to "
            + "the slider's track, the slider a row lower"
    )
    .changingLook(
        "a card's name, score and test labels are white where white reads on its colour (4.5:1), else black "
            + "(Palette.label: black on all five students' colours)")

    public private(set) var deck: Deck
    /// The selected test, 1…10.
    public private(set) var selectedTest = 1
    /// The expanded card, if any.
    public private(set) var expanded: CardID?
    /// The card keyboard focus is on, if any.
    public internal(set) var focused: CardID?
    /// How far the card list is scrolled, in points (0: the first card at the top). The list scrolls when the cards
    /// are taller than the room between the header and the slider (a card's chart expanded in a short viewport);
    /// the slider stays where it is. The list is a `ScrollView`: drags follow with UIScrollView's rubber band past
    /// either end and coast on release, the wheel moves it, and it springs back inside its range.
    public var scrollOffset: Double { list.offset }
    /// The card list's scroll view.
    var list = ScrollView(axis: .vertical)
    /// The students in the seed order (the tie-break of the ranking).
    let students: [Card]

    /// Shared by every card (the engine compares gesture lists; shared storage makes that a pointer check).
    static let cardGestures = [GestureAttachment("tap", TapGesture())]

    // Layout constants, in points.
    static let padding = 16.0
    static let headerHeight = 48.0
    static let rowHeight = 56.0
    static let spacing = 10.0
    static let barHeight = 16.0
    static let barSpacing = 6.0
    static let barLabelWidth = 40.0
    static let sliderHeight = 96.0

    /// The scores scene over `options.deck` or the seed's five students; throws `SceneError.invalidState` unless the
    /// deck is a non-empty deck of students (cards with ten scores each).
    public init(options: SceneOptions = SceneOptions()) throws(SceneError) {
        var students = Array(SeedData.students)
        if let deck = options.deck {
            guard !deck.isEmpty, deck.allSatisfy({ if case .student = $0.payload { true } else { false } }) else {
                throw .invalidState("the scores scene needs a deck of students (cards with ten scores each)")
            }
            students = Array(deck)
        }
        self.students = students
        deck = Deck()
        deck = ranked(for: 1)
    }

    static func scores(_ card: Card) -> [Int] {
        if case .student(let scores) = card.payload { return scores.scores }
        return Array(repeating: 0, count: StudentScores.testCount)
    }

    /// The students ranked for `test`: descending score, ties in seed order.
    func ranked(for test: Int) -> Deck {
        let order = students.indices.sorted { lhs, rhs in
            let left = Self.scores(students[lhs])[test - 1]
            let right = Self.scores(students[rhs])[test - 1]
            return left != right ? left > right : lhs < rhs
        }
        return (try? Deck(order.map { students[$0] })) ?? Deck()
    }

    // MARK: Changes

    /// An animation that finishes at once: for what follows the finger (the slider's thumb and fill).
    static let followsFinger = Animation(.curve(.linear, duration: 0))

    mutating func select(test: Int, context: inout SceneContext) {
        let test = min(max(test, 1), StudentScores.testCount)
        guard test != selectedTest else { return }
        let old = deck.ids
        selectedTest = test
        deck = ranked(for: test)
        context.animation = .smooth
        context.haptic(.selection, target: "slider.thumb")
        context.deckChanged(from: old, to: deck)
    }

    mutating func toggle(_ id: CardID, context: inout SceneContext) {
        expanded = expanded == id ? nil : id
        focused = id
        context.animation = .smooth
        context.haptic(.light, target: Self.cardNode(id), card: id)
        reveal(id, in: metrics(in: context.viewport, grid: context.grid))
    }

    /// The scene's geometry for `viewport` on `grid`, for this many cards.
    func metrics(in viewport: Size, grid: LayoutGrid) -> ScoresMetrics {
        ScoresMetrics(viewport: viewport, grid: grid, cards: deck.count)
    }

    /// The height of `card`'s row, its chart included when it is expanded.
    func cardHeight(_ card: Card, metrics: ScoresMetrics) -> Double {
        card.id == expanded ? metrics.expandedHeight : metrics.rowHeight
    }

    /// The cards' height with their gaps, in whole rows on a grid (a sum of rows is not exactly rows in floating
    /// point: five cards that fit the list's 14 rows exactly showed a scroll bar at 60x20). O(cards).
    func contentHeight(in metrics: ScoresMetrics) -> Double {
        let cards = deck.reduce(0) { $0 + cardHeight($1, metrics: metrics) + metrics.spacing } - metrics.spacing
        return metrics.grid.height(max(cards, 0) + 2 * metrics.listInset, keepsNonZero: false)
    }

    /// How far the list can scroll: the cards' height past the list's room. O(cards).
    func maxScroll(in metrics: ScoresMetrics) -> Double {
        max(0, contentHeight(in: metrics) - metrics.listHeight)
    }

    /// Scrolls (as little as it can) so that card `id` is in view: its whole row when it fits, else its top.
    /// O(cards).
    mutating func reveal(_ id: CardID, in metrics: ScoresMetrics) {
        var top = metrics.listInset
        for card in deck {
            if card.id == id { break }
            top += cardHeight(card, metrics: metrics) + metrics.spacing
        }
        let height = deck[id: id].map { cardHeight($0, metrics: metrics) } ?? 0
        let room = metrics.listHeight
        sizeList(metrics)
        var target = scrollOffset
        if top < target || height > room {
            target = top
        } else if top + height > target + room {
            target = top + height - room
        }
        // The transaction's animation (the toggle's `.smooth`) carries the scroll with the chart.
        _ = list.scroll(to: target)
    }

    /// Sizes the list's scroll view for `metrics` and the cards as they are now (a chart expanded or not).
    mutating func sizeList(_ metrics: ScoresMetrics) {
        list.resize(contentLength: contentHeight(in: metrics), viewportLength: metrics.listHeight)
    }

    public mutating func perform(_ action: SceneAction, context: inout SceneContext) throws(SceneError) {
        switch action.name {
        case "select":
            let test = try action.int("test")
            guard (1...StudentScores.testCount).contains(test) else {
                throw .invalidArgument(action: "select", argument: "test", reason: "must be 1…10")
            }
            select(test: test, context: &context)
        case "next": select(test: selectedTest + 1, context: &context)
        case "previous": select(test: selectedTest - 1, context: &context)
        case "toggle":
            let id = try action.card()
            guard deck.contains(id: id) else { throw .unknownCard(id) }
            toggle(id, context: &context)
        case "collapse":
            if expanded != nil {
                expanded = nil
                context.animation = .smooth
                sizeList(metrics(in: context.viewport, grid: context.grid))
            }
        default:
            throw .unknownAction(action.name)
        }
    }

    public mutating func handle(_ gesture: GestureEvent<NodeID>, context: inout SceneContext) {
        switch (gesture.gesture, gesture.phase) {
        case ("tap", .ended):
            if let id = deck.first(where: { Self.cardNode($0.id) == gesture.target })?.id {
                toggle(id, context: &context)
            }
        case ("slider", .began), ("slider", .changed), ("slider", .ended):
            let location: Point?
            switch gesture.value {
            case .drag(let drag): location = drag.location
            case .tap(let tap): location = tap.location
            default: location = nil
            }
            if let location {
                let metrics = metrics(in: context.viewport, grid: context.grid)
                select(test: metrics.test(atX: location.x), context: &context)
                // A slider's thumb is the finger's: UISlider under SwiftUI's `Slider(step: 1)` puts it on the
                // step under the finger at once; only what the value drives (the ranking) animates.
                context.nodeAnimations["slider.thumb"] = Self.followsFinger
                context.nodeAnimations["slider.fill"] = Self.followsFinger
            }
        case ("scroll", _):
            sizeList(metrics(in: context.viewport, grid: context.grid))
            // A list that fits does not bounce (SwiftUI's `.scrollBounceBehavior(.basedOnSize)`): the seed's list
            // is a VStack, which scrolls only where a short screen makes it.
            guard list.canScroll || list.offset != 0 else { return }
            context.animation = list.handle(gesture.phase, gesture.value, at: context.time)
        default:
            break
        }
    }

    public mutating func handle(_ key: KeyInput, context: inout SceneContext) -> Bool {
        switch key.key {
        case "left": select(test: selectedTest - 1, context: &context)
        case "right": select(test: selectedTest + 1, context: &context)
        case "0": select(test: 10, context: &context)
        case "1", "2", "3", "4", "5", "6", "7", "8", "9": select(test: Int(key.key) ?? 1, context: &context)
        case "up", "down", "tab", "backtab":
            let ids = deck.ids
            guard !ids.isEmpty else { return false }
            let current = focused.flatMap { ids.firstIndex(of: $0) }
            let forward = key.key == "down" || (key.key == "tab" && !key.shift)
            let next: Int
            if let current {
                next = (current + (forward ? 1 : ids.count - 1)) % ids.count
            } else {
                next = forward ? 0 : ids.count - 1
            }
            focused = ids[next]
            reveal(ids[next], in: metrics(in: context.viewport, grid: context.grid))
            context.animation = .smooth
        case "enter", "space":
            guard let focused else { return false }
            toggle(focused, context: &context)
        case "pageup", "pagedown", "home", "end":
            // The list's scroll by keys, as a wheel or a drag scrolls it; a list that fits does not move, and the
            // key is left to the front end.
            let metrics = metrics(in: context.viewport, grid: context.grid)
            sizeList(metrics)
            let target =
                switch key.key {
                case "pageup": scrollOffset - metrics.listHeight
                case "pagedown": scrollOffset + metrics.listHeight
                case "home": 0.0
                default: maxScroll(in: metrics)
                }
            guard let animation = list.scroll(to: target) else { return false }
            context.animation = animation
        case "escape":
            // Escape closes what is open first (the expanded chart); with nothing open the front end may use it.
            guard expanded != nil else { return false }
            expanded = nil
            context.animation = .smooth
            sizeList(metrics(in: context.viewport, grid: context.grid))
        default:
            return false
        }
        return true
    }

    public mutating func replaceDeck(_ deck: Deck, context: inout SceneContext) throws(SceneError) {
        throw .invalidState("the scores scene orders its cards by the selected test; select a test instead")
    }

    // MARK: Layout

    static func cardNode(_ id: CardID) -> NodeID { NodeID("card.\(id)") }

    public func layout(in viewport: Size) -> [Node] { layout(in: viewport, text: StandardTextMeasurer()) }

    public func layout(in viewport: Size, text measurer: any TextMeasurer) -> [Node] {
        let metrics = metrics(in: viewport, grid: measurer.layoutGrid)
        let width = viewport.width
        let padding = metrics.grid.x(Self.padding)
        var nodes: [Node] = [
            Node(
                id: "background", role: .background, rect: Rect(x: 0, y: 0, width: width, height: viewport.height),
                z: -1, fill: Palette.background, isHitTestable: false),
            Node(
                id: "header", role: .title,
                rect: Rect(x: padding, y: padding, width: width - 2 * padding, height: Self.headerHeight),
                text: [
                    TextRun("Test ", style: .largeTitle, weight: .bold),
                    TextRun("\(selectedTest)", style: .largeTitle, weight: .bold, isNumeric: true),
                ],
                isHitTestable: false),
        ]
        // The cards scroll inside a list that clips them, between the header and the slider.
        let maximum = maxScroll(in: metrics)
        // The list's offset, rubber-banded past an end while a finger holds it (never more than a list's height).
        let scroll = min(max(list.offset, -metrics.listHeight), maximum + metrics.listHeight)
        let scrolling = ScrollGesture(contentOffset: min(max(scroll, 0), maximum), offsetRange: 0...maximum)
        nodes.append(
            Node(
                id: "list", role: .background,
                rect: Rect(x: 0, y: metrics.listTop, width: width, height: metrics.listHeight),
                gestures: [GestureAttachment("scroll", scrolling)], clipsContent: true))
        var y = metrics.listTop + metrics.listInset - scroll
        let cardWidth = width - 2 * padding
        for card in deck {
            let scores = Self.scores(card)
            let isExpanded = card.id == expanded
            let id = Self.cardNode(card.id)
            let cardRect = Rect(x: padding, y: y, width: cardWidth, height: cardHeight(card, metrics: metrics))
            nodes.append(
                Node(
                    id: id, role: .card, card: card.id, parent: "list", rect: cardRect, z: 0, cornerRadius: 12,
                    fill: RGBA(card.color),
                    stroke: focused == card.id ? Palette.focusRing(on: RGBA(card.color)) : nil,
                    gestures: Self.cardGestures, clipsContent: true,
                    accessibilityLabel: "\(card.title), \(scores[selectedTest - 1])"))
            let rowY = y + metrics.nameTop
            let label = Palette.label(on: RGBA(card.color))
            nodes.append(
                Node(
                    id: id.child("name"), role: .text, parent: id,
                    rect: Rect(x: padding + 16, y: rowY, width: cardWidth / 2 - 16, height: 24), z: 1,
                    text: [TextRun(card.title, style: .headline, color: label, weight: .bold)]))
            nodes.append(
                Node(
                    id: id.child("score"), role: .text, parent: id,
                    rect: Rect(x: padding + cardWidth / 2, y: rowY, width: cardWidth / 2 - 16, height: 24), z: 1,
                    text: [
                        TextRun(
                            "\(scores[selectedTest - 1])", style: .headline, color: label, weight: .bold,
                            alignment: .trailing, isNumeric: true)
                    ]))
            if isExpanded {
                nodes += chartNodes(of: card, id: id, top: y + metrics.rowHeight, metrics: metrics, in: viewport)
            }
            y += cardRect.height + metrics.spacing
        }
        nodes += sliderNodes(in: viewport, metrics: metrics)
        return nodes
    }

    /// The bar chart of expanded `card` (node `id`), its first bar at `top`: ten bars, each with its label, its
    /// track and its score, inserted and removed with the seed's offset(y: 50) transition.
    func chartNodes(of card: Card, id: NodeID, top: Double, metrics: ScoresMetrics, in viewport: Size) -> [Node] {
        let scores = Self.scores(card)
        let padding = metrics.grid.x(Self.padding)
        let cardWidth = viewport.width - 2 * padding
        var nodes: [Node] = []
        let trackX = padding + 16 + Self.barLabelWidth
        let trackWidth = cardWidth - 32 - Self.barLabelWidth
        for test in 1...StudentScores.testCount {
            let barY = top + Double(test - 1) * metrics.barStep
            let isSelected = test == selectedTest
            let barID = id.child("bar.\(test)")
            let transition = NodeTransition.offset(Vector(dx: 0, dy: 50))
            nodes.append(
                Node(
                    id: barID.child("label"), role: .text, parent: id,
                    rect: Rect(x: padding + 16, y: barY, width: Self.barLabelWidth, height: metrics.barHeight),
                    z: 1,
                    text: [
                        TextRun(
                            "T\(test)", style: .caption, color: Palette.label(on: RGBA(card.color)),
                            weight: isSelected ? .bold : .regular)
                    ], transition: transition))
            nodes.append(
                Node(
                    id: barID.child("track"), role: .bar, parent: id,
                    rect: Rect(x: trackX, y: barY, width: trackWidth, height: metrics.barHeight), z: 1,
                    opacity: 0.2, cornerRadius: 4, fill: Palette.white, transition: transition))
            let barOpacity = isSelected ? 0.9 : 0.5
            let barRect = Rect(
                x: trackX, y: barY, width: trackWidth * Double(scores[test - 1]) / 100,
                height: metrics.barHeight)
            nodes.append(
                Node(
                    id: barID, role: .bar, parent: id, rect: barRect, z: 2, opacity: barOpacity,
                    cornerRadius: 4, fill: Palette.white, transition: transition))
            // The score at the bar's end, at full strength in a colour readable on the bar as it shows
            // (white at the bar's opacity over the track over the card): inside the faded bar it was
            // 1.3–1.5:1.
            let track = Palette.white.opacity(0.2).over(RGBA(card.color))
            let shown = Palette.white.opacity(barOpacity).over(track)
            nodes.append(
                Node(
                    id: barID.child("value"), role: .text, parent: id, rect: barRect, z: 3,
                    text: [
                        TextRun(
                            "\(scores[test - 1])", style: .caption,
                            color: Palette.readableText(on: shown, preferring: RGBA(card.color)),
                            weight: isSelected ? .bold : .regular, alignment: .trailing)
                    ],
                    transition: transition))
        }
        return nodes
    }

    func sliderNodes(in viewport: Size, metrics: ScoresMetrics) -> [Node] {
        let track = metrics.track
        // The slider's own edges on the grid too: its parts are placed in cells counted from its own.
        let inset = metrics.grid.x(Self.padding)
        let thumbX = track.minX + (track.maxX - track.minX) * Double(selectedTest - 1) / 9
        let sliderGesture = DragGesture(minimumDistance: 0)
        var nodes: [Node] = [
            // The seed's VStack { Slider; HStack(tick labels) }: a group holding the slider and the labels under it.
            Node(
                id: "slider.group", role: .background,
                rect: Rect(x: inset, y: track.y - 14, width: viewport.width - 2 * inset, height: 50),
                z: 5, isHitTestable: false),
            Node(
                id: "slider", role: .slider, parent: "slider.group",
                rect: Rect(x: inset, y: track.y - 14, width: viewport.width - 2 * inset, height: 28),
                z: 5,
                gestures: [GestureAttachment("slider", sliderGesture)], accessibilityLabel: "Test \(selectedTest) of 10"
            ),
            Node(
                id: "slider.track", role: .bar, parent: "slider",
                rect: Rect(x: track.minX, y: track.y - 2, width: track.maxX - track.minX, height: 4), z: 5,
                cornerRadius: 2, fill: Palette.hairline),
            Node(
                id: "slider.fill", role: .bar, parent: "slider",
                rect: Rect(x: track.minX, y: track.y - 2, width: thumbX - track.minX, height: 4), z: 5,
                cornerRadius: 2, fill: Palette.accent),
            Node(
                id: "slider.thumb", role: .sliderThumb, parent: "slider",
                rect: Rect(x: thumbX - metrics.thumbWidth / 2, y: track.y - 14, width: metrics.thumbWidth, height: 28),
                z: 6,
                cornerRadius: 14, fill: Palette.white, shadow: Shadow(radius: 2, offset: Vector(dx: 0, dy: 1))),
        ]
        for test in 1...StudentScores.testCount {
            let x = track.minX + (track.maxX - track.minX) * Double(test - 1) / 9
            nodes.append(
                Node(
                    id: NodeID("slider.tick.\(test)"), role: .tick, parent: "slider.group",
                    rect: Rect(x: x - metrics.tickWidth / 2, y: track.y + 18, width: metrics.tickWidth, height: 18),
                    z: 5,
                    text: [
                        TextRun(
                            "\(test)", style: .caption,
                            color: test == selectedTest ? Palette.text : Palette.tickText, alignment: .center)
                    ],
                    isHitTestable: false))
        }
        return nodes
    }
}
