// swift-tools-version: 6.1
// CardScenes: the five seed apps as scenes of the engine, and the catalogue that lists them.
import PackageDescription

let package = Package(
    name: "Scenes",
    products: [
        .library(name: "CardScenes", targets: ["CardScenes"]),
        .library(name: "CardSceneFormat", targets: ["CardSceneFormat"]),
    ],
    dependencies: [
        .package(path: "../Engine"),
        .package(path: "../Models"),
        .package(path: "../Physics"),
        .package(path: "../Gestures"),
        .package(path: "../Persistence"),
    ],
    targets: [
        .target(
            name: "CardScenes",
            dependencies: [
                .product(name: "CardEngine", package: "Engine"),
                .product(name: "CardModels", package: "Models"),
                .product(name: "CardGeometry", package: "Physics"),
                .product(name: "CardPhysics", package: "Physics"),
                .product(name: "CardGestures", package: "Gestures"),
                .product(name: "CardPersistence", package: "Persistence"),
                .product(name: "CardJSON", package: "Persistence"),
            ],
            path: "Sources/CardScenes"
        ),
        .target(
            name: "CardSceneFormat",
            dependencies: [
                .product(name: "CardEngine", package: "Engine"),
                .product(name: "CardModels", package: "Models"),
                .product(name: "CardGeometry", package: "Physics"),
                .product(name: "CardPhysics", package: "Physics"),
                .product(name: "CardGestures", package: "Gestures"),
                .product(name: "CardPersistence", package: "Persistence"),
                .product(name: "CardJSON", package: "Persistence"),
            ],
            path: "Sources/CardSceneFormat"
        ),
    ],
    swiftLanguageModes: [.v6]
)
