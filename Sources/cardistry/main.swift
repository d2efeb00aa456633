import CardFrontend
import CardistryCLI
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// The `cardistry` executable: everything lives in CardistryCLI so that tests can run commands in-process.

#if canImport(Glibc)
    // A million-card deck works in arrays of 4–16 MB (an order, its ranks, a sort's sources and diff, the base64 of
    // a change). glibc serves blocks that large with mmap and unmaps them when they are freed, so every sort
    // faulted its pages in afresh: a third of a million-card `deck.sort` through the server. Served from the heap
    // and kept when freed, they are reused, and RSS stays at its high-water mark instead of rising and falling with
    // every change. One arena (M_ARENA_MAX 1) lets the serving thread reuse what the state saver's thread freed
    // after encoding a snapshot, instead of each thread keeping its own high-water mark (a million-card server's
    // RSS: 264 MB with an arena per thread, 240 MB with one, at the same speed). mallopt(3) is not in Swift's Glibc
    // module (malloc.h), so it is looked up by name; M_TRIM_THRESHOLD is -1, M_MMAP_THRESHOLD -3 and M_ARENA_MAX -8
    // in glibc's malloc.h.
    if let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "mallopt") {
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        _ = mallopt(-3, 64 << 20)
        _ = mallopt(-1, 256 << 20)
        _ = mallopt(-8, 1)
    }
#endif
exit(CLI.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment, io: .standard))
