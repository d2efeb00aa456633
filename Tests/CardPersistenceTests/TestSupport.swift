import CardModels
import CardPersistence
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh directory under the system temporary directory, removed by `remove()`.
struct TemporaryDirectory: ~Copyable {
    let path: String

    init() {
        var template = Array((NSTemporaryDirectory() + "/cardistry-test-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(created != nil, "mkdtemp failed")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A path inside the directory.
    func at(_ component: String) -> String { path + "/" + component }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// The deck every fixture holds, after migration to the current schema.
func fixtureDeck() throws -> Deck {
    try Deck([
        Card(
            id: 7, title: "Alice", color: .red, sortOrder: 0,
            payload: .student(try StudentScores([90, 85, 77, 92, 68, 88, 95, 70, 81, 79]))),
        Card(
            id: 12, title: "Visa", color: .blue, sortOrder: 1,
            payload: .payment(
                PaymentCard(number: "4354 8374 3473 4373", holder: "Jane Doe", expiry: "09/27", brand: .visa))),
        Card(id: 3, title: "Doctor", color: .green, sortOrder: 2, payload: .flashcard(.example)),
        Card(
            id: 99, title: "Line", color: .purple, sortOrder: 3,
            payload: .itemLine(ItemLine(items: [.init(id: "a", color: .orange, icon: "star", text: "Star")]))),
        Card(id: CardID(UInt64.max), title: "Max é 😀 ünïcode", color: .black, sortOrder: 4),
    ])
}

/// The bytes of a committed fixture file.
func fixture(_ name: String) throws -> [UInt8] {
    guard let url = Bundle.module.resourceURL?.appendingPathComponent("Fixtures/\(name)") else {
        throw FixtureMissing(name: name)
    }
    return Array(try Data(contentsOf: url))
}

struct FixtureMissing: Error {
    var name: String
}

/// A seeded deck with every payload kind and awkward strings (quotes, backslashes, control characters, non-ASCII,
/// astral-plane characters), for round trips.
func awkwardDeck(count: Int, seed: UInt64) -> Deck {
    var random = SplitMix64(seed: seed)
    var cards: [Card] = []
    for index in 0..<count {
        let title = randomString(&random)
        let color = RGBColor(
            red: UInt8(truncatingIfNeeded: random.next()), green: UInt8(truncatingIfNeeded: random.next()),
            blue: UInt8(truncatingIfNeeded: random.next()))
        let payload: CardPayload
        switch random.next() % 5 {
        case 0: payload = .plain
        case 1:
            let scores = (0..<10).map { _ in Int(truncatingIfNeeded: random.next() % 200) - 50 }
            payload = (try? StudentScores(scores)).map { .student($0) } ?? .plain
        case 2:
            let brand = PaymentCard.Brand.allCases[Int(random.next() % UInt64(PaymentCard.Brand.allCases.count))]
            payload = .payment(
                PaymentCard(
                    number: randomString(&random), holder: randomString(&random), expiry: "01/30", brand: brand))
        case 3: payload = .flashcard(Flashcard(prompt: randomString(&random), answer: randomString(&random)))
        default:
            let items = (0..<Int(random.next() % 3)).map { item in
                ItemLine.Item(
                    id: "i\(item)", color: color, icon: randomString(&random), text: randomString(&random))
            }
            payload = .itemLine(ItemLine(items: items))
        }
        let sortOrder = random.next() % 4 == 0 ? Int(bitPattern: UInt(random.next())) : index
        cards.append(
            Card(
                id: CardID(UInt64(index) &* 0x9E37_79B9_7F4A_7C15), title: title, color: color, sortOrder: sortOrder,
                payload: payload))
    }
    return (try? Deck(cards)) ?? Deck()
}

/// A random string mixing ASCII, escapes and multi-byte characters.
func randomString(_ random: inout SplitMix64) -> String {
    let pieces: [String] = [
        "a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "€", "😀", "\u{2028}",
        "\u{FEFF}", "\u{10FFFF}", "card", "0",
    ]
    let length = Int(random.next() % 12)
    return (0..<length).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
}

/// A file system that fails one chosen operation, to test that every step's error reaches the caller and leaves
/// the previous file intact. Also simulates short writes and EINTR.
final class FaultyFileSystem: FileSystem, @unchecked Sendable {
    enum Step: String, CaseIterable, Sendable {
        case openTemporary, write, fsync, link, rename, syncDirectory
    }

    private let base = PosixFileSystem()
    /// How many `read` calls were made (to see when a save re-reads the current file).
    let reads = Mutex(0)
    private let state = Mutex<(failing: Step?, code: Int32, shortWrites: Bool, interrupts: Int)>(
        (nil, 0, false, 0))

    init(failing step: Step? = nil, code: Int32 = EIO, shortWrites: Bool = false, interrupts: Int = 0) {
        state.withLock { $0 = (step, code, shortWrites, interrupts) }
    }

    private func fault(_ step: Step) throws(Errno) {
        let (failing, code, _, _) = state.withLock { $0 }
        if failing == step { throw Errno(code) }
    }

    func open(_ path: String, flags: Int32, mode: UInt32) throws(Errno) -> Int32 {
        if flags & O_EXCL != 0 { try fault(.openTemporary) }
        return try base.open(path, flags: flags, mode: mode)
    }

    func close(_ descriptor: Int32) { base.close(descriptor) }

    func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        reads.withLock { $0 += 1 }
        return try base.read(descriptor, into: buffer)
    }

    func write(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try fault(.write)
        let interrupt = state.withLock { state -> Bool in
            guard state.interrupts > 0 else { return false }
            state.interrupts -= 1
            return true
        }
        if interrupt { throw Errno(EINTR) }
        let short = state.withLock { $0.shortWrites }
        let count = short ? min(buffer.count, 7) : buffer.count
        return try base.write(descriptor, from: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }

    func fsync(_ descriptor: Int32) throws(Errno) {
        try fault(.fsync)
        try base.fsync(descriptor)
    }

    func fchmod(_ descriptor: Int32, mode: UInt32) throws(Errno) { try base.fchmod(descriptor, mode: mode) }

    func lockExclusive(_ descriptor: Int32, wait: Bool) throws(Errno) -> Bool {
        try base.lockExclusive(descriptor, wait: wait)
    }

    func status(_ path: String) throws(Errno) -> FileStatus? { try base.status(path) }

    func link(_ existing: String, _ new: String) throws(Errno) {
        try fault(.link)
        try base.link(existing, new)
    }

    func rename(_ old: String, _ new: String) throws(Errno) {
        if old.contains(".tmp-") { try fault(.rename) }
        try base.rename(old, new)
    }

    func unlink(_ path: String) throws(Errno) { try base.unlink(path) }

    func makeDirectory(_ path: String, mode: UInt32) throws(Errno) { try base.makeDirectory(path, mode: mode) }

    func contentsOfDirectory(_ path: String) throws(Errno) -> [String] { try base.contentsOfDirectory(path) }

    func syncDirectory(_ path: String) throws(Errno) {
        try fault(.syncDirectory)
        try base.syncDirectory(path)
    }
}

/// The permission bits of a path.
func permissions(_ path: String) -> UInt32? {
    (try? PosixFileSystem().status(path))?.permissions
}

/// The names in a directory.
func entries(_ path: String) -> [String] {
    (try? PosixFileSystem().contentsOfDirectory(path))?.sorted() ?? []
}

/// Writes raw bytes to a file (for planting corrupt documents).
func plant(_ bytes: [UInt8], at path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}
