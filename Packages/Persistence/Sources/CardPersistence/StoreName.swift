/// The rules for deck and state names: a name is one file-name component that can never leave the store.
///
/// 1…64 characters from `A–Z a–z 0–9 - _ .`, starting with a letter or digit: so no path separators, no `..`,
/// no hidden files (the store's temporary files start with a dot) and nothing a shell or terminal could misread.
public enum StoreName {
    /// The longest name, in characters (bytes: names are ASCII).
    public static let maximumLength = 64

    /// Throws `StoreError.invalidName` unless `name` follows the rules.
    public static func validate(_ name: String) throws(StoreError) {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty else { throw .invalidName(name, reason: "a name cannot be empty") }
        guard bytes.count <= maximumLength else {
            throw .invalidName(name, reason: "a name has at most \(maximumLength) characters")
        }
        guard isAlphanumeric(bytes[0]) else {
            throw .invalidName(name, reason: "a name starts with a letter or a digit")
        }
        for byte in bytes
        where
            !(isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "."))
        {
            let shown = byte < 0x80 && byte >= 0x20 ? "'\(Character(Unicode.Scalar(byte)))'" : "a non-ASCII character"
            throw .invalidName(name, reason: "\(shown) is not allowed (use letters, digits, '-', '_' and '.')")
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
