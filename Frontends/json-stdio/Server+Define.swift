import CardEngine
import CardJSON

extension Server {
    /// `scene.define {description}` → `{scene, title, actions, redefined}`: adds a scene described as data
    /// (docs/scenes.md) to the catalogue, or replaces the scene of that name a host defined before; it then appears
    /// in `scene.list` and opens with `scene.open` like a built-in scene (an open scene plays on as it was). A
    /// description that fails to load is refused with −32602 naming the JSON pointer (and the column inside an
    /// expression) of its fault under `description`; a built-in scene's name is refused with −32012.
    mutating func sceneDefine(_ p: Params) throws(RPCError) -> [OutboundPart] {
        try p.only(["description"])
        guard let description = p.value("description") else { throw .invalidParams(p.name("description"), "missing") }
        guard case .object = description else { throw .invalidParams(p.name("description"), "must be an object") }
        guard let definer = configuration.definer else {
            throw .invalidState("this server loads no scene descriptions")
        }
        let entry: SceneCatalog.Entry
        do {
            entry = try definer.define(description)
        } catch {
            let column = error.column.map { "at column \($0): " } ?? ""
            throw .invalidParams(p.name("description") + error.pointer, column + error.message)
        }
        let name = entry.descriptor.name
        let redefined = definedScenes.contains(name)
        if !redefined, configuration.provider.names.contains(name) {
            throw .invalidState("'\(name)' is a built-in scene; a defined scene needs a name of its own")
        }
        guard let provider = configuration.provider.defining(entry) else {
            throw .invalidState("this server's scenes cannot be extended")
        }
        configuration.provider = provider
        definedScenes.insert(name)
        var out = JSONOutput()
        out.raw("{\"scene\":")
        out.string(name)
        out.raw(",\"title\":")
        out.string(entry.descriptor.title)
        out.raw(",\"actions\":")
        out.strings(entry.descriptor.actions.map(\.name))
        out.raw(",\"redefined\":")
        out.bool(redefined)
        out.byte(UInt8(ascii: "}"))
        return [.bytes(out.bytes)]
    }
}
