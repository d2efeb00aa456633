// swift-tools-version: 6.1
// CardModels: cards, decks, the seed data sets and the minimal-move reorder diff. Imports nothing of ours.
import PackageDescription

let package = Package(
    name: "Models",
    products: [
        .library(name: "CardModels", targets: ["CardModels"])
    ],
    targets: [
        .target(name: "CardModels", path: "Sources/CardModels")
    ],
    swiftLanguageModes: [.v6]
)
