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
        var recordFile: Int32 = -1
        if let path = options.recordPath {
            recordFile = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard recordFile >= 0 else { throw TerminalError.system(call: "open \(path)", errno: errno) }
        }
        defer { if recordFile >= 0 { close(recordFile) } }
        /// Writes what the app recorded straight to the file (no user-space buffer: a kill leaves every line
        /// written so far).
        func flushRecording(_ app: inout TUIApp) {
            guard recordFile >= 0 else { return }
            POSIXIO.writeAll(recordFile, app.takeRecording())
        }
        let session = try TerminalSession()
        try session.enter()
        defer { session.leave() }
        let origin = POSIXIO.monotonicSeconds()
        // Wall time drives frames, sleeps and the terminal's own timeouts; the app sees its own (slowed) clock.
        func now() -> Double { POSIXIO.monotonicSeconds() - origin }
        let clock = options.slowMotion

        var decoder = InputDecoder()
        session.write(ANSI.capabilityQuery)
        var probe = CapabilityProbe(startedAt: now())
        var pendingSignals: [TerminalSignal] = []
        while let remaining = probe.remaining(at: now()) {
            let wake = session.wait(timeout: remaining)
            pendingSignals += wake.signals
            let time = now()
            probe.handle(decoder.feed(wake.input, at: time), at: time)
        }

        let size = session.size()
        var app = TUIApp(columns: size.columns, rows: size.rows, configuration: options.configuration)
        if let scene = options.scene { app.open(scene, at: clock.appTime(wall: now())) }
        defer { flushRecording(&app) }
        // Whichever way the session ends, the scene's state reaches the disk first.
        defer {
            app.finishState()
            options.configuration.saver?.close()
        }
        var renderer = ANSIRenderer(
            writer: ANSIWriter(depth: options.depth, synchronizedOutput: probe.supportsSynchronizedOutput),
            sink: { session.write($0) })
        var buffer = CellBuffer(width: size.columns, height: size.rows)
        var scheduler = FrameScheduler(framesPerSecond: options.framesPerSecond)
        // Input with the wall time it is taken to have happened (reports read together are spread back in time).
        var queued = probe.otherInput.map { (input: $0, time: now()) }
        // After heavy work (a million-card sort: the heap keeps its arrays for the next one) or a snapshot the saver
        // encoded, the free pages go back to the system once the user has been idle for a second.
        var release = IdleHeapRelease(idleSeconds: Self.idleRelease, startedAt: now())
        let lookAgain: @Sendable () -> Void = {
            var byte: UInt8 = 0  // not a signal: the wake-up only makes the loop look again
            _ = write(signalPipeWriteFD, &byte, 1)
        }
        options.heapRelease?.onRequest(lookAgain)
        // A fault of the saver, or its end, shows on the status line when it happens, not at the next key.
        options.configuration.saver?.onNews(lookAgain)

        while true {
            let time = now()
            let appTime = clock.appTime(wall: time)
            for (input, at) in queued {
                for effect in app.handle(input, at: clock.appTime(wall: min(at, time))) {
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
                if handled - time > Self.heavyWork { release.want() }
            }
            queued = []
            // The terminal may have changed size while the process was stopped: SIGWINCH goes to the foreground
            // process group only, which was the shell then. So a resume asks for the size again.
            func refreshSize() {
                let size = session.size()
                if size.columns != app.columns || size.rows != app.rows {
                    app.resize(columns: size.columns, rows: size.rows, at: appTime)
                }
            }
            for signal in pendingSignals {
                switch signal {
                case .interrupt, .terminate, .hangup:
                    app.finishState()
                    options.configuration.saver?.close()
                    flushRecording(&app)
                    session.terminate(by: signal)
                case .suspend:
                    session.suspend()
                    refreshSize()
                    renderer.invalidate()
                    app.markDirty()
                case .resume:
                    try? session.enter()
                    refreshSize()
                    renderer.invalidate()
                    app.markDirty()
                case .resize:
                    let size = session.size()
                    app.resize(columns: size.columns, rows: size.rows, at: appTime)
                    renderer.invalidate()
                }
            }
            pendingSignals = []
            app.takeSaverNews()

            if scheduler.shouldDraw(at: time, wake: app.nextWakeTime(after: appTime).map(clock.wallTime)) {
                let effects = app.draw(at: appTime, into: &buffer)
                options.depth.convert(&buffer)
                renderer.present(buffer)
                if effects.contains(.bell) { session.write(ANSI.bell) }
                scheduler.didDraw(at: time)
            }
            flushRecording(&app)

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
