// Front ends import CardEngine alone and see everything it builds on (docs/architecture.md).
@_exported import CardGeometry
@_exported import CardGestures
@_exported import CardModels
@_exported import CardPersistence
@_exported import CardPhysics

/// Facts about this build of Cardistry that every front end reports (`--version`, the stdio `serverInfo`).
public enum CardistryInfo {
    /// The product name.
    public static let name = "cardistry"
    /// The semantic version of this build.
    public static let version = "0.1.0"
}
