import CardCells
import CardEngine
import CardFrontend

#if canImport(Glibc)
    import Glibc
#endif

/// The realtime loop: the terminal session, real time, and the app.
///
/// Each turn draws a frame if the app needs one and the frame interval has passed, then sleeps in `poll` until
/// input, a signal, the next frame (only while something animates), a pending timer or the Esc timeout. An idle
/// screen therefore sleeps without waking and writes nothing.
public struct TUIRunLoop {
    public struct Options: Sendable {
        public var configuration: TUIApp.Configuration
        /// A scene to open at once instead of the home screen.
        public var scene: String?
        public var framesPerSecond: Int
        public var depth: ColorDepth
        /// Where to record the session (`--record FILE`), written line by line as it happens.
        public var recordPath: String?
        /// How much slower than the wall clock the app's clock runs (`--slow-motion N`).
        public var slowMotion = SlowMotion(factor: 1)
        /// Where the state saver asks for the heap's free pages to go back after a snapshot; the loop releases them
        /// once the user has been idle for `idleRelease` (a trim on the saver's thread would stall a frame on the
        /// heap's lock: `HeapReleaseRequest`).
        public var heapRelease: HeapReleaseRequest?
        /// The screen-reader mode (`--screen-reader`): lines instead of a screen (`ScreenReaderLoop`).
        public var screenReader = false
        /// The cursor shown in the full-screen mode (`--show-cursor`), resting on the focused item.
        public var showsCursor = false

        public init(configuration: TUIApp.Configuration, scene: String?, framesPerSecond: Int, depth: ColorDepth) {
            self.configuration = configuration
            self.scene = scene
            self.framesPerSecond = framesPerSecond
            self.depth = depth
        }
    }

    /// Runs the TUI on the controlling terminal until the user quits; returns the exit status. Signals that end
    /// the process (SIGINT, SIGTERM, SIGHUP) restore the terminal and re-raise themselves.
    /// Input that took longer than this to handle (seconds) counts as heavy work, after which idle memory is
    /// released; a million-card move takes about 1 ms, a million-card sort 15.
    static let heavyWork = 0.005
    /// How long the user must be idle after heavy work before the heap's free pages are released.
    static let idleRelease = 1.0

    public static func run(_ options: Options) throws(TerminalError) -> Int32 {
        if options.screenReader { return try ScreenReaderLoop.run(options) }
        var recordFile: Int32 = -1
        if let path = options.recordPath {
            recordFile = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard recordFile >= 0 else { throw TerminalError.system(call: "open \(path)", errno: errno) }
        }
        defer { if recordFile >= 0 { close(recordFile) } }
        let session = try TerminalSession()
        session.showsCursor = options.showsCursor
        try session.enter()
        defer { session.leave() }
        var loop = Loop(options: options, session: session, recordFile: recordFile)
        defer { loop.flushRecording() }
        // Whichever way the session ends, the scene's state reaches the disk first.
        defer {
            loop.app.finishState()
            options.configuration.saver?.close()
        }
        while true {
            let time = loop.now()
            if let status = loop.handleQueued(at: time) { return status }
            loop.handleSignals(at: options.slowMotion.appTime(wall: time))
            loop.app.takeSaverNews()
            loop.drawIfDue(at: time)
            loop.flushRecording()
            loop.waitForInput()
        }
    }

    /// One running session: the terminal, the app, the renderer and the loop's clocks, one method per step of a
    /// turn (handle the input taken, the signals, draw, wait).
    struct Loop {
        let options: Options
        let session: TerminalSession
        /// The file the session is recorded to (-1: none).
        let recordFile: Int32
        /// The wall clock's zero (monotonic seconds).
        let origin: Double
        var app: TUIApp
        var decoder = InputDecoder()
        var renderer: ANSIRenderer
        var buffer: CellBuffer
        var scheduler: FrameScheduler
        /// After heavy work (a million-card sort: the heap keeps its arrays for the next one) or a snapshot the saver
        /// encoded, the free pages go back to the system once the user has been idle for a second.
        var release: IdleHeapRelease
        /// Input with the wall time it is taken to have happened (reports read together are spread back in time).
        var queued: [(input: TerminalInput, time: Double)] = []
        var pendingSignals: [TerminalSignal] = []

        /// Asks the terminal what it supports (waiting at most the probe's timeout), then opens the app at the
        /// terminal's size, with `options.scene` open when one is given.
        init(options: Options, session: TerminalSession, recordFile: Int32) {
            self.options = options
            self.session = session
            self.recordFile = recordFile
            let origin = POSIXIO.monotonicSeconds()
            self.origin = origin
            // Wall time drives frames, sleeps and the terminal's own timeouts; the app sees its own (slowed) clock.
            let now = { POSIXIO.monotonicSeconds() - origin }
            session.write(ANSI.capabilityQuery)
            var probe = CapabilityProbe(startedAt: now())
            while let remaining = probe.remaining(at: now()) {
                let wake = session.wait(timeout: remaining)
                pendingSignals += wake.signals
                let time = now()
                probe.handle(decoder.feed(wake.input, at: time), at: time)
            }
            let size = session.size()
            app = TUIApp(columns: size.columns, rows: size.rows, configuration: options.configuration)
            if let scene = options.scene { app.open(scene, at: options.slowMotion.appTime(wall: now())) }
            renderer = ANSIRenderer(
                writer: ANSIWriter(depth: options.depth, synchronizedOutput: probe.supportsSynchronizedOutput),
                sink: { session.write($0) })
            buffer = CellBuffer(width: size.columns, height: size.rows)
            scheduler = FrameScheduler(framesPerSecond: options.framesPerSecond)
            queued = probe.otherInput.map { (input: $0, time: now()) }
            release = IdleHeapRelease(idleSeconds: TUIRunLoop.idleRelease, startedAt: now())
            let lookAgain: @Sendable () -> Void = {
                var byte: UInt8 = 0  // not a signal: the wake-up only makes the loop look again
                _ = write(signalPipeWriteFD, &byte, 1)
            }
            options.heapRelease?.onRequest(lookAgain)
            // A fault of the saver, or its end, shows on the status line when it happens, not at the next key.
            options.configuration.saver?.onNews(lookAgain)
        }

        /// Seconds since the loop started, on the wall clock.
        func now() -> Double { POSIXIO.monotonicSeconds() - origin }

        /// Writes what the app recorded straight to the file (no user-space buffer: a kill leaves every line
        /// written so far).
        mutating func flushRecording() {
            guard recordFile >= 0 else { return }
            POSIXIO.writeAll(recordFile, app.takeRecording())
        }

        /// Hands the app the input taken since the last turn, each at its own time (never later than `time`);
        /// returns the exit status when the user quits. Input that took long to handle asks for the heap's release.
        mutating func handleQueued(at time: Double) -> Int32? {
            for (input, at) in queued {
                for effect in app.handle(input, at: options.slowMotion.appTime(wall: min(at, time))) {
                    switch effect {
                    case .quit: return 0
                    case .suspend: pendingSignals.append(.suspend)
                    case .bell: session.write(ANSI.bell)
                    }
                }
            }
            if !queued.isEmpty {
                let handled = now()
                release.activity(at: handled)
                if handled - time > TUIRunLoop.heavyWork { release.want() }
            }
            queued = []
            return nil
        }

        /// Acts on the signals taken since the last turn: an ending signal writes the state and the recording and
        /// restores the terminal; a stop, a continue or a resize repaints at the terminal's size.
        mutating func handleSignals(at appTime: Double) {
            for signal in pendingSignals {
                switch signal {
                case .interrupt, .terminate, .hangup:
                    app.finishState()
                    options.configuration.saver?.close()
                    flushRecording()
                    session.terminate(by: signal)
                case .suspend:
                    session.suspend()
                    repaint(at: appTime)
                case .resume:
                    try? session.enter()
                    repaint(at: appTime)
                case .resize:
                    let size = session.size()
                    app.resize(columns: size.columns, rows: size.rows, at: appTime)
                    renderer.invalidate()
                }
            }
            pendingSignals = []
        }

        /// Repaints the whole screen after the process was stopped. The terminal may have changed size meanwhile:
        /// SIGWINCH goes to the foreground process group only, which was the shell then, so the size is read again.
        private mutating func repaint(at appTime: Double) {
            let size = session.size()
            if size.columns != app.columns || size.rows != app.rows {
                app.resize(columns: size.columns, rows: size.rows, at: appTime)
            }
            renderer.invalidate()
            app.markDirty()
        }

        /// Draws a frame when the app needs one and the frame interval has passed.
        mutating func drawIfDue(at time: Double) {
            let clock = options.slowMotion
            guard
                scheduler.shouldDraw(
                    at: time, wake: app.nextWakeTime(after: clock.appTime(wall: time)).map(clock.wallTime))
            else { return }
            let effects = app.draw(at: clock.appTime(wall: time), into: &buffer)
            options.depth.convert(&buffer)
            renderer.present(buffer)
            if let cell = app.focusCell() { renderer.restCursor(on: cell) }
            if effects.contains(.bell) { session.write(ANSI.bell) }
            scheduler.didDraw(at: time)
        }

        /// Releases the heap's free pages when due, then sleeps in `poll` until input, a signal, the next frame, a
        /// pending timer, the Esc timeout or the release; queues what arrived, spread back over the sleep.
        mutating func waitForInput() {
            let clock = options.slowMotion
            let after = now()
            if options.heapRelease?.take() == true { release.want() }
            if release.releaseIfDue(at: after) { ProcessMemory.releaseFreed() }
            var timeout = scheduler.timeout(
                at: after, wake: app.nextWakeTime(after: clock.appTime(wall: after)).map(clock.wallTime),
                inputDeadline: decoder.deadline)
            if let due = release.due { timeout = min(timeout ?? .infinity, max(0, due - after)) }
            let wake = session.wait(timeout: timeout)
            let arrival = now()
            var inputs = decoder.feed(wake.input, at: arrival)
            if wake.input.isEmpty { inputs += decoder.flush(at: arrival) }
            queued = zip(inputs, InputTiming.spread(count: inputs.count, since: after, arrival: arrival)).map {
                (input: $0, time: $1)
            }
            pendingSignals = wake.signals
        }
    }
}
