import CardFrontend
import CardistryCLI
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// The `cardistry` executable: everything lives in CardistryCLI so that tests can run commands in-process.

// The heap set up for a million cards (mallopt: big blocks kept for reuse, one arena), before any thread starts.
ProcessMemory.configureForLargeDecks()
exit(CLI.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment, io: .standard))
