/// A line of items for the hero scene (seed 001, `ItemLineModel`): shown as a row of chips in the overview and
/// as a vertical list in the details view.
public struct ItemLine: Sendable, Hashable, Codable {
    /// One item (seed 001, `ItemModel`). Its `id` names the matched-geometry ids `<id>.color`, `<id>.icon`, `<id>.text`.
    public struct Item: Sendable, Hashable, Codable, Identifiable {
        public var id: String
        public var color: RGBColor
        /// An icon name (SF Symbol names in the seed; front ends map them to glyphs).
        public var icon: String
        public var text: String

        public init(id: String, color: RGBColor, icon: String, text: String) {
            self.id = id
            self.color = color
            self.icon = icon
            self.text = text
        }
    }

    public var items: [Item]

    public init(items: [Item]) {
        self.items = items
    }
}
