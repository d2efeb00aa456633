// swift-tools-version: 6.1
// CardGestures: pointer events to recognised gestures. Imports only CardGeometry.
import PackageDescription

let package = Package(
    name: "Gestures",
    products: [
        .library(name: "CardGestures", targets: ["CardGestures"])
    ],
    dependencies: [
        .package(path: "../Physics")
    ],
    targets: [
        .target(
            name: "CardGestures",
            dependencies: [
                .product(name: "CardGeometry", package: "Physics"), .product(name: "CardPhysics", package: "Physics"),
            ],
            path: "Sources/CardGestures"
        )
    ],
    swiftLanguageModes: [.v6]
)
