// swift-tools-version: 6.1
// Cardistry: a headless card-deck interaction engine with a terminal UI and a JSON-RPC stdio front end.
//
// The dependency rule (see ../shared/ARCHITECTURE.md §1): arrows point down only.
//   cardistry (executable) → CardistryCLI → CardTUI, CardStdio → CardEngine → Models, Physics, Gestures, Persistence
// Only the Swift toolchain is used: no package from outside it, anywhere in the tree.
import PackageDescription

let models = Target.Dependency.product(name: "CardModels", package: "Models")
let geometry = Target.Dependency.product(name: "CardGeometry", package: "Physics")
let physics = Target.Dependency.product(name: "CardPhysics", package: "Physics")
let gestures = Target.Dependency.product(name: "CardGestures", package: "Gestures")
let persistence = Target.Dependency.product(name: "CardPersistence", package: "Persistence")
let engine = Target.Dependency.product(name: "CardEngine", package: "Engine")

let package = Package(
    name: "Cardistry",
    products: [
        .executable(name: "cardistry", targets: ["cardistry"]),
        .executable(name: "cardistry-bench", targets: ["cardistry-bench"]),
    ],
    dependencies: [
        .package(path: "Packages/Models"),
        .package(path: "Packages/Physics"),
        .package(path: "Packages/Gestures"),
        .package(path: "Packages/Persistence"),
        .package(path: "Packages/Engine"),
    ],
    targets: [
        .target(name: "CardTUI", dependencies: [engine], path: "Frontends/tui"),
        .target(name: "CardStdio", dependencies: [engine], path: "Frontends/json-stdio"),
        .target(
            name: "CardistryCLI",
            dependencies: ["CardTUI", "CardStdio", engine, models, geometry, physics, persistence],
            path: "Sources/CardistryCLI"
        ),
        .executableTarget(name: "cardistry", dependencies: ["CardistryCLI"], path: "Sources/cardistry"),
        .executableTarget(
            name: "cardistry-bench",
            dependencies: [models, geometry, physics, gestures, persistence, engine, "CardTUI", "CardStdio"],
            path: "Benchmarks/cardistry-bench"
        ),
        .testTarget(name: "CardModelsTests", dependencies: [models], path: "Tests/CardModelsTests"),
        .testTarget(
            name: "CardPhysicsTests", dependencies: [geometry, physics, models], path: "Tests/CardPhysicsTests"),
        .testTarget(
            name: "CardGesturesTests", dependencies: [geometry, gestures, models], path: "Tests/CardGesturesTests"),
        .testTarget(
            name: "CardEngineTests", dependencies: [engine, models, physics, gestures], path: "Tests/CardEngineTests"),
        .executableTarget(
            name: "cardistry-store-stress", dependencies: [models, persistence], path: "Tests/StoreStress"),
        .testTarget(
            name: "CardPersistenceTests", dependencies: [models, persistence, "cardistry-store-stress"],
            path: "Tests/CardPersistenceTests", resources: [.copy("Fixtures")]),
        .testTarget(name: "CardistryCLITests", dependencies: ["CardistryCLI"], path: "Tests/CardistryCLITests"),
        .testTarget(name: "EndToEndTests", dependencies: ["cardistry"], path: "Tests/EndToEndTests"),
        .testTarget(
            name: "CardTUITests", dependencies: ["CardTUI", engine], path: "Tests/CardTUITests", exclude: ["Golden"]),
        .testTarget(name: "CardStdioTests", dependencies: ["CardStdio", engine], path: "Tests/CardStdioTests"),
    ],
    swiftLanguageModes: [.v6]
)
