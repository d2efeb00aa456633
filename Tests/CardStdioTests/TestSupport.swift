import CardEngine
import CardJSON
import CardPersistence
import CardScenes

@testable import CardStdio

/// A server over `catalog` (the real scene catalogue by default) and an in-memory store, saving states through
/// `saver`.
func makeServer(
    store: (any DeckStore)? = InMemoryStore(), saver: StateSaver? = nil, catalog: SceneCatalog = .standard
) -> Server {
    Server(
        configuration: Server.Configuration(
            provider: CatalogSceneProvider(catalog: catalog, store: store, saver: saver), store: store,
            serverVersion: "test", saver: saver))
}

/// Feeds lines to a server and encodes what it returns exactly as the writer thread would.
struct Harness {
    var server: Server
    var encoder = FrameEncoder()
    var now = 0.0
    /// The transport's saver: what the server hands it is written (flushed) before the next line.
    let saver: StateSaver?
    let store: (any DeckStore)?

    init(store: (any DeckStore)? = InMemoryStore(), catalog: SceneCatalog = .standard) {
        self.store = store
        saver = store.map { StateSaver(store: $0) }
        server = makeServer(store: store, saver: saver, catalog: catalog)
    }

    /// Waits until what the server handed the saver is written, as if the saver's thread were instant; conflicts
    /// the saver found are handled as the transport does.
    mutating func save() -> [Outbound] {
        saver?.flush()
        return server.keepConflicts()
    }

    /// Sends one line and returns the lines written, parsed.
    mutating func send(_ line: String) -> [JSONValue] {
        send(bytes: Array(line.utf8))
    }

    mutating func send(bytes: [UInt8]) -> [JSONValue] {
        var lines = encode(server.receive(line: bytes, now: now))
        lines += encode(save())
        return lines
    }

    mutating func encode(_ items: [Outbound]) -> [JSONValue] {
        items.map { item in
            let bytes = encoder.encode(item)
            return (try? JSONValue(parsing: bytes)) ?? .string("UNPARSEABLE: " + String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Sends a request with `id` and returns (notifications before it, the response).
    mutating func request(_ id: Int, _ method: String, _ params: String = "{}") -> (
        notes: [JSONValue], response: JSONValue?
    ) {
        let lines = send("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"\(method)\",\"params\":\(params)}")
        return (Array(lines.dropLast()), lines.last)
    }

    /// `initialize` with an iPhone-sized viewport.
    mutating func initialize(clock: String = "host", frames: String = "full") {
        _ = request(
            0, "initialize",
            "{\"protocolVersion\":\"1.0\",\"viewport\":{\"width\":390,\"height\":844},\"clock\":\"\(clock)\",\"frames\":\"\(frames)\"}"
        )
    }
}

extension JSONValue {
    /// Follows a path of object keys.
    subscript(path keys: String...) -> JSONValue? {
        var value: JSONValue? = self
        for key in keys { value = value?[key] }
        return value
    }

    /// The error code of an error response.
    var errorCode: Int? { self[path: "error", "code"]?.integerValue }
}
