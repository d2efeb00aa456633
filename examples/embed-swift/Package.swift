// swift-tools-version: 6.1
// An app that embeds Cardistry as a library, depending on the repository by URL as any Swift package would.
//
//   swift run                                       # the repository's URL once it is published (see below)
//   CARDISTRY_URL=file:///path/to/clone swift run   # a local clone, in a directory of any name (CI does this)
//
// CARDISTRY_BRANCH picks the branch (default main).
import Foundation
import PackageDescription

let url = Context.environment["CARDISTRY_URL"] ?? "https://github.com/cardistry/cardistry.git"
let branch = Context.environment["CARDISTRY_BRANCH"] ?? "main"

/// SwiftPM names a URL dependency after the URL's last path component without `.git` (lowercased): the
/// `package:` of every product below must be that identity, so a clone in `~/src/my-fork` is `my-fork`.
let identity = {
    var name = url.split(separator: "/").last.map(String.init) ?? "cardistry"
    if name.hasSuffix(".git") { name.removeLast(4) }
    return name.lowercased()
}()

let package = Package(
    name: "EmbedSwift",
    dependencies: [
        .package(url: url, branch: branch)
    ],
    targets: [
        .executableTarget(
            name: "embed-swift",
            dependencies: [
                .product(name: "CardScenes", package: identity),
                .product(name: "CardEngine", package: identity),
                .product(name: "CardModels", package: identity),
                .product(name: "CardGeometry", package: identity),
                .product(name: "CardGestures", package: identity),
                .product(name: "CardPhysics", package: identity),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
