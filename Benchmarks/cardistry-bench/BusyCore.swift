import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A thread of this process spinning on the first CPU, as long as it runs: the load the gate must tolerate (the
/// power check's unchanged runs have another process busy on one core), put under the repeats that make a
/// baseline, so that each cell's recorded drift spans it (`--repeat`: every second repeat runs under it).
///
/// The spinner pins itself to CPU 0 (`pthread_setaffinity_np`); the measuring child, a separate process, is left
/// to the scheduler, as it is in a gate run.
final class BusyCore: Sendable {
    private let running = Atomic<Bool>(true)
    private let finished = Atomic<Bool>(false)

    /// Whether the machine has a core to spare: on one CPU the spinner would take half of the measuring process's
    /// time, not load beside it.
    static var isUseful: Bool { ProcessInfo.processInfo.activeProcessorCount >= 2 }

    /// Starts spinning at once.
    init() {
        let thread = Thread { [self] in
            Self.pinToFirstCPU()
            var spins: UInt64 = 0
            while running.load(ordering: .relaxed) { spins &+= 1 }
            finished.store(true, ordering: .releasing)
        }
        thread.start()
    }

    /// Stops the spinner and waits (briefly) for it to see the request.
    func stop() {
        running.store(false, ordering: .relaxed)
        while !finished.load(ordering: .acquiring) { sched_yield() }
    }

    /// `pthread_setaffinity_np(pthread_self(), sizeof(cpu_set_t), {CPU 0})`, looked up at run time: Glibc's
    /// module map hides the GNU extensions (`_GNU_SOURCE`). Without it the spinner is left unpinned, one busy
    /// thread the scheduler places, which loads a core all the same.
    private static func pinToFirstCPU() {
        #if canImport(Glibc)
            typealias SetAffinity = @convention(c) (pthread_t, Int, UnsafeRawPointer) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_setaffinity_np") else { return }
            let setAffinity = unsafeBitCast(symbol, to: SetAffinity.self)
            var set = cpu_set_t()
            withUnsafeMutableBytes(of: &set) { bytes in
                for index in bytes.indices { bytes[index] = 0 }
                bytes[0] = 1  // CPU 0, as CPU_SET(0, &set) sets it
            }
            _ = withUnsafeBytes(of: &set) { bytes in
                setAffinity(pthread_self(), MemoryLayout<cpu_set_t>.size, bytes.baseAddress!)
            }
        #endif
    }
}
