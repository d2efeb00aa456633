/// Where the store lives: `--store DIR`, else `$CARDISTRY_HOME`, else `$XDG_DATA_HOME/cardistry`, else
/// `~/.local/share/cardistry` (the XDG Base Directory Specification's default data home). Front ends share this
/// rule so that every command sees the same decks.
public enum StoreLocation {
    /// The store directory for an explicit `--store` value and the process environment.
    ///
    /// Empty variables count as unset; `XDG_DATA_HOME` is ignored unless it is an absolute path, as the XDG
    /// specification requires. Throws `StoreError.noLocation` when even `HOME` is missing.
    public static func resolve(explicit: String?, environment: [String: String]) throws(StoreError) -> String {
        if let explicit {
            guard !explicit.isEmpty else { throw .noLocation("--store needs a directory") }
            return explicit
        }
        if let home = environment["CARDISTRY_HOME"], !home.isEmpty { return home }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return join(data, "cardistry") }
        if let home = environment["HOME"], !home.isEmpty { return join(join(home, ".local/share"), "cardistry") }
        throw .noLocation("set --store, CARDISTRY_HOME, XDG_DATA_HOME or HOME")
    }

    static func join(_ directory: String, _ component: String) -> String {
        directory.hasSuffix("/") ? directory + component : directory + "/" + component
    }
}
