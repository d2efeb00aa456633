// swift-tools-version: 6.1
// An app that embeds Cardistry as a library, depending on the repository by URL as any Swift package would.
//
//   swift run                                   # the published repository
//   CARDISTRY_URL=file:///path/to/clone swift run   # a local clone (CI points this at the commit under test)
//
// CARDISTRY_BRANCH picks the branch (default main).
import Foundation
import PackageDescription

let url = Context.environment["CARDISTRY_URL"] ?? "https://github.com/cardistry/cardistry.git"
let branch = Context.environment["CARDISTRY_BRANCH"] ?? "main"

let package = Package(
    name: "EmbedSwift",
    dependencies: [
        .package(url: url, branch: branch)
    ],
    targets: [
        .executableTarget(
            name: "embed-swift",
            dependencies: [
                .product(name: "CardScenes", package: "cardistry"),
                .product(name: "CardModels", package: "cardistry"),
                .product(name: "CardPhysics", package: "cardistry"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
