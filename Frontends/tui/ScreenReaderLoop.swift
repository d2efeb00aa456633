import CardEngine
import CardFrontend

#if canImport(Glibc)
    import Glibc
#endif

/// The screen-reader mode's loop (`cardistry tui --screen-reader`, or `CARDISTRY_SCREEN_READER=1`): the same app
/// and keys as the full-screen UI, but nothing is drawn. After each key the app's change is announced once, as a
/// line (`ScreenReaderAnnouncer`): no repaint, no cursor movement, no escape sequence, so a screen reader or a
/// braille display reads each line as it comes, and the terminal's scrollback is the session's transcript. Keys
/// only: the terminal is not asked to report the mouse.
enum ScreenReaderLoop {
    /// Runs the app in the linear mode until the user quits; returns the exit status.
    static func run(_ options: TUIRunLoop.Options) throws(TerminalError) -> Int32 {
        let session = try TerminalSession(linear: true)
        try session.enter()
        defer { session.leave() }
        let origin = POSIXIO.monotonicSeconds()
        let now = { POSIXIO.monotonicSeconds() - origin }
        let size = session.size()
        var app = TUIApp(columns: size.columns, rows: size.rows, configuration: options.configuration)
        if let scene = options.scene { app.open(scene, at: now()) }
        defer {
            app.finishState()
            options.configuration.saver?.close()
        }
        var announcer = ScreenReaderAnnouncer()
        var decoder = InputDecoder()
        session.write(lines(announcer.announce(app)))
        while true {
            let wake = session.wait(timeout: decoder.deadline.map { max(0, $0 - now()) })
            let time = now()
            var inputs = decoder.feed(wake.input, at: time)
            if wake.input.isEmpty { inputs += decoder.flush(at: time) }
            for input in inputs {
                for effect in app.handle(input, at: time) {
                    switch effect {
                    case .quit: return 0
                    case .suspend: session.suspend()
                    case .bell: break  // the line that follows says what happened
                    }
                }
            }
            for signal in wake.signals {
                switch signal {
                case .interrupt, .terminate, .hangup:
                    app.finishState()
                    options.configuration.saver?.close()
                    session.terminate(by: signal)
                case .resize:
                    let size = session.size()
                    app.resize(columns: size.columns, rows: size.rows, at: time)
                case .suspend:
                    session.suspend()
                case .resume:
                    try? session.enter()
                }
            }
            app.takeSaverNews()
            session.write(lines(announcer.announce(app)))
        }
    }

    /// `lines`, each ended by a newline, as bytes.
    static func lines(_ lines: [String]) -> [UInt8] {
        Array(lines.map { $0 + "\n" }.joined().utf8)
    }
}
