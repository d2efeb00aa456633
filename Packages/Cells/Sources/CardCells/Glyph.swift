import CardEngine
import Synchronization

/// What one terminal cell shows: a whole grapheme cluster (UAX #29, "Unicode Text Segmentation", as Swift's
/// `Character` segments text), packed into 32 bits so that cells still compare in a few instructions.
///
/// A cluster of one scalar (almost all text: "a", "é", "日", "─", "▄") is stored as the scalar's value. A cluster of
/// several scalars — a letter and its combining marks ("e\u{301}"), a zero-width-joiner sequence (👨‍👩‍👧‍👦), an
/// emoji with a variation selector (❤️) or a skin tone, a regional-indicator flag (🇫🇷) — is interned: stored once
/// in a table shared by every buffer, and referred to by its index. Equal clusters therefore get equal glyphs, and
/// buffers diff by value. The table is bounded (`GlyphTable.defaultCapacity` clusters); once full, a new cluster is shown
/// as a stand-in of its width (its first scalar when that has the cluster's width, else U+FFFD or 〓).
///
/// Layout of `rawValue`: bit 31 clear — a scalar value (≤ 0x10FFFF); bit 31 set — an interned cluster, bit 30 its
/// width (set: two columns), bits 0–29 its index.
public struct Glyph: Sendable, Hashable, ExpressibleByUnicodeScalarLiteral, CustomStringConvertible {
    /// The packed value (see the type's documentation); equal glyphs have equal raw values.
    public let rawValue: UInt32

    @usableFromInline static let clusterFlag: UInt32 = 1 << 31
    @usableFromInline static let wideFlag: UInt32 = 1 << 30
    static let indexMask: UInt32 = (1 << 30) - 1

    init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// A glyph of one scalar.
    public init(_ scalar: Unicode.Scalar) {
        rawValue = scalar.value
    }

    /// A glyph of one scalar, written as a literal (`cell.character = "▄"`).
    public init(unicodeScalarLiteral scalar: Unicode.Scalar) {
        self.init(scalar)
    }

    /// A glyph of a whole cluster: a one-scalar cluster as its scalar, a longer one interned (see the type's
    /// documentation). O(scalars of the cluster); a longer cluster costs one look-up in the shared table.
    public init(_ cluster: Character) {
        var scalars = cluster.unicodeScalars.makeIterator()
        if let first = scalars.next(), scalars.next() == nil {
            self.init(first)
        } else {
            self = GlyphTable.shared.glyph(for: cluster)
        }
    }

    /// The glyph of a cluster from `table` (tests use a small table to reach its bound).
    init(_ cluster: Character, table: GlyphTable) {
        self = table.glyph(for: cluster)
    }

    /// Whether this glyph is an interned cluster of several scalars.
    @inlinable public var isCluster: Bool { rawValue & Self.clusterFlag != 0 }

    /// The scalar of a one-scalar glyph (nil for an interned cluster).
    @inlinable public var scalar: Unicode.Scalar? { isCluster ? nil : Unicode.Scalar(rawValue) }

    /// Whether the glyph takes two columns: `TextLayout.isWide` for a scalar, the cluster's width
    /// (`TextLayout.columns(of:)`) for a cluster. O(1) for a cluster, no table look-up.
    @inlinable public var isWide: Bool {
        if isCluster { return rawValue & Self.wideFlag != 0 }
        guard rawValue >= 0x1100, let scalar = Unicode.Scalar(rawValue) else { return false }
        return TextLayout.isWide(scalar)
    }

    /// Whether the glyph is one ASCII scalar.
    @inlinable public var isASCII: Bool { rawValue < 0x80 }

    /// The glyph's text.
    public var string: String {
        if isCluster { return GlyphTable.shared.cluster(at: Int(rawValue & Self.indexMask)) }
        return Unicode.Scalar(rawValue).map { String(Character($0)) } ?? "\u{FFFD}"
    }

    /// The glyph's text (`string`).
    public var description: String { string }

    /// Appends the glyph's UTF-8 bytes to `output` (inlinable: the terminal UI's writer calls it for every cell).
    @inlinable package func appendUTF8(into output: inout [UInt8]) {
        if isCluster {
            appendClusterUTF8(into: &output)
        } else if let scalar = Unicode.Scalar(rawValue) {
            Self.appendUTF8(scalar, into: &output)
        }
    }

    /// Appends an interned cluster's UTF-8 bytes.
    @usableFromInline func appendClusterUTF8(into output: inout [UInt8]) {
        output.append(contentsOf: GlyphTable.shared.cluster(at: Int(rawValue & Self.indexMask)).utf8)
    }

    /// Appends `scalar` as UTF-8.
    @inlinable static func appendUTF8(_ scalar: Unicode.Scalar, into output: inout [UInt8]) {
        let value = scalar.value
        if value < 0x80 {
            output.append(UInt8(truncatingIfNeeded: value))
        } else if value < 0x800 {
            output.append(0xC0 | UInt8(truncatingIfNeeded: value >> 6))
            output.append(0x80 | UInt8(truncatingIfNeeded: value & 0x3F))
        } else if value < 0x10000 {
            output.append(0xE0 | UInt8(truncatingIfNeeded: value >> 12))
            output.append(0x80 | UInt8(truncatingIfNeeded: (value >> 6) & 0x3F))
            output.append(0x80 | UInt8(truncatingIfNeeded: value & 0x3F))
        } else {
            output.append(0xF0 | UInt8(truncatingIfNeeded: value >> 18))
            output.append(0x80 | UInt8(truncatingIfNeeded: (value >> 12) & 0x3F))
            output.append(0x80 | UInt8(truncatingIfNeeded: (value >> 6) & 0x3F))
            output.append(0x80 | UInt8(truncatingIfNeeded: value & 0x3F))
        }
    }
}

/// The clusters of several scalars that glyphs refer to: interned once, shared by every buffer of the process,
/// never removed (a buffer may still refer to any of them), at most `capacity` of them. Thread-safe (a mutex).
final class GlyphTable: Sendable {
    /// The table every glyph refers to.
    static let shared = GlyphTable()

    /// The most clusters the shared table holds (64 Ki: far more distinct clusters than a session shows).
    static let defaultCapacity = 1 << 16

    /// The most clusters this table holds.
    let capacity: Int

    init(capacity: Int = GlyphTable.defaultCapacity) {
        self.capacity = min(max(0, capacity), Int(Glyph.indexMask) + 1)
    }

    private struct State {
        var indices: [String: Int] = [:]
        var clusters: [String] = []
    }

    private let state = Mutex(State())

    /// The glyph for `cluster` (several scalars): its interned index and width, or a stand-in once the table is
    /// full. O(length of the cluster) (hashing).
    func glyph(for cluster: Character) -> Glyph {
        let text = String(cluster)
        let wide = TextLayout.columns(of: cluster) == 2
        let index = state.withLock { state -> Int? in
            if let index = state.indices[text] { return index }
            guard state.clusters.count < capacity else { return nil }
            state.clusters.append(text)
            state.indices[text] = state.clusters.count - 1
            return state.clusters.count - 1
        }
        if let index {
            return Glyph(rawValue: Glyph.clusterFlag | (wide ? Glyph.wideFlag : 0) | UInt32(index))
        }
        // Full: a one-scalar stand-in of the same width, so the cells drawn still match the text's layout.
        if let first = cluster.unicodeScalars.first, TextLayout.isWide(first) == wide, TextLayout.columns(of: first) > 0
        {
            return Glyph(first)
        }
        return wide ? "〓" : "\u{FFFD}"
    }

    /// The cluster interned at `index`.
    func cluster(at index: Int) -> String {
        state.withLock { state in index < state.clusters.count ? state.clusters[index] : "\u{FFFD}" }
    }

    /// How many clusters are interned.
    var count: Int { state.withLock { $0.clusters.count } }
}
