#if canImport(Glibc)
    import CardModelsShims
    import Glibc
    import Synchronization

    /// The second thread of `TwoThreads`: one thread of its own that takes the second part of each run, and stays
    /// awake for a moment after it, so that the next pass of the same request finds it running.
    ///
    /// Why not Dispatch's pool: `concurrentPerform(iterations: 2)` hands the second part to a parked worker, and
    /// on this project's machines (two virtual processors) that worker often started 2–3 ms late or not before the
    /// calling thread had finished the first part and taken the second itself — a million-card sort's passes then
    /// ran on one thread as often as not (a patience sort of a million sources: 8.3 ms with both threads, 13–17 ms
    /// with 20 ms of quiet before each, the time of one thread).
    ///
    /// The protocol, per run (`run(_:)`), with `generation` numbering the runs:
    /// 1. the caller publishes the job and `pending = generation` (release), and wakes the worker if it sleeps;
    /// 2. the caller runs part 0, then claims part 1 (`pending` from its generation to 0); whoever claims it runs
    ///    it: the worker, if it got there first, or else the caller itself, so a worker that is late (a busy
    ///    machine, a descheduled processor) costs nothing but the time the caller would have taken alone;
    /// 3. the worker, having run part 1, sets `finished = generation` (release) and signals a waiting caller; the
    ///    caller returns only once part 1 is done, so the parts may use everything the caller keeps alive.
    ///
    /// The worker spins for `spin` seconds after each part (a pause hint in the loop, and `sched_yield` to let
    /// other threads of that processor run) before it sleeps on a condition variable. Only one run at a time uses
    /// the worker (`owner`); a run that finds it taken — another thread's, or one nested in a part — runs both of
    /// its parts on its own thread.
    final class TwoThreadsWorker: @unchecked Sendable {
        /// The one worker, started on first use.
        static let shared = TwoThreadsWorker()

        /// How long the worker keeps looking for the next part before it sleeps: the gaps between a large request's
        /// passes are well under this, the gaps between requests well over it.
        static let spin: Double = 0.000_5
        /// How long a caller that finished its part first waits spinning for the worker's before it sleeps.
        static let callerSpin: Double = 0.000_2

        /// Whether a run holds the worker.
        private let owner = Atomic<Bool>(false)
        /// The generation of the run whose part 1 is still unclaimed, or 0.
        private let pending = Atomic<UInt64>(0)
        /// The generation of the last run whose part 1 the worker finished.
        private let finished = Atomic<UInt64>(0)
        /// The run's number (only the owner writes it).
        private var generation: UInt64 = 0
        /// The running job (written by the owner before `pending` is published, read by the worker only after it
        /// claimed that generation).
        private var job: ((Int) -> Void)?

        /// Guards the two flags below and the condition variables' waits.
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
        private let workAvailable: UnsafeMutablePointer<pthread_cond_t>
        private let partDone: UnsafeMutablePointer<pthread_cond_t>
        private var workerSleeping = false
        private var callerWaiting = false
        /// Whether the thread started (when it could not be, every run is serial).
        private var started = false

        /// Starts a worker thread (`shared` is the one the sorts use; tests make their own).
        init() {
            mutex = .allocate(capacity: 1)
            workAvailable = .allocate(capacity: 1)
            partDone = .allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(workAvailable, nil)
            pthread_cond_init(partDone, nil)
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
            defer { pthread_attr_destroy(&attributes) }
            var thread = pthread_t()
            let context = Unmanaged.passRetained(self).toOpaque()
            started =
                pthread_create(
                    &thread, &attributes,
                    { context in
                        let worker = Unmanaged<TwoThreadsWorker>.fromOpaque(context!).takeUnretainedValue()
                        worker.loop()
                        return nil
                    }, context) == 0
            if !started { Unmanaged<TwoThreadsWorker>.fromOpaque(context).release() }
        }

        /// Runs `part(0)` on this thread and `part(1)` on the worker (or on this thread, when the worker is late,
        /// taken or absent); returns when both have returned.
        func run(_ part: @escaping (Int) -> Void) {
            guard started, owner.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
            else {
                part(0)
                part(1)
                return
            }
            defer {
                job = nil
                owner.store(false, ordering: .releasing)
            }
            generation &+= 1
            let current = generation
            job = part
            pending.store(current, ordering: .releasing)
            pthread_mutex_lock(mutex)
            if workerSleeping { pthread_cond_signal(workAvailable) }
            pthread_mutex_unlock(mutex)
            part(0)
            if pending.compareExchange(expected: current, desired: 0, ordering: .acquiringAndReleasing).exchanged {
                part(1)  // the worker did not get to it
                return
            }
            // The worker has part 1: wait for it, spinning first (it usually ends about when part 0 did).
            let deadline = Self.now() + Self.callerSpin
            var spins = 0
            while finished.load(ordering: .acquiring) != current {
                cardistry_spin_pause()
                spins &+= 1
                if spins & 63 == 0, Self.now() > deadline {
                    pthread_mutex_lock(mutex)
                    callerWaiting = true
                    while finished.load(ordering: .acquiring) != current { pthread_cond_wait(partDone, mutex) }
                    callerWaiting = false
                    pthread_mutex_unlock(mutex)
                    break
                }
            }
        }

        /// The worker's life: wait for a run's part 1, claim it, run it, report it.
        private func loop() {
            cardistry_name_this_thread("cardistry-2nd")
            while true {
                var waiting = pending.load(ordering: .acquiring)
                if waiting == 0 {
                    let deadline = Self.now() + Self.spin
                    var spins = 0
                    while waiting == 0 {
                        cardistry_spin_pause()
                        spins &+= 1
                        if spins & 255 == 0 {
                            if Self.now() > deadline { break }
                            sched_yield()
                        }
                        waiting = pending.load(ordering: .acquiring)
                    }
                }
                if waiting == 0 {
                    pthread_mutex_lock(mutex)
                    workerSleeping = true
                    while true {
                        waiting = pending.load(ordering: .acquiring)
                        if waiting != 0 { break }
                        pthread_cond_wait(workAvailable, mutex)
                    }
                    workerSleeping = false
                    pthread_mutex_unlock(mutex)
                }
                guard pending.compareExchange(expected: waiting, desired: 0, ordering: .acquiringAndReleasing).exchanged
                else { continue }  // the caller took it
                runSecondPart()
                finished.store(waiting, ordering: .releasing)
                pthread_mutex_lock(mutex)
                if callerWaiting { pthread_cond_signal(partDone) }
                pthread_mutex_unlock(mutex)
            }
        }

        /// Runs the claimed job's part 1. A function of its own so that the worker's reference to the job is gone
        /// when it returns: the caller's `withoutActuallyEscaping` checks that nothing kept the closure.
        @inline(never)
        private func runSecondPart() {
            job?(1)
        }

        /// Monotonic seconds.
        private static func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
    }
#endif
