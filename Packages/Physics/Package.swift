// swift-tools-version: 6.1
// CardGeometry (points, sizes, rects, angles) and CardPhysics (springs, curves, timeline). Imports nothing of ours.
import PackageDescription

let package = Package(
    name: "Physics",
    products: [
        .library(name: "CardGeometry", targets: ["CardGeometry"]),
        .library(name: "CardPhysics", targets: ["CardPhysics"]),
    ],
    targets: [
        .target(name: "CardGeometry", path: "Sources/CardGeometry"),
        .target(name: "CardPhysics", dependencies: ["CardGeometry"], path: "Sources/CardPhysics"),
    ],
    swiftLanguageModes: [.v6]
)
