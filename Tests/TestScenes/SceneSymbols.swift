import CardEngine
import CardGeometry

/// The symbols (SF Symbols names) the scenes of a catalogue draw, found by driving each scene the same way whatever
/// it is: at rest, after each key it declares, and after each action whose arguments are all cards, performed on
/// each card of its deck (the hero's details, for one, appear only after `open`). No scene is named.
package enum SceneSymbols {
    /// Every symbol scene `name` of `catalog` draws in a 390 × 844 viewport: the text of its icon nodes and of its
    /// runs marked as symbols.
    package static func drawn(by name: String, in catalog: SceneCatalog) throws -> Set<String> {
        let start = Engine(scene: try catalog.make(name), viewport: Size(width: 390, height: 844))
        var drawn: Set<String> = []
        func collect(_ engine: inout Engine, at time: Double) {
            for node in engine.frame(at: time).nodes {
                for text in node.text where text.run.isSymbol || node.role == .icon { drawn.insert(text.text) }
            }
        }
        var atRest = start
        collect(&atRest, at: 5)
        let descriptor = start.scene.descriptor
        for key in descriptor.keyHelp.flatMap(\.names) {
            var engine = start
            engine.handle(.key(keyInput(named: key), time: 5))
            collect(&engine, at: 10)
        }
        for action in descriptor.actions where action.arguments.allSatisfy({ $0.kind == .card }) {
            for card in start.scene.deckIDs {
                var engine = start
                let arguments = Dictionary(
                    uniqueKeysWithValues: action.arguments.map { ($0.name, ActionValue.string(card.description)) })
                guard (try? engine.perform(SceneAction(action.name, arguments), at: 5)) != nil else { continue }
                collect(&engine, at: 10)
            }
        }
        return drawn
    }

    /// A `KeyHelp` name as a key press: `shift+up` is up with shift.
    static func keyInput(named name: String) -> KeyInput {
        let parts = name.split(separator: "+")
        guard parts.count > 1, let key = parts.last else { return KeyInput(name) }
        let modifiers = Set(parts.dropLast())
        return KeyInput(
            String(key), shift: modifiers.contains("shift"), control: modifiers.contains("control"),
            alt: modifiers.contains("alt"))
    }
}
