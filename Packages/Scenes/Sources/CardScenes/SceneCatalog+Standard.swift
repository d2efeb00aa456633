// CardScenes: the five seed apps as scenes of the engine.
//
// To add a scene: write `XScene.swift` (a `Scene` with a static `descriptor`), list it below, and add its tests in
// `Tests/CardScenesTests`. Front ends and hosts learn about it from its descriptor; the few other files it touches
// (its golden, the API baseline, the two hand-played end-to-end tours) are listed in docs/architecture.md, "Adding a
// scene", and `SceneCatalog.testing` (Tests/TestScenes) shows a sixth scene passing every catalogue-wide check.
import CardEngine

extension SceneCatalog {
    /// Cardistry's scenes, in menu order: every behaviour of the five seed apps.
    public static let standard = SceneCatalog([
        Entry(ScoresScene.self) { options throws(SceneError) in try ScoresScene(options: options) },
        Entry(FlashcardsScene.self) { options throws(SceneError) in try FlashcardsScene(options: options) },
        Entry(WalletScene.self) { options throws(SceneError) in try WalletScene(options: options) },
        Entry(HeroScene.self) { options throws(SceneError) in try HeroScene(options: options) },
        Entry(DeckScene.self) { options throws(SceneError) in try DeckScene(options: options) },
    ])
}
