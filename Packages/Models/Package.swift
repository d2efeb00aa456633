// swift-tools-version: 6.1
// CardModels: cards, decks, the seed data sets and the minimal-move reorder diff. Imports nothing of ours but a
// header-only C shim for the one instruction Swift cannot express (a cache prefetch, used by the diff's hash table).
import PackageDescription

let package = Package(
    name: "Models",
    products: [
        .library(name: "CardModels", targets: ["CardModels"])
    ],
    targets: [
        .target(name: "CardModelsShims", path: "Sources/CardModelsShims"),
        .target(name: "CardModels", dependencies: ["CardModelsShims"], path: "Sources/CardModels"),
    ],
    swiftLanguageModes: [.v6]
)
