/// Why a JSON document could not be read, and where: `offset` is the zero-based byte offset of the problem.
///
/// Raised by the strict scanner (syntax, UTF-8, nesting depth, numbers) and by the document decoders (missing or
/// duplicate keys, wrong types, values out of range). The store wraps it with the file's path.
public struct JSONDecodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The byte offset of the problem from the start of the document.
    public var offset: Int
    /// What is wrong, in words.
    public var reason: String

    /// An error at byte `offset` (zero-based) with `reason`.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "at byte \(offset): \(reason)" }
}

extension Array where Element == UInt8 {
    /// `withUnsafeBytes` for a body with typed throws (the standard one is `rethrows`, which erases the type).
    package func withBytes<Result>(
        _ body: (UnsafeRawBufferPointer) throws(JSONDecodeError) -> Result
    ) throws(JSONDecodeError) -> Result {
        try withUnsafeBytes { buffer in Swift.Result { () throws(JSONDecodeError) -> Result in try body(buffer) } }
            .get()
    }
}
