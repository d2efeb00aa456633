import CardEngine
import CardGeometry
import CardJSON
import CardSceneFormat
import Testing

/// A description's text colour `"label"` reads on what it sits on, and `cardistry scene check` (the `ScenePlayer`)
/// reports text a person cannot read (issue 46's bar, asked of data scenes too).
@Suite struct TextColorTests {
    /// A one-row scene of a yellow and an indigo card whose titles are drawn in `color`.
    static func description(titleColor: String) throws -> SceneDescription {
        let text = """
            {
              "format": 1, "name": "colours", "title": "Colours", "summary": "two cards", "background": "#ffffff",
              "cards": [
                {"id": 1, "title": "Yellow", "color": "#ffcc00"},
                {"id": 2, "title": "Indigo", "color": "#5856d6"}
              ],
              "card": {
                "size": ["120", "80"], "fill": "card.color",
                "nodes": [{"name": "title", "rect": ["8", "8", "104", "40"],
                           "text": {"text": "{title}", "style": "body", "color": \(titleColor)}}]
              },
              "layouts": [{"name": "row", "kind": "row", "spacing": 16}]
            }
            """
        return try SceneDescription.load(try JSONValue(parsing: Array(text.utf8)))
    }

    static func titleColor(_ frame: Frame, card: Int) -> RGBA? {
        frame.nodes.first { $0.id.description == "card.\(card).title" }?.text.first?.run.color
    }

    @Test func labelIsBlackOnYellowAndWhiteOnIndigo() throws {
        var engine = Engine(
            scene: try DescribedScene(description: try Self.description(titleColor: "\"label\"")),
            viewport: Size(width: 400, height: 200))
        let frame = engine.frame(at: 0)
        #expect(Self.titleColor(frame, card: 1) == .black)
        #expect(Self.titleColor(frame, card: 2) == .white)
    }

    @Test func whiteOnYellowIsReportedAndLabelIsNot() throws {
        let white = ScenePlayer(try Self.description(titleColor: "\"#ffffff\"")).play(sessions: 3, seed: 1)
        #expect(
            white.contains { $0.message.contains("text hard to read") && $0.message.contains("Yellow") }, "\(white)")
        #expect(!white.contains { $0.message.contains("Indigo") }, "white on indigo reads (7:1): \(white)")
        let label = ScenePlayer(try Self.description(titleColor: "\"label\"")).play(sessions: 3, seed: 1)
        #expect(label.isEmpty, "\(label)")
    }

    @Test func aColourThatIsNeitherIsRefusedWithItsPointer() {
        do {
            _ = try Self.description(titleColor: "\"lable\"")
            Issue.record("a colour 'lable' was accepted")
        } catch let error as SceneFormatError {
            #expect("\(error)".contains("/card/nodes/0/text/color"), "\(error)")
            #expect("\(error)".contains("label"), "\(error)")
        } catch {
            Issue.record("\(error)")
        }
    }
}
