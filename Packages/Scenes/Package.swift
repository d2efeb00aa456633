// swift-tools-version: 6.1
// CardScenes: the five seed apps as scenes of the engine, and the catalogue that lists them; CardSceneFormat: scenes
// described as data (docs/scenes.md).
import PackageDescription

/// What both modules build on: the engine and the modules its scenes use.
let sceneDependencies: [Target.Dependency] = [
    .product(name: "CardEngine", package: "Engine"),
    .product(name: "CardModels", package: "Models"),
    .product(name: "CardGeometry", package: "Physics"),
    .product(name: "CardPhysics", package: "Physics"),
    .product(name: "CardGestures", package: "Gestures"),
    .product(name: "CardPersistence", package: "Persistence"),
    .product(name: "CardJSON", package: "Persistence"),
]

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
            dependencies: sceneDependencies,
            path: "Sources/CardScenes"
        ),
        .target(
            name: "CardSceneFormat",
            dependencies: sceneDependencies,
            path: "Sources/CardSceneFormat"
        ),
    ],
    swiftLanguageModes: [.v6]
)
