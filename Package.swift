// swift-tools-version: 6.1
// Cardistry: a headless card-deck interaction engine with a terminal UI and a JSON-RPC stdio front end.
//
// The module graph (docs/architecture.md; arrows point down only, checked by scripts/check-module-graph.py):
//
//   cardistry (executable) → CardistryCLI (the registration point) → CardTUI, CardStdio (front ends)
//   front ends → CardFrontend (the seam), CardCells (the rasteriser), CardEngine;  CardistryCLI → CardScenes →
//   CardEngine;  CardCells → CardEngine
//   (each target also lists every lower module it imports: nothing is re-exported, see docs/architecture.md)
//   CardEngine → CardPersistence, CardGestures, CardPhysics, CardModels, CardJSON
//   CardPersistence → CardModels, CardJSON;  CardGestures → CardPhysics → CardGeometry;  CardModels → shims;
//   CardFrontend → its shim (glibc's heap tuning)
//
// The root declares every target itself, so that a package that depends on this repository by URL gets the
// libraries (SwiftPM refuses a URL dependency whose manifest names local path packages). Each `Packages/X` keeps
// its own Package.swift over the same sources and builds on its own. Only the Swift toolchain is used: no package
// from outside it, anywhere in the tree.
import PackageDescription

/// A library target whose sources live in `Packages/<package>/Sources/<name>`.
func library(_ name: String, in package: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .target(name: name, dependencies: dependencies, path: "Packages/\(package)/Sources/\(name)")
}

/// What the scene modules (the Swift scenes and the scenes described as data) build on.
let sceneDependencies: [Target.Dependency] = [
    "CardEngine", "CardModels", "CardGeometry", "CardPhysics", "CardGestures", "CardPersistence", "CardJSON",
]

let package = Package(
    name: "Cardistry",
    products: [
        .library(name: "CardEngine", targets: ["CardEngine"]),
        .library(name: "CardScenes", targets: ["CardScenes"]),
        .library(name: "CardSceneFormat", targets: ["CardSceneFormat"]),
        .library(name: "CardModels", targets: ["CardModels"]),
        .library(name: "CardGeometry", targets: ["CardGeometry"]),
        .library(name: "CardPhysics", targets: ["CardPhysics"]),
        .library(name: "CardGestures", targets: ["CardGestures"]),
        .library(name: "CardPersistence", targets: ["CardPersistence"]),
        .library(name: "CardJSON", targets: ["CardJSON"]),
        .library(name: "CardFrontend", targets: ["CardFrontend"]),
        .library(name: "CardCells", targets: ["CardCells"]),
        .executable(name: "cardistry", targets: ["cardistry"]),
        .executable(name: "cardistry-bench", targets: ["cardistry-bench"]),
    ],
    targets: [
        // The engine and what it builds on (Packages/).
        library("CardJSON", in: "Persistence"),
        library("CardModelsShims", in: "Models"),
        library("CardModels", in: "Models", ["CardModelsShims"]),
        library("CardGeometry", in: "Physics"),
        library("CardPhysics", in: "Physics", ["CardGeometry"]),
        library("CardGestures", in: "Gestures", ["CardGeometry", "CardPhysics"]),
        library("CardPersistence", in: "Persistence", ["CardModels", "CardJSON"]),
        library(
            "CardEngine", in: "Engine",
            ["CardModels", "CardGeometry", "CardPhysics", "CardGestures", "CardPersistence", "CardJSON"]),
        library("CardScenes", in: "Scenes", sceneDependencies),
        library("CardSceneFormat", in: "Scenes", sceneDependencies),
        library("CardFrontendShims", in: "Frontend"),
        library("CardFrontend", in: "Frontend", ["CardFrontendShims"]),
        library("CardCells", in: "Cells", ["CardEngine", "CardGeometry", "CardGestures"]),

        // Front ends (plugins behind `Frontend`) and the command line that registers them.
        .target(
            name: "CardTUI",
            dependencies: [
                "CardCells", "CardEngine", "CardFrontend", "CardModels", "CardGeometry", "CardGestures",
                "CardPersistence", "CardJSON",
            ],
            path: "Frontends/tui"),
        .target(
            name: "CardStdio",
            dependencies: [
                "CardCells", "CardEngine", "CardFrontend", "CardJSON", "CardModels", "CardGeometry", "CardGestures",
                "CardPersistence",
            ],
            path: "Frontends/json-stdio"),
        .target(
            name: "CardistryCLI",
            dependencies: [
                "CardFrontend", "CardTUI", "CardStdio", "CardScenes", "CardSceneFormat", "CardEngine", "CardModels",
                "CardPersistence", "CardPhysics", "CardJSON",
            ],
            path: "Sources/CardistryCLI"
        ),
        .executableTarget(
            name: "cardistry", dependencies: ["CardistryCLI", "CardFrontend"], path: "Sources/cardistry"),
        .executableTarget(
            name: "cardistry-bench",
            dependencies: [
                "CardScenes", "CardSceneFormat", "CardEngine", "CardJSON", "CardTUI", "CardStdio", "CardCells",
                "CardFrontend",
                "CardModels", "CardModelsShims", "CardGeometry", "CardGestures", "CardPersistence", "CardPhysics",
            ],
            path: "Benchmarks/cardistry-bench"
        ),

        // Tests: one target per module, plus the end-to-end tests that run the built executable.
        // Test support (not a product): the standard scene catalogue plus a throwaway sixth scene, which the
        // catalogue-wide checks of the scenes, the terminal UI and the stdio server run over.
        .target(
            name: "CardTestScenes",
            dependencies: ["CardScenes", "CardEngine", "CardModels", "CardGeometry", "CardGestures", "CardPhysics"],
            path: "Tests/TestScenes"),
        .testTarget(name: "CardModelsTests", dependencies: ["CardModels"], path: "Tests/CardModelsTests"),
        .testTarget(name: "CardJSONTests", dependencies: ["CardJSON", "CardModels"], path: "Tests/CardJSONTests"),
        .testTarget(
            name: "CardPhysicsTests", dependencies: ["CardGeometry", "CardPhysics", "CardModels"],
            path: "Tests/CardPhysicsTests"),
        .testTarget(
            name: "CardGesturesTests", dependencies: ["CardGeometry", "CardGestures", "CardModels"],
            path: "Tests/CardGesturesTests"),
        .testTarget(
            name: "CardEngineTests",
            dependencies: [
                "CardEngine", "CardModels", "CardGeometry", "CardGestures", "CardPhysics", "CardPersistence",
            ],
            path: "Tests/CardEngineTests"),
        .testTarget(
            name: "CardScenesTests",
            dependencies: [
                "CardScenes", "CardTestScenes", "CardEngine", "CardModels", "CardGeometry", "CardGestures",
                "CardPersistence",
                "CardPhysics",
            ],
            path: "Tests/CardScenesTests"),
        .testTarget(
            name: "CardSceneFormatTests",
            dependencies: [
                "CardSceneFormat", "CardEngine", "CardModels", "CardGeometry", "CardGestures", "CardJSON",
                "CardPersistence", "CardPhysics",
            ],
            path: "Tests/CardSceneFormatTests"),
        // The built-in scenes against their descriptions (scenes/*.json), frame for frame (issue 52).
        .testTarget(
            name: "SceneEquivalenceTests",
            dependencies: [
                "CardScenes", "CardSceneFormat", "CardEngine", "CardModels", "CardGeometry", "CardGestures",
            ],
            path: "Tests/SceneEquivalenceTests"),
        .executableTarget(
            name: "cardistry-store-stress", dependencies: ["CardModels", "CardPersistence"],
            path: "Tests/StoreStress"),
        .testTarget(
            name: "CardPersistenceTests",
            dependencies: ["CardModels", "CardPersistence", "CardJSON", "cardistry-store-stress"],
            path: "Tests/CardPersistenceTests", resources: [.copy("Fixtures")]),
        .testTarget(
            name: "CardistryCLITests",
            dependencies: [
                "CardistryCLI", "CardFrontend", "CardScenes", "CardSceneFormat", "CardPhysics", "CardEngine",
                "CardModels", "CardGeometry",
                "CardGestures",
            ],
            path: "Tests/CardistryCLITests"),
        .testTarget(
            name: "EndToEndTests", dependencies: ["cardistry", "CardGeometry"], path: "Tests/EndToEndTests",
            exclude: ["Fixtures"]),
        // The benchmark's statistics, gate rule and `compare`, through `@testable import` of the executable.
        .testTarget(
            name: "BenchmarkTests", dependencies: ["cardistry-bench", "CardModels", "CardPhysics"],
            path: "Tests/BenchmarkTests", resources: [.copy("Fixtures")]),
        .testTarget(
            name: "CardTUITests",
            dependencies: [
                "CardTUI", "CardCells", "CardScenes", "CardTestScenes", "CardEngine", "CardModels", "CardGeometry",
                "CardGestures",
            ],
            path: "Tests/CardTUITests",
            exclude: ["Golden"]),
        // The one test target that sees two front ends: the stdio server's cells frames against the terminal UI.
        .testTarget(
            name: "FrontendParityTests",
            dependencies: [
                "CardTUI", "CardStdio", "CardCells", "CardScenes", "CardTestScenes", "CardEngine", "CardJSON",
            ],
            path: "Tests/FrontendParityTests"),
        .testTarget(
            name: "CardStdioTests",
            dependencies: [
                "CardStdio", "CardCells", "CardScenes", "CardTestScenes", "CardEngine", "CardModels", "CardGeometry",
                "CardJSON",
                "CardPersistence", "CardGestures",
            ],
            path: "Tests/CardStdioTests"),
    ],
    swiftLanguageModes: [.v6]
)
