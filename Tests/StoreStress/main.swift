import CardModels
import CardPersistence

#if canImport(Glibc)
    import Glibc
#endif

// cardistry-store-stress: the child process of CardPersistenceTests' process-level tests.
//
//   cardistry-store-stress alternate ROOT NAME   save decks A and B in turn forever (killed by the test)
//   cardistry-store-stress hammer ROOT NAME N TAG  N times: load, change, save with the loaded revision
//   cardistry-store-stress stale ROOT NAME       load, wait for a line on stdin, save with the old revision
//
// Output is line-based on stdout; exit status 0 on success, 3 on a reported conflict, 1 on any other error.

/// The two versions the crash test alternates between (the test builds the same decks).
func version(_ index: Int) -> Deck { DeckGenerator.deck(count: 150, seed: index == 0 ? 1 : 2) }

func say(_ text: String) {
    var bytes = Array((text + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress! + offset, $0.count - offset) }
        if written <= 0 {
            if written < 0 && errno == EINTR { continue }
            return
        }
        offset += written
    }
}

func fail(_ message: String) -> Never {
    say("error: \(message)")
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3 else { fail("usage: alternate|hammer|stale ROOT NAME ...") }
let (mode, root, name) = (arguments[0], arguments[1], arguments[2])
let store: JSONFileStore
do {
    store = try JSONFileStore(root: root)
} catch {
    fail("\(error)")
}

switch mode {
case "alternate":
    // "ready" comes after the first completed save, so every kill lands after at least one new revision.
    let decks = [version(0), version(1)]
    var index = 1
    var first = true
    while true {
        do {
            try store.saveDeck(decks[index], named: name, expectedRevision: nil)
        } catch {
            fail("\(error)")
        }
        if first {
            say("ready")
            first = false
        }
        index = 1 - index
    }
case "hammer":
    guard arguments.count == 5, let count = Int(arguments[3]) else { fail("hammer ROOT NAME N TAG") }
    let tag = arguments[4]
    for iteration in 0..<count {
        do {
            let stored = try store.loadDeck(named: name)
            var deck = stored.deck
            if var first = deck.first {
                first.title = "\(tag) \(iteration)"
                try deck.update(first)
            }
            let revision = try store.saveDeck(deck, named: name, expectedRevision: stored.revision)
            say("ok \(revision)")
        } catch StoreError.conflict {
            say("conflict")
        } catch {
            fail("\(error)")
        }
    }
case "stale":
    do {
        let stored = try store.loadDeck(named: name)
        say("loaded \(stored.revision)")
        var byte: UInt8 = 0
        _ = read(0, &byte, 1)
        try store.saveDeck(DeckGenerator.deck(count: 3, seed: 9), named: name, expectedRevision: stored.revision)
        say("saved")
    } catch StoreError.conflict(_, _, let expected, let actual) {
        say("conflict \(expected) \(actual)")
        exit(3)
    } catch {
        fail("\(error)")
    }
default:
    fail("unknown mode \(mode)")
}
