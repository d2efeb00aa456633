import CardFrontend
import Dispatch
import Testing

/// `release.releaseIfDue(at:)` as a value `#expect` can take (it cannot call a mutating method itself).
private func releaseIfDue(_ release: inout IdleHeapRelease, at time: Double) -> Bool {
    release.releaseIfDue(at: time)
}

/// When the front ends give the heap's free pages back (`IdleHeapRelease`), and how the saver asks for it
/// (`HeapReleaseRequest`). Times are injected; nothing waits on the wall clock.
@Suite struct HeapReleaseTests {
    @Test func aWantedReleaseRunsOnceTheFrontEndHasBeenIdleLongEnough() {
        var release = IdleHeapRelease(idleSeconds: 1, startedAt: 0)
        #expect(release.due == nil)
        #expect(!releaseIfDue(&release, at: 100))  // nothing wanted: never
        release.activity(at: 10)
        release.want()
        #expect(release.due == 11)
        #expect(!releaseIfDue(&release, at: 10.999))
        #expect(releaseIfDue(&release, at: 11))
        #expect(!releaseIfDue(&release, at: 12))  // done once
        #expect(release.due == nil)
    }

    /// The defect this replaced: the release ran a fixed second after the large message, in the middle of whatever
    /// the host sent next; activity must move it later.
    @Test func activityAfterTheRequestMovesTheReleaseLater() {
        var release = IdleHeapRelease(idleSeconds: 1, startedAt: 0)
        release.want()
        var time = 0.0
        for _ in 0..<500 {  // a host sending every 10 ms for five seconds
            time += 0.01
            #expect(!releaseIfDue(&release, at: time))
            release.activity(at: time)
        }
        #expect(release.isWanted)
        #expect(!releaseIfDue(&release, at: time + 0.99))
        #expect(releaseIfDue(&release, at: time + 1))
    }

    /// The saver's snapshot may finish long after the host went quiet: the release is then due at once.
    @Test func aRequestAfterALongQuietIsDueAtOnce() {
        var release = IdleHeapRelease(idleSeconds: 1, startedAt: 0)
        release.activity(at: 5)
        release.want()
        #expect(release.due == 6)
        #expect(releaseIfDue(&release, at: 9))
    }

    @Test func activityNeverMovesBackInTime() {
        var release = IdleHeapRelease(idleSeconds: 1, startedAt: 3)
        release.activity(at: 2)
        release.want()
        #expect(release.due == 4)
    }

    /// The saver asks from its own thread; the serving thread is woken and takes the request exactly once.
    @Test func aRequestFromAnotherThreadWakesTheServingThreadAndIsTakenOnce() {
        let request = HeapReleaseRequest()
        #expect(!request.take())
        let woken = DispatchSemaphore(value: 0)
        request.onRequest { woken.signal() }
        let saver = DispatchQueue(label: "saver")
        saver.async { request.request() }
        woken.wait()
        #expect(request.take())
        #expect(!request.take())
        // Requests that pile up before the serving thread looks count as one.
        request.request()
        request.request()
        #expect(request.take())
        #expect(!request.take())
    }
}
