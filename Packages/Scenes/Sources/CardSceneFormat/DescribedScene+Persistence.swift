import CardEngine
import CardJSON
import CardModels

/// The state a described scene keeps per deck: `{"order": [ids], "state": {name: value}, "cards": {id: {name:
/// value}}}` — the order (cards missing from it were removed), and the variables the description marks `persist`.
extension DescribedScene {
    public func encodeState() -> [UInt8]? {
        var state: [JSONValue.Member] = []
        for variable in description.globals where variable.persist {
            state.append(.init(variable.name, encode(globals[variable.slot], variable.type)))
        }
        var cards: [JSONValue.Member] = []
        let persisted = description.cardVariables.enumerated().filter { $0.element.persist }
        if !persisted.isEmpty {
            for card in allCards where deck.contains(id: card.id) {
                guard let own = cardValues[card.id] else { continue }
                cards.append(
                    .init(
                        card.id.description,
                        .object(persisted.map { .init($0.element.name, encode(own[$0.offset], $0.element.type)) })))
            }
        }
        return JSONValue.object([
            .init("order", .array(deck.ids.map { .string($0.description) })),
            .init("state", .object(state)),
            .init("cards", .object(cards)),
        ]).jsonBytes
    }

    public mutating func restoreState(_ json: [UInt8]) throws(SceneError) {
        guard let value = try? JSONValue(parsing: json), case .array(let order)? = value["order"] else {
            throw .invalidState("the saved state of '\(description.descriptor.name)' has no order")
        }
        var cards: [Card] = []
        var seen: Set<CardID> = []
        for item in order {
            guard let text = item.stringValue, let id = CardID(text), let index = allCards.index(of: id),
                seen.insert(id).inserted
            else { continue }
            cards.append(allCards[index])
        }
        guard let restored = try? Deck(cards) else { throw .invalidState("the saved order is not a deck") }
        var globals = self.globals
        for variable in description.globals where variable.persist {
            if let saved = value["state"]?[variable.name], let bits = decode(saved, variable.type) {
                globals[variable.slot] = bits
            }
        }
        var cardValues = self.cardValues
        for (position, variable) in description.cardVariables.enumerated() where variable.persist {
            for card in restored {
                if let saved = value["cards"]?[card.id.description]?[variable.name],
                    let bits = decode(saved, variable.type)
                {
                    cardValues[card.id]?[position] = bits
                }
            }
        }
        self.deck = restored
        self.globals = globals
        self.cardValues = cardValues
    }

    func encode(_ bits: UInt64, _ type: ExpressionType) -> JSONValue {
        switch type {
        case .number:
            let number = Expression.finite(Double(bitPattern: bits))
            return number == number.rounded() ? .integer(Int(number)) : .number(String(number))
        case .bool: return .bool(bits != 0)
        case .card: return bits == Expression.noCard ? .null : .string(String(bits))
        case .enumeration(let index):
            let values = description.scope.enumerations[index]
            return .string(Int(exactly: bits).flatMap { $0 < values.count ? values[$0] : nil } ?? values[0])
        }
    }

    func decode(_ value: JSONValue, _ type: ExpressionType) -> UInt64? {
        switch (type, value) {
        case (.number, .number): value.doubleValue.map(\.expressionBits)
        case (.bool, .bool(let flag)): flag ? 1 : 0
        case (.card, .null): Expression.noCard
        case (.card, .string(let text)): CardID(text)?.rawValue
        case (.enumeration(let index), .string(let text)):
            description.scope.enumerations[index].firstIndex(of: text).map { UInt64($0) }
        default: nil
        }
    }
}
