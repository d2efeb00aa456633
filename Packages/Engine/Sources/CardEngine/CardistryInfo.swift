/// Facts about this build of Cardistry that every front end reports (`--version`, the stdio `serverInfo`).
public enum CardistryInfo {
    /// The product name.
    public static let name = "cardistry"
    /// The semantic version of this build.
    public static let version = "0.1.0"
}
