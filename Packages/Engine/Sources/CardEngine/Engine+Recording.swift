import CardPersistence

extension Engine {
    /// Starts recording the session: returns nothing, and from now on `takeRecording()` hands out JSON lines — the
    /// header (scene, viewport, time, the measurer, `options`' card count or deck, and the scene's state as it was
    /// restored, and a scene described as data its description, so a replay rebuilds the same scene), then a line per input, per frame taken (its time and digest)
    /// and per text measurer change. The engine does no I/O: the front end writes what it takes.
    public mutating func startRecording(options: SceneOptions) {
        log.scene = scene.name
        log.viewport = viewport
        log.startTime = time
        log.look = scene.descriptor.lookRevision
        var setup = RecordingSetup(measurer: InputLog.measurerName(textMeasurer), cardCount: options.cardCount)
        if options.cardCount == nil, let deck = options.deck {
            setup.deckJSON = String(
                decoding: DeckFastEncoder.encode(DeckDocument(deck: deck, revision: 1)), as: UTF8.self)
        }
        setup.stateJSON = scene.encodeState().map { String(decoding: $0, as: UTF8.self) }
        setup.reducesMotion = reducesMotion
        setup.sceneDefinition = scene.descriptor.definition
        log.setup = setup
        log.startRecording()
    }

    /// The recorded lines since the last call (empty when not recording). O(lines).
    public mutating func takeRecording() -> [UInt8] { log.takeRecording() }
}
