import CardEngine
import CardGeometry
import CardGestures
import CardJSON
import CardModels
import CardPhysics

extension SceneDescription {
    /// Parses a description from JSON text; refuses malformed JSON with the byte offset of the fault.
    public static func load(bytes: some Collection<UInt8>) throws(SceneFormatError) -> SceneDescription {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes, maxDepth: 64)
        } catch {
            throw SceneFormatError("", "not JSON: \(error)")
        }
        return try load(value)
    }

    /// Parses and type-checks a description. O(size of the description); never traps, never loops.
    public static func load(_ json: JSONValue) throws(SceneFormatError) -> SceneDescription {
        var loader = Loader()
        return try loader.load(Located(json))
    }
}

/// Reads a description top-down, building the scope as it goes (state before the expressions that read it).
struct Loader {
    var scope = ExpressionScope()

    static let topKeys: Set<String> = [
        "$schema", "format", "name", "title", "summary", "designHeight", "takesDeck", "cards", "state", "cardState",
        "background", "nodes", "card", "layouts", "gestures", "actions", "keys", "animation",
    ]

    mutating func load(_ root: Located) throws(SceneFormatError) -> SceneDescription {
        let top = try root.object(allowed: Self.topKeys)
        _ = try top["$schema"]?.string()
        let format = try top["format"].required(in: root, "format").number(in: 1...1_000_000)
        guard format == Double(SceneDescription.formatVersion) else {
            throw SceneFormatError(root.child("format"), "this loader reads format \(SceneDescription.formatVersion)")
        }
        let name = try top["name"].required(in: root, "name").string()
        guard !name.isEmpty, name.count <= 40, name.unicodeScalars.allSatisfy(Self.isNameScalar) else {
            throw SceneFormatError(root.child("name"), "must be 1–40 of a–z, 0–9 and '-'")
        }
        let title = try top["title"]?.string() ?? name
        let summary = try top["summary"]?.string() ?? title
        let designHeight = try top["designHeight"]?.number(in: 1...100_000)
        let takesDeck = try top["takesDeck"]?.bool() ?? false
        let cards = try top["cards"].map { (cards) throws(SceneFormatError) in try Self.cards(cards) } ?? []
        if !takesDeck && cards.isEmpty {
            throw SceneFormatError(root.child("cards"), "a scene that takes no deck must list its cards")
        }
        for builtin in Builtin.allCases { scope.declare(builtin.name, builtin.type) }
        scope.declare("total", .number, slot: SceneDescription.totalSlot)
        let globals = try variables(top["state"], card: false)
        let cardVariables = try variables(top["cardState"], card: true)
        let background = try top["background"].map { (fill) throws(SceneFormatError) in try Self.color(fill) }
        let nodes = try top["nodes"]?.array(maximum: 64).map { (item) throws(SceneFormatError) in
            try node(item, inCard: false)
        }
        let nodeNames = Set((nodes ?? []).map(\.name))
        let card = try cardTemplate(try top["card"].required(in: root, "card"))
        let layouts = try top["layouts"].required(in: root, "layouts").array(maximum: 16).map {
            (layout) throws(SceneFormatError) in try self.layout(layout)
        }
        guard !layouts.isEmpty else { throw SceneFormatError(root.child("layouts"), "needs at least one layout") }
        guard layouts.last?.when == nil else {
            throw SceneFormatError(
                root.child("layouts") + "/\(layouts.count - 1)/when", "the last layout must take every card (no 'when')"
            )
        }
        var seenLayouts: Set<String> = []
        for (index, layout) in layouts.enumerated() where !seenLayouts.insert(layout.name).inserted {
            throw SceneFormatError(root.child("layouts") + "/\(index)/name", "'\(layout.name)' is used twice")
        }
        let gestures = try (top["gestures"]?.array(maximum: 16) ?? []).map { (gesture) throws(SceneFormatError) in
            try self.gesture(gesture, nodes: nodeNames, globals: globals, cards: cardVariables)
        }
        var seenGestures: Set<String> = []
        for (index, gesture) in gestures.enumerated() where !seenGestures.insert(gesture.name).inserted {
            throw SceneFormatError(root.child("gestures") + "/\(index)/name", "'\(gesture.name)' is used twice")
        }
        let actions = try (top["actions"]?.array(maximum: 32) ?? []).map { (action) throws(SceneFormatError) in
            try self.action(action, globals: globals, cards: cardVariables)
        }
        let actionNames = Set(actions.map(\.info.name))
        let keys = try (top["keys"]?.array(maximum: 32) ?? []).map { (key) throws(SceneFormatError) in
            try self.key(key, actions: actionNames)
        }
        let animation = try top["animation"].map { (spec) throws(SceneFormatError) in try self.animation(spec) }
        var descriptor = SceneDescriptor(
            name: name, title: title, summary: summary, seed: "data \(name)", designHeight: designHeight,
            textPlacement: .centered, takesDeck: takesDeck, takesCardCount: false,
            keyHelp: keys.filter(\.isListed).map(\.help), actions: actions.map(\.info))
        descriptor.pointerHelp = gestures.map { rule in
            let on =
                switch rule.target {
                case .card: "a card"
                case .background: "the background"
                case .node(let name): name
                }
            return KeyHelp("\(Self.verb(rule.gesture)) \(on)", rule.name)
        }
        return SceneDescription(
            descriptor: descriptor, source: root.value, cards: cards, scope: scope, globals: globals,
            cardVariables: cardVariables, backgroundFill: background, nodes: nodes ?? [], card: card, layouts: layouts,
            gestures: gestures, actions: actions, keys: keys,
            animation: animation ?? SceneDescription.AnimationSpec(animation: .default, delay: nil))
    }

    static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
    }

    static func verb(_ gesture: Gesture) -> String {
        switch gesture {
        case .tap: "click"
        case .longPress: "press and hold"
        case .drag: "drag"
        case .swipe: "swipe"
        default: "use"
        }
    }

    // MARK: Cards

    static func cards(_ list: Located) throws(SceneFormatError) -> [Card] {
        var cards: [Card] = []
        var seen: Set<CardID> = []
        for (index, item) in try list.array(maximum: SceneDescription.maximumCards).enumerated() {
            let members = try item.object(allowed: ["id", "title", "color", "sortOrder", "prompt", "answer"])
            let idValue = try members["id"].required(in: item, "id")
            let id: CardID
            switch idValue.value {
            case .string(let text):
                guard let parsed = CardID.canonical(text) else { throw idValue.fail("must be a card id") }
                id = parsed
            case .number:
                let number = try idValue.number(in: 0...9_007_199_254_740_991)
                guard number == number.rounded() else { throw idValue.fail("must be a whole number") }
                id = CardID(UInt64(number))
            default:
                throw idValue.fail("must be a card id (a whole number or a decimal string)")
            }
            guard seen.insert(id).inserted else { throw idValue.fail("card \(id) is listed twice") }
            let title = try members["title"]?.string() ?? ""
            var color = RGBColor.blue
            if let colorValue = members["color"] {
                guard let parsed = RGBColor(hex: try colorValue.string().drop { $0 == "#" }) else {
                    throw colorValue.fail("must be a colour '#rrggbb'")
                }
                color = parsed
            }
            let sortOrder = Int(try members["sortOrder"]?.number(in: -1e12...1e12) ?? Double(index))
            var payload = CardPayload.plain
            if let prompt = members["prompt"] {
                payload = .flashcard(
                    Flashcard(prompt: try prompt.string(), answer: try members["answer"]?.string() ?? ""))
            }
            cards.append(Card(id: id, title: title, color: color, sortOrder: sortOrder, payload: payload))
        }
        return cards
    }

    // MARK: State

    mutating func variables(_ list: Located?, card: Bool) throws(SceneFormatError) -> [SceneDescription.Variable] {
        guard let list else { return [] }
        var result: [SceneDescription.Variable] = []
        // Initial values read no state (so no variable can be defined by itself or another): constants, and for
        // a card's variables its index, the count and its fields.
        var initialScope = ExpressionScope()
        if card {
            for builtin in [Builtin.i, .n, .cardID, .sortOrder] {
                initialScope.declare(builtin.name, builtin.type, slot: builtin.rawValue)
            }
        }
        let members = try list.members()
        guard members.count <= 32 else { throw list.fail("declares \(members.count) variables; at most 32") }
        for (name, spec) in members {
            guard Self.isIdentifier(name) else {
                throw SceneFormatError(spec.pointer, "'\(name)' is not a name (a letter, then letters and digits)")
            }
            let fullName = card ? "card." + name : name
            let fields = try spec.object(allowed: ["type", "values", "initial", "persist"])
            let typeName = try fields["type"].required(in: spec, "type").string()
            let type: ExpressionType
            switch typeName {
            case "number": type = .number
            case "boolean": type = .bool
            case "card": type = .card
            case "enum":
                let values = try fields["values"].required(in: spec, "values").array(maximum: 64).map {
                    (value) throws(SceneFormatError) in try value.string()
                }
                guard !values.isEmpty, Set(values).count == values.count else {
                    throw SceneFormatError(spec.child("values"), "must list distinct values")
                }
                type = scope.enumeration(values)
            default:
                throw SceneFormatError(spec.child("type"), "must be number, boolean, card or enum")
            }
            // The initial values' scope knows the same enumerations at the same indices.
            while initialScope.enumerations.count < scope.enumerations.count {
                _ = initialScope.enumeration(scope.enumerations[initialScope.enumerations.count])
            }
            let initial: Expression
            if let given = fields["initial"] {
                initial = try given.expression(initialScope, type)
            } else {
                switch type {
                case .number: initial = .constant(0)
                case .bool: initial = .constant(false)
                case .card: initial = try! Expression("none", scope: initialScope)
                case .enumeration: initial = .constant(0)  // the first value (index 0, whose bits are 0.0's)
                }
            }
            guard scope.declare(fullName, type) else {
                throw SceneFormatError(spec.pointer, "'\(fullName)' is already a variable")
            }
            let slot = scope.variables[fullName]!.slot
            result.append(
                SceneDescription.Variable(
                    name: name, slot: slot, type: type, initial: initial,
                    persist: try fields["persist"]?.bool() ?? false))
        }
        return result
    }

    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ExpressionParser.isIdentifierStart(first), name.count <= 40 else {
            return false
        }
        return name.unicodeScalars.allSatisfy { ExpressionParser.isIdentifierStart($0) || ExpressionParser.isDigit($0) }
    }

    // MARK: Nodes

    static func color(_ value: Located) throws(SceneFormatError) -> RGBA {
        let text = try value.string()
        guard let color = RGBColor(hex: text.drop { $0 == "#" }) else { throw value.fail("must be a colour '#rrggbb'") }
        return rgba(color)
    }

    /// A text's colour: `"label"` (chosen for contrast with what the text sits on) or `'#rrggbb'`.
    static func textColor(_ value: Located) throws(SceneFormatError) -> SceneDescription.TextColor {
        if case .string("label") = value.value { return .label }
        guard case .string(let text) = value.value, let color = RGBColor(hex: text.drop { $0 == "#" }) else {
            throw value.fail("must be a colour '#rrggbb' or \"label\"")
        }
        return .fixed(rgba(color))
    }

    /// An opaque colour of 8-bit components.
    static func rgba(_ color: RGBColor) -> RGBA {
        RGBA(red: Double(color.red) / 255, green: Double(color.green) / 255, blue: Double(color.blue) / 255)
    }

    static func fill(_ value: Located) throws(SceneFormatError) -> SceneDescription.FillSpec {
        if case .string("card.color") = value.value { return .cardColor }
        return .color(try color(value))
    }

    static func role(_ value: Located?, default role: NodeRole) throws(SceneFormatError) -> NodeRole {
        guard let value else { return role }
        guard let parsed = NodeRole(rawValue: try value.string()) else {
            throw value.fail("must be one of " + NodeRole.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return parsed
    }

    func rect(_ value: Located, scope: ExpressionScope) throws(SceneFormatError) -> [Expression] {
        let items = try value.array(maximum: 4)
        guard items.count == 4 else { throw value.fail("must be [x, y, width, height]") }
        return try items.map { (item) throws(SceneFormatError) in try item.expression(scope, .number) }
    }

    static func text(_ value: Located) throws(SceneFormatError) -> SceneDescription.TextSpec {
        if case .string(let template) = value.value {
            return SceneDescription.TextSpec(
                template: template, style: .body, color: .fixed(.black), weight: .regular, alignment: .leading,
                lineLimit: nil)
        }
        let members = try value.object(allowed: ["text", "style", "color", "weight", "alignment", "lineLimit"])
        let template = try members["text"].required(in: value, "text").string()
        func parse<E: RawRepresentable<String>>(_ key: String, _ fallback: E, _ all: [String]) throws(SceneFormatError)
            -> E
        {
            guard let given = members[key] else { return fallback }
            guard let parsed = E(rawValue: try given.string()) else {
                throw given.fail("must be one of " + all.joined(separator: ", "))
            }
            return parsed
        }
        return SceneDescription.TextSpec(
            template: template,
            style: try parse(
                "style", TextStyle.body, ["largeTitle", "title", "headline", "body", "footnote", "caption"]),
            color: try members["color"].map { (color) throws(SceneFormatError) in try Self.textColor(color) }
                ?? .fixed(.black),
            weight: try parse("weight", TextWeight.regular, ["regular", "bold", "heavy"]),
            alignment: try parse("alignment", TextAlignment.leading, ["leading", "center", "trailing"]),
            lineLimit: try members["lineLimit"].map { (limit) throws(SceneFormatError) in
                Int(try limit.number(in: 1...100))
            })
    }

    /// A node of `nodes` (`inCard` false: viewport points, a colour fill, its own z and label) or of a card's
    /// `nodes` (relative to the card; its fill may be `card.color`).
    func node(_ value: Located, inCard: Bool) throws(SceneFormatError) -> SceneDescription.NodeSpec {
        var allowed: Set<String> = ["name", "role", "rect", "fill", "cornerRadius", "text"]
        if !inCard { allowed.formUnion(["z", "accessibilityLabel", "when", "transition", "accessibility"]) }
        let members = try value.object(allowed: allowed)
        let name = try members["name"].required(in: value, "name").string()
        guard Self.isIdentifier(name) else { throw SceneFormatError(value.child("name"), "must be a name") }
        let fill = try members["fill"].map { (fill) throws(SceneFormatError) in
            inCard ? try Self.fill(fill) : .color(try Self.color(fill))
        }
        return SceneDescription.NodeSpec(
            name: name, role: try Self.role(members["role"], default: inCard ? .text : .title),
            rect: try rect(try members["rect"].required(in: value, "rect"), scope: scope), fill: fill,
            cornerRadius: try members["cornerRadius"]?.number(in: 0...1000) ?? 0,
            text: try members["text"].map { (text) throws(SceneFormatError) in try Self.text(text) },
            z: try members["z"]?.number(in: -1000...1000) ?? 0,
            accessibilityLabel: try members["accessibilityLabel"]?.string(),
            when: try members["when"]?.expression(scope, .bool),
            transition: try members["transition"].map { (transition) throws(SceneFormatError) in
                try Self.transition(transition)
            } ?? .identity,
            accessibility: try members["accessibility"].map { (spec) throws(SceneFormatError) in
                try accessibility(spec)
            })
    }

    func cardTemplate(_ value: Located) throws(SceneFormatError) -> SceneDescription.CardTemplate {
        let members = try value.object(allowed: [
            "size", "cornerRadius", "fill", "shadow", "transition", "nodes", "accessibilityLabel", "role", "textStack",
            "accessibility", "mayOverflow",
        ])
        var label: String?
        var labels: [SceneDescription.TextCase] = []
        if let given = members["accessibilityLabel"] {
            if case .string = given.value { label = try given.string() } else { labels = try textCases(given) }
        }
        let size = try members["size"].required(in: value, "size").array(maximum: 2)
        guard size.count == 2 else { throw SceneFormatError(value.child("size"), "must be [width, height]") }
        let children = try (members["nodes"]?.array(maximum: 32) ?? []).map { (child) throws(SceneFormatError) in
            try node(child, inCard: true)
        }
        return SceneDescription.CardTemplate(
            width: try size[0].expression(scope, .number), height: try size[1].expression(scope, .number),
            cornerRadius: try members["cornerRadius"]?.number(in: 0...1000) ?? 0,
            fill: try members["fill"].map { (fill) throws(SceneFormatError) in try Self.fill(fill) } ?? .cardColor,
            shadow: try members["shadow"]?.number(in: 0...100),
            transition: try members["transition"].map { (transition) throws(SceneFormatError) in
                try Self.transition(transition)
            } ?? .opacity,
            children: children, accessibilityLabel: label, role: try Self.role(members["role"], default: .card),
            textStack: try members["textStack"].map { (stack) throws(SceneFormatError) in try textStack(stack) },
            labels: labels,
            accessibility: try members["accessibility"].map { (spec) throws(SceneFormatError) in
                try accessibility(spec)
            }, mayOverflow: try members["mayOverflow"]?.expression(scope, .bool))
    }

    static func transition(_ value: Located) throws(SceneFormatError) -> NodeTransition {
        switch value.value {
        case .string(let name):
            switch name {
            case "identity": return .identity
            case "opacity": return .opacity
            case "slide": return .slide
            case "scale": return .scale(0)
            case "move-leading": return .combined([.move(.leading), .opacity])
            case "move-trailing": return .combined([.move(.trailing), .opacity])
            case "move-top": return .combined([.move(.top), .opacity])
            case "move-bottom": return .combined([.move(.bottom), .opacity])
            default:
                throw value.fail(
                    "must be identity, opacity, slide, scale, move-leading, move-trailing, move-top or move-bottom")
            }
        case .object:
            let members = try value.object(allowed: ["insertion", "removal"])
            return .asymmetric(
                insertion: try members["insertion"].map { (item) throws(SceneFormatError) in try transition(item) }
                    ?? .identity,
                removal: try members["removal"].map { (item) throws(SceneFormatError) in try transition(item) }
                    ?? .identity)
        default:
            throw value.fail("must be a transition name or {insertion, removal}")
        }
    }

    // MARK: Layouts

    func layout(_ value: Located) throws(SceneFormatError) -> SceneDescription.Layout {
        var allowed: Set<String> = [
            "name", "kind", "when", "group", "groups", "padding", "spacing", "top", "angle", "matchedGeometry", "width",
            "height", "scroll",
        ]
        for property in SceneDescription.Property.allCases { allowed.insert(property.rawValue) }
        let members = try value.object(allowed: allowed)
        let name = try members["name"].required(in: value, "name").string()
        guard Self.isIdentifier(name) else { throw SceneFormatError(value.child("name"), "must be a name") }
        let kindName = try members["kind"].required(in: value, "kind").string()
        guard let kind = SceneDescription.Layout.Kind(rawValue: kindName) else {
            throw SceneFormatError(
                value.child("kind"),
                "must be one of " + SceneDescription.Layout.Kind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        var properties: [SceneDescription.PropertyExpression] = []
        for property in SceneDescription.Property.allCases {
            if let given = members[property.rawValue],
                let index = SceneDescription.Property.allCases.firstIndex(of: property)
            {
                properties.append(.init(index: index, expression: try given.expression(scope, .number)))
            }
        }
        let group = try members["group"].map { (group) throws(SceneFormatError) in
            try group.expression(scope, .number)
        }
        if kind == .groups && group == nil {
            throw SceneFormatError(value.child("group"), "a groups layout needs a group expression")
        }
        let scroll = try members["scroll"]?.bool() ?? false
        if scroll && (kind == .stack || kind == .fan) {
            throw SceneFormatError(value.child("scroll"), "only a column, row, grid or groups layout scrolls")
        }
        return SceneDescription.Layout(
            name: name, kind: kind,
            when: try members["when"].map { (when) throws(SceneFormatError) in try when.expression(scope, .bool) },
            group: group, groups: Int(try members["groups"]?.number(in: 1...64) ?? 1),
            padding: try members["padding"]?.number(in: 0...10_000) ?? 16,
            spacing: try members["spacing"]?.number(in: -10_000...10_000) ?? 8,
            top: try members["top"]?.number(in: 0...10_000) ?? 16,
            angle: try members["angle"]?.number(in: -90...90) ?? 6, properties: properties,
            width: try members["width"].map { (width) throws(SceneFormatError) in try width.expression(scope, .number)
            },
            height: try members["height"].map { (height) throws(SceneFormatError) in
                try height.expression(scope, .number)
            },
            matchedGeometry: try members["matchedGeometry"]?.bool() ?? true, scroll: scroll)
    }

    // MARK: Gestures and effects

    func gesture(
        _ value: Located, nodes: Set<String>, globals: [SceneDescription.Variable],
        cards: [SceneDescription.Variable]
    ) throws(SceneFormatError) -> SceneDescription.GestureRule {
        let members = try value.object(allowed: Self.gestureKeys.union(["name", "on", "priority", "bind", "onEnd"]))
        let name = try members["name"].required(in: value, "name").string()
        guard Self.isIdentifier(name) else { throw SceneFormatError(value.child("name"), "must be a name") }
        let on = try members["on"]?.string() ?? "card"
        let target: SceneDescription.GestureRule.Target
        switch on {
        case "card": target = .card
        case "background": target = .background
        default:
            guard nodes.contains(on) else {
                throw SceneFormatError(value.child("on"), "must be card, background or the name of a node")
            }
            target = .node(on)
        }
        let gesture = try self.gesture(value, members, depth: 0)
        let priority: GesturePriority
        switch try members["priority"]?.string() ?? "normal" {
        case "normal": priority = .normal
        case "high": priority = .high
        case "simultaneous": priority = .simultaneous
        default: throw SceneFormatError(value.child("priority"), "must be normal, high or simultaneous")
        }
        var bind: [SceneDescription.PropertyExpression] = []
        if let binding = members["bind"] {
            for (key, item) in try binding.members() {
                guard let property = SceneDescription.Property(rawValue: key) else {
                    throw SceneFormatError(item.pointer, "must be one of x, y, rotation, scale, opacity, z")
                }
                let index = SceneDescription.Property.allCases.firstIndex(of: property) ?? 0
                bind.removeAll { $0.index == index }
                bind.append(.init(index: index, expression: try item.expression(scope, .number)))
            }
        }
        let onEnd = try (members["onEnd"]?.array(maximum: 16) ?? []).map { (effect) throws(SceneFormatError) in
            try self.effect(effect, globals: globals, cards: cards)
        }
        return SceneDescription.GestureRule(
            name: name, target: target, gesture: gesture, priority: priority, bind: bind, onEnd: onEnd)
    }

    /// The keys a gesture (or a part of a composed one) may have besides a rule's own.
    static let gestureKeys: Set<String> = [
        "kind", "minimumDistance", "minimumDuration", "minimumVelocity", "directions", "gestures",
    ]

    /// The deepest a composed gesture nests (`exclusive` of `sequenced` of …).
    static let maximumGestureDepth = 4

    /// The gesture `members` describe: a primitive (`tap`, `longPress`, `drag`, `swipe`) or a composition of two
    /// (`exclusive`, `sequenced`, `simultaneous`: SwiftUI's `exclusively(before:)`, `sequenced(before:)` and
    /// `simultaneously(with:)`, the first of `gestures` before the second).
    func gesture(_ value: Located, _ members: [String: Located], depth: Int) throws(SceneFormatError) -> Gesture {
        let kind = try members["kind"].required(in: value, "kind").string()
        let distance = try members["minimumDistance"]?.number(in: 0...1000)
        switch kind {
        case "tap": return .tap(TapGesture())
        case "longPress":
            return .longPress(
                LongPressGesture(minimumDuration: try members["minimumDuration"]?.number(in: 0...10) ?? 0.5))
        case "drag": return .drag(DragGesture(minimumDistance: distance ?? 10))
        case "swipe":
            var directions: SwipeDirections = []
            for item in try members["directions"]?.array(maximum: 4) ?? [] {
                switch try item.string() {
                case "left": directions.insert(.left)
                case "right": directions.insert(.right)
                case "up": directions.insert(.up)
                case "down": directions.insert(.down)
                default: throw item.fail("must be left, right, up or down")
                }
            }
            return .swipe(
                SwipeGesture(
                    directions: directions.isEmpty ? .all : directions, minimumDistance: distance ?? 50,
                    minimumVelocity: try members["minimumVelocity"]?.number(in: 0...100_000) ?? 300))
        case "exclusive", "sequenced", "simultaneous":
            guard depth < Self.maximumGestureDepth else {
                throw SceneFormatError(value.child("kind"), "nests deeper than \(Self.maximumGestureDepth)")
            }
            let parts = try members["gestures"].required(in: value, "gestures").array(maximum: 2)
            guard parts.count == 2 else {
                throw SceneFormatError(value.child("gestures"), "must list exactly two gestures")
            }
            var composed: [Gesture] = []
            for part in parts {
                let partMembers = try part.object(allowed: Self.gestureKeys)
                composed.append(try gesture(part, partMembers, depth: depth + 1))
            }
            switch kind {
            case "exclusive": return .exclusive(composed[0], composed[1])
            case "sequenced": return .sequenced(composed[0], composed[1])
            default: return .simultaneous(composed[0], composed[1])
            }
        default:
            throw SceneFormatError(
                value.child("kind"), "must be tap, longPress, drag, swipe, exclusive, sequenced or simultaneous")
        }
    }

    func effect(
        _ value: Located, globals: [SceneDescription.Variable], cards: [SceneDescription.Variable]
    ) throws(SceneFormatError) -> SceneDescription.Effect {
        let members = try value.object(allowed: [
            "when", "set", "setCard", "snap", "reorder", "remove", "removal", "restore", "carryVelocity", "haptic",
            "animation", "resetCards",
        ])
        func assignments(_ key: String, _ variables: [SceneDescription.Variable]) throws(SceneFormatError)
            -> [(slot: Int, value: Expression)]
        {
            guard let list = members[key] else { return [] }
            var result: [(slot: Int, value: Expression)] = []
            for (name, item) in try list.members() {
                guard let variable = variables.first(where: { $0.name == name }) else {
                    throw SceneFormatError(item.pointer, "'\(name)' is not a declared variable here")
                }
                result.append((variable.slot, try item.expression(scope, variable.type)))
            }
            return result
        }
        var snap: SceneDescription.Snap?
        if let spec = members["snap"] {
            let fields = try spec.object(allowed: ["var", "value", "velocity", "points", "flingVelocity"])
            let variableName = try fields["var"].required(in: spec, "var").string()
            let isCard = variableName.hasPrefix("card.")
            let bare = isCard ? String(variableName.dropFirst(5)) : variableName
            guard let variable = (isCard ? cards : globals).first(where: { $0.name == bare }), variable.type == .number
            else {
                throw SceneFormatError(spec.child("var"), "must name a number variable (card.name for a card's)")
            }
            let points = try fields["points"].required(in: spec, "points").array(maximum: 64).map {
                (point) throws(SceneFormatError) in try point.expression(scope, .number)
            }
            guard !points.isEmpty else { throw SceneFormatError(spec.child("points"), "needs at least one point") }
            snap = SceneDescription.Snap(
                slot: variable.slot, isCardVariable: isCard,
                value: try fields["value"].required(in: spec, "value").expression(scope, .number),
                velocity: try fields["velocity"]?.expression(scope, .number) ?? .constant(0), points: points,
                flingVelocity: try fields["flingVelocity"]?.number(in: 0...100_000) ?? 125)
        }
        var haptic: HapticEvent.Style?
        if let style = members["haptic"] {
            let name = try style.string()
            guard let parsed = Self.hapticStyles.first(where: { "\($0)" == name }) else {
                throw style.fail("must be one of " + Self.hapticStyles.map { "\($0)" }.joined(separator: ", "))
            }
            haptic = parsed
        }
        return SceneDescription.Effect(
            when: try members["when"].map { (when) throws(SceneFormatError) in try when.expression(scope, .bool) },
            set: try assignments("set", globals), setCard: try assignments("setCard", cards), snap: snap,
            reorderSlot: try members["reorder"].map { (slot) throws(SceneFormatError) in
                try slot.expression(scope, .number)
            },
            remove: try members["remove"]?.bool() ?? false,
            removal: try members["removal"].map { (removal) throws(SceneFormatError) in try Self.transition(removal) },
            restore: try members["restore"]?.bool() ?? false,
            carryVelocity: try members["carryVelocity"]?.bool() ?? false, haptic: haptic,
            animation: try members["animation"].map { (spec) throws(SceneFormatError) in try animation(spec) },
            resetCards: try members["resetCards"]?.bool() ?? false)
    }

    static let hapticStyles: [HapticEvent.Style] = [.light, .medium, .heavy, .soft, .rigid, .selection, .success]

    /// `"smooth"`, `{"spring": {"response", "dampingFraction"}}`, `{"spring": {"duration", "bounce"}}`,
    /// `{"preset": "snappy", "duration", "extraBounce"}`, `{"curve": "easeInOut", "duration"}`, `null` (no
    /// animation); any object may add `"delay"`, an expression per card (a stagger).
    func animation(_ value: Located) throws(SceneFormatError) -> SceneDescription.AnimationSpec {
        switch value.value {
        case .null: return SceneDescription.AnimationSpec(animation: nil, delay: nil)
        case .string:
            return SceneDescription.AnimationSpec(
                animation: try Self.preset(value, duration: nil, bounce: 0), delay: nil)
        case .object: break
        default: throw value.fail("must be an animation name, an object or null")
        }
        let members = try value.object(allowed: ["spring", "preset", "curve", "duration", "extraBounce", "delay"])
        let delay = try members["delay"]?.expression(scope, .number)
        let animation: Animation
        do {
            if let spring = members["spring"] {
                let fields = try spring.object(allowed: ["response", "dampingFraction", "duration", "bounce"])
                if let response = fields["response"] {
                    animation = try .spring(
                        response: try response.number(in: 0.01...10),
                        dampingFraction: try fields["dampingFraction"]?.number(in: 0.01...10) ?? 0.825)
                } else {
                    animation = try .spring(
                        duration: try fields["duration"]?.number(in: 0.01...10) ?? 0.5,
                        bounce: try fields["bounce"]?.number(in: -0.99...0.99) ?? 0)
                }
            } else if let preset = members["preset"] {
                animation = try Self.preset(
                    preset, duration: try members["duration"]?.number(in: 0.01...10),
                    bounce: try members["extraBounce"]?.number(in: -0.99...0.99) ?? 0)
            } else if let curve = members["curve"] {
                let duration = try members["duration"]?.number(in: 0.01...10) ?? 0.35
                switch try curve.string() {
                case "linear": animation = try .linear(duration: duration)
                case "easeIn": animation = try .easeIn(duration: duration)
                case "easeOut": animation = try .easeOut(duration: duration)
                case "easeInOut": animation = try .easeInOut(duration: duration)
                default: throw curve.fail("must be linear, easeIn, easeOut or easeInOut")
                }
            } else {
                throw value.fail("needs spring, preset or curve")
            }
        } catch let error as SceneFormatError {
            throw error
        } catch {
            throw value.fail("is not a valid animation: \(error)")
        }
        return SceneDescription.AnimationSpec(animation: animation, delay: delay)
    }

    static func preset(_ value: Located, duration: Double?, bounce: Double) throws(SceneFormatError) -> Animation {
        let name = try value.string()
        do {
            switch name {
            case "default": return .default
            case "spring": return .spring
            case "interactiveSpring": return .interactiveSpring
            case "smooth":
                return duration == nil && bounce == 0
                    ? .smooth : try .smooth(duration: duration ?? 0.5, extraBounce: bounce)
            case "snappy":
                return duration == nil && bounce == 0
                    ? .snappy : try .snappy(duration: duration ?? 0.5, extraBounce: bounce)
            case "bouncy":
                return duration == nil && bounce == 0
                    ? .bouncy : try .bouncy(duration: duration ?? 0.5, extraBounce: bounce)
            case "linear": return .linear
            case "easeIn": return .easeIn
            case "easeOut": return .easeOut
            case "easeInOut": return .easeInOut
            default: break
            }
        } catch {
            throw value.fail("is not a valid animation: \(error)")
        }
        throw value.fail(
            "must be default, spring, interactiveSpring, smooth, snappy, bouncy, linear, easeIn, easeOut or easeInOut")
    }

    // MARK: Actions and keys

    mutating func action(
        _ value: Located, globals: [SceneDescription.Variable], cards: [SceneDescription.Variable]
    ) throws(SceneFormatError) -> SceneDescription.ActionRule {
        let members = try value.object(allowed: [
            "name", "summary", "takesCard", "defaultCard", "effects", "arguments", "availability",
        ])
        let name = try members["name"].required(in: value, "name").string()
        guard Self.isIdentifier(name) else { throw SceneFormatError(value.child("name"), "must be a name") }
        let listed = try members["arguments"].map { (list) throws(SceneFormatError) in try actionArguments(list) }
        let takesCard = try members["takesCard"]?.bool() ?? listed?.0.contains { $0.name == "card" } ?? false
        var defaultCard: Int?
        var defaultsToLast = false
        if let given = members["defaultCard"], try given.string() == "last" {
            defaultsToLast = true
        } else if let given = members["defaultCard"] {
            let variableName = try given.string()
            guard let variable = globals.first(where: { $0.name == variableName }), variable.type == .card else {
                throw given.fail("must name a card state variable")
            }
            defaultCard = variable.slot
        }
        let effects = try members["effects"].required(in: value, "effects").array(maximum: 16).map {
            (effect) throws(SceneFormatError) in try self.effect(effect, globals: globals, cards: cards)
        }
        var arguments =
            listed?.0
            ?? (takesCard
                ? [ActionArgument("card", .card, "card id; the scene's default card when absent", required: false)]
                : [])
        if takesCard, !arguments.contains(where: { $0.name == "card" }) {
            arguments.append(
                ActionArgument("card", .card, "card id; the scene's default card when absent", required: false))
        }
        let info = ActionInfo(
            name, try members["summary"]?.string() ?? name, arguments: arguments,
            availability: takesCard ? .deckHasAtLeast(1) : .always)
        return SceneDescription.ActionRule(
            info: info, effects: effects, defaultCard: defaultCard, choices: listed?.1 ?? [],
            defaultsToLast: defaultsToLast)
    }

    func key(_ value: Located, actions: Set<String>) throws(SceneFormatError) -> SceneDescription.KeyRule {
        let members = try value.object(allowed: [
            "keys", "summary", "action", "label", "short", "when", "arguments", "listed",
        ])
        let keys = try members["keys"].required(in: value, "keys").array(maximum: 8).map {
            (key) throws(SceneFormatError) in try key.string()
        }
        guard !keys.isEmpty else { throw SceneFormatError(value.child("keys"), "needs at least one key") }
        let action = try members["action"].required(in: value, "action").string()
        guard actions.contains(action) else {
            throw SceneFormatError(value.child("action"), "'\(action)' is not one of the scene's actions")
        }
        let summary = try members["summary"]?.string() ?? action
        return SceneDescription.KeyRule(
            help: KeyHelp(
                try members["label"]?.string() ?? keys.joined(separator: " "), summary,
                short: try members["short"]?.string() ?? action, names: keys),
            action: action, when: try members["when"]?.expression(scope, .bool),
            arguments: try constantArguments(members["arguments"]),
            isListed: try members["listed"]?.bool() ?? true)
    }
}
