// swift-tools-version: 6.1
// CardFrontend: the seam every front end plugs into (`Frontend`), with the I/O and argument parsing a front end
// needs to run as a `cardistry` subcommand. Imports nothing of ours.
import PackageDescription

let package = Package(
    name: "Frontend",
    products: [
        .library(name: "CardFrontend", targets: ["CardFrontend"])
    ],
    targets: [
        .target(name: "CardFrontend", path: "Sources/CardFrontend")
    ],
    swiftLanguageModes: [.v6]
)
