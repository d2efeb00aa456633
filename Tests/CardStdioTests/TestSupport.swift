import CardEngine
import CardScenes

@testable import CardStdio

/// A server over the real scene catalogue and an in-memory store.
func makeServer(store: (any DeckStore)? = InMemoryStore()) -> Server {
    Server(
        configuration: Server.Configuration(
            provider: CatalogSceneProvider(catalog: .standard, store: store), store: store, serverVersion: "test"))
}

/// Feeds lines to a server and encodes what it returns exactly as the writer thread would.
struct Harness {
    var server: Server
    var encoder = FrameEncoder()
    var now = 0.0
    /// The transport's saver, run synchronously: what the server asks to save is written before the next line.
    var saver = StateSaverMachine()
    let store: (any DeckStore)?

    init(store: (any DeckStore)? = InMemoryStore()) {
        self.store = store
        server = makeServer(store: store)
    }

    /// Writes what the server asked to save, as the transport's `StateSaver` does on its thread.
    mutating func save() {
        defer { server.stateSaves.removeAll() }
        guard let store else { return }
        for save in server.stateSaves {
            switch save {
            case .resume(let name, let sequence): saver.resume(name, after: sequence)
            case .write(let name, let write):
                var actions = saver.submit(write, to: name)
                while case .start(let job)? = actions.first {
                    let failure = StateSaver.write(job, to: store)
                    actions = saver.finished(failed: failure == nil ? nil : job)
                }
            }
        }
    }

    /// Sends one line and returns the lines written, parsed.
    mutating func send(_ line: String) -> [JSONValue] {
        send(bytes: Array(line.utf8))
    }

    mutating func send(bytes: [UInt8]) -> [JSONValue] {
        let lines = encode(server.receive(line: bytes, now: now))
        save()
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
