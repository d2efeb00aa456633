import CardEngine
import CardGeometry
import CardPersistence

/// What a front end does around an engine, synchronously, for tests: open a scene with its state loaded from a
/// store (per scene and deck, `StateKey`), and write its state changes (snapshots and journal records) the way
/// `StateSaver` does on its thread.
extension Engine {
    static func persisted(
        _ scene: any Scene, viewport: Size, store: any DeckStore, identity: String? = nil, startTime: Double = 0
    ) -> Engine {
        guard let stateName = scene.stateName else { return Engine(scene: scene, viewport: viewport) }
        let loaded = LoadedState(StateKey.name(stateName, deck: identity), from: store)
        return Engine(scene: scene, viewport: viewport, savedState: loaded, startTime: startTime)
    }

    /// Writes the state changes so far to `store`; returns the error a saver would report.
    @discardableResult
    mutating func save(to store: any DeckStore, identity: String? = nil) -> StoreError? {
        guard let change = takeStateChange() else { return nil }
        return write(change, to: store, identity: identity)
    }

    /// Writes `change` (taken from this engine) to `store` as a saver would; returns the error it would report.
    func write(_ change: StateChange, to store: any DeckStore, identity: String? = nil) -> StoreError? {
        guard let stateName = scene.stateName else { return nil }
        let key = StateKey.name(stateName, deck: identity)
        var machine = StateSaverMachine()
        machine.resume(key, after: LoadedState(key, from: store).sequence)
        var error: StoreError?
        var actions = machine.submit(change, to: key)
        while case .start(let job)? = actions.first {
            let outcome = StateSaver.write(job, to: store)
            error = error ?? outcome.error
            actions = machine.finished(failed: outcome.error == nil ? nil : job, reached: outcome.reached)
        }
        return error
    }
}
