import CardEngine
import Foundation
import Testing

/// The tables docs/protocol.md states as data are the code's: every symbol with its fallback, every role with a
/// drawing rule (the document's icon list had lost `snowflake`, and roles were listed without how to draw them).
@Suite struct DocumentedTablesTests {
    static let document: String = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/protocol.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    @Test func everySymbolIsListedWithItsFallback() {
        #expect(!Self.document.isEmpty)
        for symbol in Symbols.all {
            #expect(Self.document.contains("`\(symbol.name)` \(symbol.fallback)"), "\(symbol.name) is not documented")
        }
    }

    @Test func everyRoleHasADrawingRule() {
        for role in NodeRole.allCases {
            let row = Self.document.split(separator: "\n").first { $0.hasPrefix("  | `\(role.rawValue)` |") }
            #expect(row != nil, "no row for the role \(role.rawValue) in the roles table")
        }
    }
}
