import CardCells
import CardEngine

/// The frames of one animation as the terminal UI would draw them: what the `tui` benchmark suite renders and
/// `IdleAndMovingBytesTests` counts the bytes of, sampled the same way in both (one source, so the test and the
/// benchmark cannot drift apart).
package struct AnimationSample {
    /// The frames at 60 Hz from the input until the engine settles (at most two seconds), then `idleFrames` frames
    /// at rest.
    package var frames: [Frame]
    /// The cell scale the app draws the scene at.
    package var scale: CellScale
    /// How many of `frames` are at rest (the last ones).
    package var idleFrames: Int

    /// Opens `scene` from `catalog` in a `columns` × `rows` app, takes a frame at t = 1, then presses `keys` in turn
    /// until one starts an animation, and samples it. Nil when the scene does not open.
    ///
    /// - Complexity: O(frames × nodes).
    package init?(
        scene: String, keys: [String], catalog: SceneCatalog, columns: Int, rows: Int, idleFrames: Int = 10
    ) {
        var app = TUIApp(columns: columns, rows: rows, configuration: TUIApp.Configuration(catalog: catalog))
        guard app.open(scene, at: 0), var engine = app.engine else { return nil }
        _ = engine.frame(at: 1)
        for key in keys {
            engine.handle(.key(KeyInput(key), time: 1))
            if engine.isAnimating(at: 1) { break }
        }
        var frames: [Frame] = []
        var time = 1.0
        repeat {
            time += 1.0 / 60
            frames.append(engine.frame(at: time))
        } while engine.isAnimating(at: time) && time < 3
        for _ in 0..<idleFrames {
            time += 1.0 / 60
            frames.append(engine.frame(at: time))
        }
        self.frames = frames
        self.scale = app.scale
        self.idleFrames = idleFrames
    }
}
