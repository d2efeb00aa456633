// swift-tools-version: 6.1
// CardEngine: the engine core (the Scene protocol, layout diffing, the animation timeline, gestures routing, and
// the Frame every front end renders). It knows no concrete scene: those live in Packages/Scenes.
import PackageDescription

let package = Package(
    name: "Engine",
    products: [
        .library(name: "CardEngine", targets: ["CardEngine"])
    ],
    dependencies: [
        .package(path: "../Models"),
        .package(path: "../Physics"),
        .package(path: "../Gestures"),
        .package(path: "../Persistence"),
    ],
    targets: [
        .target(
            name: "CardEngine",
            dependencies: [
                .product(name: "CardModels", package: "Models"),
                .product(name: "CardGeometry", package: "Physics"),
                .product(name: "CardPhysics", package: "Physics"),
                .product(name: "CardGestures", package: "Gestures"),
                .product(name: "CardPersistence", package: "Persistence"),
                .product(name: "CardJSON", package: "Persistence"),
            ],
            path: "Sources/CardEngine"
        )
    ],
    swiftLanguageModes: [.v6]
)
