// CardPersistence: the crash-safe, versioned JSON-file deck store behind the `DeckStore` protocol.
//
// - `DeckStore` (`DeckStore.swift`): decks and scene states by name, with an optimistic revision check.
// - `JSONFileStore`: one JSON document per deck or state, written atomically through the `FileSystem` seam.
// - `InMemoryStore`: the same contract in memory, for tests and hosts without a disk.
// - `DeckFastEncoder` / `DeckFastDecoder`: a streaming, strict JSON path for large decks; Foundation's Codable
//   (`DeckDocument`) reads and writes the same documents.
// - `DocumentMigrations`: the chain of pure vN → vN+1 steps from older schema versions.
