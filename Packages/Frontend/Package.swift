// swift-tools-version: 6.1
// CardFrontend: the seam every front end plugs into (`Frontend`), with the I/O and argument parsing a front end
// needs to run as a `cardistry` subcommand. Imports nothing of ours but a header-only C shim for glibc's heap tuning
// (malloc.h, which Swift's Glibc module does not export).
import PackageDescription

let package = Package(
    name: "Frontend",
    products: [
        .library(name: "CardFrontend", targets: ["CardFrontend"])
    ],
    targets: [
        .target(name: "CardFrontendShims", path: "Sources/CardFrontendShims"),
        .target(name: "CardFrontend", dependencies: ["CardFrontendShims"], path: "Sources/CardFrontend"),
    ],
    swiftLanguageModes: [.v6]
)
