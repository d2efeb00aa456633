import CardEngine
import CardGeometry
import CardGestures
import CardModels
import Testing

/// A recorded frame's digest is CRC-32 of the protocol's bytes for the frame (`FrameJSON`), and a recording says
/// which format it is in. The bytes of a frame with every field are pinned here: a change to them changes every
/// recording's digests, so it must come with a new `InputLog.formatVersion` (and this test's bytes).
@Suite struct FrameDigestTests {
    /// A frame whose nodes use every field the encoding writes.
    static let everyField: Frame = {
        let shadow = Shadow(
            color: RGBA(red: 0, green: 0, blue: 0, alpha: 0.25), radius: 10, offset: Vector(dx: 0, dy: 2))
        let title = FrameText(
            run: TextRun("Test ", style: .headline, color: .black, weight: .bold, lineLimit: 1),
            lines: ["Test"])
        let digits = FrameText(
            run: TextRun("42", style: .headline, color: RGBA(red: 0.5, green: 0.25, blue: 1), isNumeric: true),
            rollingFrom: "37", digitProgress: [0.5, 0.125], lines: ["42"])
        let symbol = FrameText(run: TextRun("star.fill", isSymbol: true), lines: ["star.fill"])
        let card = FrameNode(
            id: "card.7", role: .card, card: CardID(7), parent: "list",
            rect: Rect(x: 16.5, y: -3.25, width: 358, height: 56), z: 2, opacity: 0.8, rotation: -12.5, scale: 1.1,
            cornerRadius: 12, fill: RGBA(red: 1, green: 0.23, blue: 0.19), stroke: RGBA(red: 0, green: 0, blue: 1),
            shadow: shadow, text: [title, digits], matchedGeometryID: "7.color", isLeaving: true, clipsContent: true,
            mayOverflow: true,
            gestures: [
                GestureAttachment(
                    "reorder",
                    Gesture.exclusive(
                        TapGesture().gesture, .sequenced(LongPressGesture().gesture, DragGesture().gesture)))
            ],
            accessibilityLabel: "Alice \"A\"", focusOrder: 3)
        let icon = FrameNode(
            id: "icon", role: .icon, card: nil, parent: nil, rect: Rect(x: 0, y: 0, width: 20, height: 20), z: 0,
            opacity: 1, rotation: 0, scale: 1, cornerRadius: 0, fill: nil, stroke: nil, shadow: nil, text: [symbol],
            matchedGeometryID: nil, isLeaving: false)
        return Frame(
            time: 1.5, viewport: Size(width: 390, height: 844), nodes: [icon, card], events: [], isAnimating: true)
    }()

    @Test func theBytesAreTheProtocolsFullFrameWithSequenceZero() {
        let expected = #"""
            {"seq":0,"t":1.5,"full":true,"animating":true,"viewport":{"width":390,"height":844},"nodes":[\#
            {"id":"icon","role":"icon","x":0,"y":0,"width":20,"height":20,"z":0,"opacity":1,"rotation":0,"scale":1,\#
            "cornerRadius":0,"text":"star.fill","runs":[{"text":"star.fill","style":"body","color":"#000000ff",\#
            "weight":"regular","alignment":"leading","symbol":true}]},\#
            {"id":"card.7","role":"card","card":"7","parent":"list","x":16.5,"y":-3.25,"width":358,"height":56,"z":2,\#
            "opacity":0.8,"rotation":-12.5,"scale":1.1,"cornerRadius":12,"fill":"#ff3b30ff","stroke":"#0000ffff",\#
            "shadow":{"color":"#00000040","radius":10,"dx":0,"dy":2},"text":"Test 42","runs":[\#
            {"text":"Test ","style":"headline","color":"#000000ff","weight":"bold","alignment":"leading",\#
            "lineLimit":1,"lines":["Test"]},\#
            {"text":"42","style":"headline","color":"#8040ffff","weight":"regular","alignment":"leading",\#
            "numeric":true,"lines":["42"],"rollingFrom":"37","digitProgress":[0.5,0.125]}],\#
            "matched":"7.color","leaving":true,"clips":true,"mayOverflow":true,"label":"Alice \"A\"",\#
            "gestures":[{"name":"reorder","kinds":["tap","longPress","drag"]}],"focus":3}]}
            """#
        #expect(String(decoding: InputLog.digestBytes(of: Self.everyField), as: UTF8.self) == expected)
        // Pinned too (zlib.crc32 of the text above), so a change of the checksum is caught as well.
        #expect(InputLog.digest(of: Self.everyField) == 0x4FE6_C4BD)
    }

    @Test func whatAHostSeesChangesTheDigestAndEventsDoNot() {
        let digest = InputLog.digest(of: Self.everyField)
        var moved = Self.everyField
        moved.nodes[1].rect.origin.x += 0.5
        #expect(InputLog.digest(of: moved) != digest)
        var relabelled = Self.everyField
        relabelled.nodes[1].accessibilityLabel = "Bob"
        #expect(InputLog.digest(of: relabelled) != digest)
        var later = Self.everyField
        later.time += 0.001
        #expect(InputLog.digest(of: later) != digest)
        var withEvents = Self.everyField
        withEvents.events = [.haptic(HapticEvent(time: 1.5, style: .light, target: "card.7", card: CardID(7)))]
        #expect(InputLog.digest(of: withEvents) == digest)
    }

    static func header(_ version: String) -> String {
        #"{"cardistry":"input-log",\#(version)"scene":"scores","viewport":{"width":390,"height":844},"start":0}"#
            + "\n" + #"{"t":0,"type":"frame","digest":12}"# + "\n"
    }

    @Test func aLogSaysItsFormatVersion() throws {
        let log = InputLog(scene: "scores", viewport: Size(width: 390, height: 844))
        #expect(log.version == InputLog.formatVersion)
        #expect(InputLog.formatVersion == 2)
        #expect(log.jsonLines.hasPrefix(#"{"cardistry":"input-log","version":2,"scene":"scores","#))
        let current = try InputLog(jsonLines: Self.header(#""version":2,"#))
        #expect(current.version == 2)
        #expect(current.checksDigests)
        // A version 1 recording reads, its inputs and frames as before, but its digests cannot be checked.
        let old = try InputLog(jsonLines: Self.header(#""version":1,"#))
        #expect(old.version == 1)
        #expect(!old.checksDigests)
        #expect(old.entries == [.frame(time: 0, digest: 12, line: 2)])
    }

    @Test func aNewerOrUnversionedLogIsRefusedWithTheReason() {
        #expect {
            _ = try InputLog.sessions(jsonLines: Self.header(#""version":3,"#))
        } throws: { error in
            guard let error = error as? InputLogError else { return false }
            return error.line == 1 && error.reason.contains("version 3 is newer than this build reads (1…2)")
        }
        #expect {
            _ = try InputLog.sessions(jsonLines: Self.header(#""version":2,"#) + Self.header(#""version":9,"#))
        } throws: { error in
            (error as? InputLogError)?.line == 3
        }
        #expect {
            _ = try InputLog.sessions(jsonLines: Self.header(""))
        } throws: { error in
            guard let error = error as? InputLogError else { return false }
            return error.line == 1 && error.reason.contains("needs a 'version'")
        }
    }
}
