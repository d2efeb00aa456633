// swift-tools-version: 6.1
// CardScenes: the five seed apps as scenes of the engine, and the catalogue that lists them.
import PackageDescription

let package = Package(
    name: "Scenes",
    products: [
        .library(name: "CardScenes", targets: ["CardScenes"])
    ],
    dependencies: [
        .package(path: "../Engine")
    ],
    targets: [
        .target(
            name: "CardScenes",
            dependencies: [.product(name: "CardEngine", package: "Engine")],
            path: "Sources/CardScenes"
        )
    ],
    swiftLanguageModes: [.v6]
)
