import CardEngine
import Testing

@Suite struct CardistryInfoTests {
    @Test func versionIsSemanticVersion() {
        let parts = CardistryInfo.version.split(separator: ".")
        #expect(parts.count == 3)
        #expect(parts.allSatisfy { Int($0) != nil })
    }
}
