import CardEngine
import CardModels
import CardScenes
import Testing

@testable import CardCells
@testable import CardTUI

@Suite struct InputDecoderTests {
    func keys(_ text: String, at time: Double = 0) -> [TerminalInput] {
        var decoder = InputDecoder()
        return decoder.feed(Array(text.utf8), at: time) + decoder.flush(at: time + 1)
    }

    @Test func printableControlAndNamedKeys() {
        #expect(keys("a") == [.key(KeyInput("a"))])
        #expect(keys(" ") == [.key(KeyInput("space"))])
        #expect(keys("\r") == [.key(KeyInput("enter"))])
        #expect(keys("\t") == [.key(KeyInput("tab"))])
        #expect(keys("\u{7F}") == [.key(KeyInput("backspace"))])
        #expect(keys("\u{03}") == [.key(KeyInput("c", control: true))])
        #expect(keys("\u{1A}") == [.key(KeyInput("z", control: true))])
        #expect(keys("é") == [.key(KeyInput("é"))])
        #expect(keys("→") == [.key(KeyInput("→"))])
    }

    @Test func cursorKeysInBothFormsWithModifiers() {
        #expect(keys("\u{1B}[A") == [.key(KeyInput("up"))])
        #expect(keys("\u{1B}OB") == [.key(KeyInput("down"))])
        #expect(keys("\u{1B}[1;5C") == [.key(KeyInput("right", control: true))])
        #expect(keys("\u{1B}[1;2D") == [.key(KeyInput("left", shift: true))])
        #expect(keys("\u{1B}[1;3H") == [.key(KeyInput("home", alt: true))])
        #expect(keys("\u{1B}[Z") == [.key(KeyInput("backtab"))])
        #expect(
            keys("\u{1B}[5~\u{1B}[6~\u{1B}[4~") == [
                .key(KeyInput("pageup")), .key(KeyInput("pagedown")), .key(KeyInput("end")),
            ])
    }

    @Test func loneEscapeWaitsForItsTimeout() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0x1B], at: 1.0).isEmpty)
        #expect(decoder.deadline == 1.05)
        #expect(decoder.flush(at: 1.049).isEmpty)
        #expect(decoder.flush(at: 1.05) == [.key(KeyInput("escape"))])
        #expect(decoder.deadline == nil)
    }

    @Test func sequenceSplitAcrossReadsWithinTheTimeoutIsOneKey() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0x1B], at: 0).isEmpty)
        #expect(decoder.feed(Array("[".utf8), at: 0.01).isEmpty)
        #expect(decoder.feed(Array("A".utf8), at: 0.02) == [.key(KeyInput("up"))])
    }

    @Test func escapeThenLateByteIsEscapeThenTheKey() {
        var decoder = InputDecoder()
        _ = decoder.feed([0x1B], at: 0)
        #expect(decoder.feed(Array("[".utf8), at: 0.2) == [.key(KeyInput("escape")), .key(KeyInput("["))])
    }

    @Test func altPrefixAndDoubleEscape() {
        #expect(keys("\u{1B}x") == [.key(KeyInput("x", alt: true))])
        #expect(keys("\u{1B}\u{1B}") == [.key(KeyInput("escape")), .key(KeyInput("escape"))])
    }

    @Test func sgrMousePressDragReleaseAndWheel() {
        #expect(keys("\u{1B}[<0;10;5M") == [.mouse(MouseInput(.press, button: 0, column: 9, row: 4))])
        #expect(keys("\u{1B}[<32;11;5M") == [.mouse(MouseInput(.drag, button: 0, column: 10, row: 4))])
        #expect(keys("\u{1B}[<0;11;6m") == [.mouse(MouseInput(.release, button: 0, column: 10, row: 5))])
        #expect(keys("\u{1B}[<64;1;1M") == [.mouse(MouseInput(.wheel, button: 0, column: 0, row: 0))])
        #expect(keys("\u{1B}[<65;1;1M") == [.mouse(MouseInput(.wheel, button: 1, column: 0, row: 0))])
        #expect(keys("\u{1B}[<35;3;4M") == [.mouse(MouseInput(.move, button: 3, column: 2, row: 3))])
        #expect(
            keys("\u{1B}[<22;200;60M") == [
                .mouse(MouseInput(.press, button: 2, column: 199, row: 59, shift: true, control: true))
            ])
        // Zero coordinates and missing fields are malformed and dropped.
        #expect(keys("\u{1B}[<0;0;5M").isEmpty)
        #expect(keys("\u{1B}[<0;5M").isEmpty)
    }

    @Test func bracketedPasteIsOneEventEvenAcrossReads() {
        var decoder = InputDecoder()
        #expect(decoder.feed(Array("\u{1B}[200~hello ".utf8), at: 0).isEmpty)
        #expect(decoder.feed(Array("\u{1B}[A world\u{1B}[201".utf8), at: 0.3).isEmpty)
        #expect(decoder.feed(Array("~q".utf8), at: 0.4) == [.paste("hello \u{1B}[A world"), .key(KeyInput("q"))])
    }

    @Test func capabilityReplies() {
        #expect(keys("\u{1B}[?2026;2$y") == [.modeReport(mode: 2026, status: 2)])
        #expect(keys("\u{1B}[?62;22c") == [.deviceAttributes])
    }

    @Test func unknownAndOverlongSequencesAreDroppedWhole() {
        #expect(keys("\u{1B}[99X") == [])
        #expect(keys("\u{1B}[" + String(repeating: "1", count: 200) + "Aq") == [.key(KeyInput("q"))])
        #expect(keys("\u{1B}[1;2;3;\u{03}") == [.key(KeyInput("c", control: true))])
    }

    /// Whatever bytes arrive, the decoder never traps, and after the paste end marker and the Esc timeout it is
    /// back in its ground state: the next printable byte is that key.
    @Test func randomBytesNeverStickTheDecoder() {
        var random = SplitMix64(seed: 0x7E57)
        for _ in 0..<3_000 {
            var decoder = InputDecoder()
            var bytes: [UInt8] = []
            for _ in 0..<random.below(40) {
                // Bias towards bytes that start and continue sequences.
                let pick = random.below(6)
                bytes.append(
                    pick == 0
                        ? 0x1B
                        : pick == 1
                            ? UInt8(ascii: "[")
                            : pick == 2
                                ? UInt8(ascii: ";")
                                : UInt8(truncatingIfNeeded: random.next()))
            }
            _ = decoder.feed(bytes, at: 0)
            _ = decoder.feed(Array("\u{1B}[201~".utf8), at: 0)
            _ = decoder.flush(at: 1)
            #expect(decoder.feed(Array("x".utf8), at: 2) == [.key(KeyInput("x"))])
        }
    }
}
