@_exported import CardModels

// CardPersistence: the crash-safe, versioned JSON-file deck store behind the `DeckStore` protocol.
