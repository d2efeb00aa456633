/// A line of items for the hero scene (seed 001, `ItemLineModel`): shown as a row of chips in the overview and
/// as a vertical list in the details view.
public struct ItemLine: Sendable, Hashable, Codable {
    /// One item (seed 001, `ItemModel`). Its `id` names the matched-geometry ids `<id>.color`, `<id>.icon`, `<id>.text`.
    public struct Item: Sendable, Hashable, Codable, Identifiable {
        public var id: String
        /// The colour of the item's chip and of its square in the details view.
        public var color: RGBColor
        /// An icon name (SF Symbol names in the seed; front ends map them to glyphs).
        public var icon: String
        /// The item's label.
        public var text: String

        /// An item; `id` must be unique among all items shown together (it names matched-geometry ids).
        public init(id: String, color: RGBColor, icon: String, text: String) {
            self.id = id
            self.color = color
            self.icon = icon
            self.text = text
        }
    }

    /// The items of the line, in display order.
    public var items: [Item]

    /// A line of `items`.
    public init(items: [Item]) {
        self.items = items
    }
}
