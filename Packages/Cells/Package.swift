// swift-tools-version: 6.1
// CardCells: the rasteriser of text grids. It draws an engine `Frame` into a `CellBuffer` of terminal cells (rounded
// boxes in box-drawing glyphs, eighth-block edges for sub-cell motion, whole grapheme clusters, colour depths) and
// measures text in cells (`CellTextMeasurer`), so that a scene lays out on whole cells. The terminal UI and the
// stdio server's `frames: "cells"` both draw with it.
import PackageDescription

let package = Package(
    name: "Cells",
    products: [
        .library(name: "CardCells", targets: ["CardCells"])
    ],
    dependencies: [
        .package(path: "../Engine"),
        .package(path: "../Physics"),
        .package(path: "../Gestures"),
    ],
    targets: [
        .target(
            name: "CardCells",
            dependencies: [
                .product(name: "CardEngine", package: "Engine"),
                .product(name: "CardGeometry", package: "Physics"),
                .product(name: "CardGestures", package: "Gestures"),
            ],
            path: "Sources/CardCells"
        )
    ],
    swiftLanguageModes: [.v6]
)
