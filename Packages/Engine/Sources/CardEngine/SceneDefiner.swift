import CardJSON

/// Makes catalogue entries from scene descriptions (JSON, `docs/scenes.md`): the seam through which front ends that
/// load scenes as data (`scene.define` over stdio, `cardistry tui --scene-file`) reach the format's loader without
/// importing it. The command line injects the loader (`SceneDefiner.described` in CardSceneFormat); a front end
/// without one refuses descriptions.
public struct SceneDefiner: Sendable {
    /// Parses and type-checks `description`, returning an entry that opens it; throws naming the fault's place.
    public var define: @Sendable (JSONValue) throws(SceneDefinitionError) -> SceneCatalog.Entry

    /// A definer that loads descriptions with `define`.
    public init(_ define: @escaping @Sendable (JSONValue) throws(SceneDefinitionError) -> SceneCatalog.Entry) {
        self.define = define
    }
}

/// Why a scene description was refused: the JSON pointer (RFC 6901) of the faulty value, the column inside it when
/// it is an expression, and what is wrong.
public struct SceneDefinitionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The JSON pointer of the value at fault (empty: the whole document).
    public var pointer: String
    /// The 1-based column inside the value's text, for an expression.
    public var column: Int?
    /// What is wrong.
    public var message: String

    /// An error at `pointer` (and `column`) saying `message`.
    public init(pointer: String, column: Int? = nil, message: String) {
        self.pointer = pointer
        self.column = column
        self.message = message
    }

    public var description: String {
        let place = pointer.isEmpty ? "/" : pointer
        if let column { return "\(place) (column \(column)): \(message)" }
        return "\(place): \(message)"
    }
}
