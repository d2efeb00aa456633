import CardEngine
import CardScenes
import Testing

@testable import CardCells
@testable import CardTUI

@Suite struct FrameSchedulerTests {
    @Test func idleNeverDrawsAndSleepsUntilInput() {
        let scheduler = FrameScheduler(framesPerSecond: 60)
        #expect(!scheduler.shouldDraw(at: 5, wake: nil))
        #expect(scheduler.timeout(at: 5, wake: nil, inputDeadline: nil) == nil)
        #expect(abs((scheduler.timeout(at: 5, wake: nil, inputDeadline: 5.05) ?? 0) - 0.05) < 1e-9)
    }

    @Test func framesArePacedToTheRate() {
        var scheduler = FrameScheduler(framesPerSecond: 50)
        #expect(scheduler.shouldDraw(at: 1, wake: 1))
        scheduler.didDraw(at: 1)
        #expect(!scheduler.shouldDraw(at: 1.01, wake: 1.01))
        #expect(abs((scheduler.timeout(at: 1.01, wake: 1.01, inputDeadline: nil) ?? 0) - 0.01) < 1e-12)
        #expect(scheduler.shouldDraw(at: 1.02, wake: 1.02))
    }

    @Test func aFutureTimerIsWaitedFor() {
        var scheduler = FrameScheduler(framesPerSecond: 60)
        scheduler.didDraw(at: 0)
        // A long press due at 0.5: sleep until then, not a frame interval.
        #expect(scheduler.timeout(at: 0.1, wake: 0.5, inputDeadline: nil) == 0.4)
        #expect(!scheduler.shouldDraw(at: 0.1, wake: 0.5))
    }

    /// The whole loop on a simulated clock: the app, the scheduler and the diffing renderer. An animation draws
    /// about fps × its duration frames, each under the full-repaint size; then the screen goes idle and ten
    /// simulated seconds write nothing and draw nothing.
    @Test(arguments: [30, 60, 120])
    func simulatedLoopDrawsOnlyWhileAnimating(fps: Int) {
        var app = TUIApp(columns: 80, rows: 24, configuration: TUIApp.Configuration(catalog: .standard))
        var scheduler = FrameScheduler(framesPerSecond: fps)
        var written: [[UInt8]] = []
        var renderer = ANSIRenderer(writer: ANSIWriter(), sink: { written.append($0) })
        var buffer = CellBuffer(width: 80, height: 24)
        var inputs: [(Double, TerminalInput)] = [(0, .key(KeyInput("1"))), (1, .key(KeyInput("right")))]
        var time = 0.0
        var frames: [Double] = []
        var iterations = 0
        while time < 12, iterations < 10_000 {
            iterations += 1
            while let (at, input) = inputs.first, at <= time {
                inputs.removeFirst()
                _ = app.handle(input, at: time)
            }
            if scheduler.shouldDraw(at: time, wake: app.nextWakeTime(after: time)) {
                _ = app.draw(at: time, into: &buffer)
                renderer.present(buffer)
                scheduler.didDraw(at: time)
                frames.append(time)
            }
            let timeout = scheduler.timeout(at: time, wake: app.nextWakeTime(after: time), inputDeadline: nil)
            // Sleep until the timeout, or the next input, or (idle, nothing pending) the end of the run.
            let next = min(timeout.map { time + $0 } ?? .infinity, inputs.first?.0 ?? .infinity, 12)
            time = max(next, time + 1e-6)
        }
        let resort = frames.filter { $0 >= 1 }
        let duration = (resort.last ?? 1) - 1
        #expect(duration > 0.3 && duration < 3)
        #expect(Double(resort.count) <= duration * Double(fps) + 2)
        #expect(Double(resort.count) >= duration * Double(fps) * 0.8)
        // Idle after the animation: no frames and no bytes for the rest of the run.
        #expect(frames.last.map { $0 < 4 } == true)
        let full = ANSIWriter.fullRepaint(buffer, depth: .trueColor).count
        #expect(written.dropFirst().allSatisfy { $0.count < full })
    }
}
