// swift-tools-version: 6.1
// CardPersistence: the crash-safe, versioned JSON-file deck store. Imports only CardModels.
import PackageDescription

let package = Package(
    name: "Persistence",
    products: [
        .library(name: "CardPersistence", targets: ["CardPersistence"])
    ],
    dependencies: [
        .package(path: "../Models")
    ],
    targets: [
        .target(
            name: "CardPersistence",
            dependencies: [.product(name: "CardModels", package: "Models")],
            path: "Sources/CardPersistence"
        )
    ],
    swiftLanguageModes: [.v6]
)
