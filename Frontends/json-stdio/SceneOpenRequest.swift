import CardEngine

/// The parameters of `scene.open`, checked whole before anything the server holds changes: every field's type and
/// range, then the scene (−32010 when unknown), then whether the scene takes what was given.
struct SceneOpenRequest {
    /// The scene's name.
    var scene: String
    /// A deck in the store to open it on.
    var deckName: String?
    /// A deck file to open it on (never with `deckName`).
    var deckFile: String?
    /// `options.cardCount`: a generated deck of this many cards.
    var cardCount: Int?
    /// `options.persistState`: keep the scene's state in the store.
    var persistState = false

    /// Reads and checks `p` against the scenes `names` (those the provider opens) and what `descriptors` say of
    /// them.
    init(_ p: Params, names: [String], descriptors: [SceneDescriptor]) throws(RPCError) {
        try p.only(["scene", "deck", "deckFile", "options"])
        scene = try p.requiredString("scene")
        deckName = try p.string("deck")
        deckFile = try p.string("deckFile")
        if deckName != nil && deckFile != nil {
            throw .invalidParams("deckFile", "cannot be given together with 'deck'")
        }
        if let options = try p.object("options") {
            try options.only(["cardCount", "persistState"])
            persistState = try options.bool("persistState") ?? false
            cardCount = try options.int("cardCount")
            if let count = cardCount, count < 0 || count > 1_000_000 {
                throw .invalidParams("options.cardCount", "must be in 0…1000000")
            }
        }
        guard names.contains(scene) else {
            throw RPCError(
                code: RPCError.unknownSceneCode,
                message: "unknown scene '\(scene)'; scenes: " + names.joined(separator: ", "))
        }
        if let descriptor = descriptors.first(where: { $0.name == scene }) {
            try check(descriptor, deckGiven: p.has("deck"), among: descriptors)
        }
    }

    /// Refuses a deck or a card count the scene does not take, naming the scenes that do.
    private func check(_ descriptor: SceneDescriptor, deckGiven: Bool, among descriptors: [SceneDescriptor])
        throws(RPCError)
    {
        let takers = { (taking: (SceneDescriptor) -> Bool) in
            descriptors.filter(taking).map(\.name).joined(separator: ", ")
        }
        if cardCount != nil && !descriptor.takesCardCount {
            throw .invalidParams(
                "options.cardCount",
                "is not taken by the scene '\(scene)' (scenes that take one: \(takers(\.takesCardCount)))")
        }
        for (field, given) in [("deck", deckGiven), ("deckFile", deckFile != nil)] where given && !descriptor.takesDeck
        {
            throw .invalidParams(
                field, "is not taken by the scene '\(scene)' (scenes that take one: \(takers(\.takesDeck)))")
        }
    }
}
