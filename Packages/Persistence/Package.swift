// swift-tools-version: 6.1
// CardPersistence: the crash-safe, versioned JSON-file deck store, and CardJSON, the strict RFC 8259 JSON every
// module reads and writes with (a scanner, a lossless value tree and two writers). CardJSON imports nothing of
// ours; CardPersistence imports CardModels and CardJSON. They share a package so that the scanner and writers
// stay `package` API (not public) while the store uses them.
import PackageDescription

let package = Package(
    name: "Persistence",
    products: [
        .library(name: "CardPersistence", targets: ["CardPersistence"]),
        .library(name: "CardJSON", targets: ["CardJSON"]),
    ],
    dependencies: [
        .package(path: "../Models")
    ],
    targets: [
        .target(name: "CardJSON", path: "Sources/CardJSON"),
        .target(
            name: "CardPersistence",
            dependencies: [.product(name: "CardModels", package: "Models"), "CardJSON"],
            path: "Sources/CardPersistence"
        ),
    ],
    swiftLanguageModes: [.v6]
)
