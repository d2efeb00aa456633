import CardEngine
import CardScenes
import Testing

@testable import CardStdio

private func split(_ input: [UInt8], maxBytes: Int, chunks: [Int]) -> [LineEvent] {
    var splitter = LineSplitter(maxBytes: maxBytes)
    var events: [LineEvent] = []
    var offset = 0
    var chunkIndex = 0
    while offset < input.count {
        let size = min(max(1, chunks.isEmpty ? input.count : chunks[chunkIndex % chunks.count]), input.count - offset)
        chunkIndex += 1
        input[offset..<(offset + size)].withUnsafeBytes { events += splitter.feed($0) }
        offset += size
    }
    return events + splitter.finish()
}

@Suite struct LineSplitterTests {
    @Test func splitsOnNewlineAndDropsACarriageReturnBeforeIt() {
        let events = split(Array("a\r\nbc\n\n\r\nlast".utf8), maxBytes: 100, chunks: [])
        #expect(
            events == [
                .line(Array("a".utf8)), .line(Array("bc".utf8)), .line([]), .line([]), .line(Array("last".utf8)),
            ])
    }

    @Test func anOverlongLineIsDiscardedAndCountedAndTheNextLineSurvives() {
        let long = [UInt8](repeating: 0x61, count: 50)
        let events = split(long + [0x0A] + Array("ok\n".utf8) + long, maxBytes: 10, chunks: [7])
        #expect(events == [.oversized(length: 50), .line(Array("ok".utf8)), .oversized(length: 50)])
    }

    @Test func aLineOfExactlyTheCapIsKeptEvenWithCRLF() {
        let line = [UInt8](repeating: 0x62, count: 10)
        #expect(split(line + [0x0D, 0x0A], maxBytes: 10, chunks: [3]) == [.line(line)])
        #expect(split(line + [0x62, 0x0A], maxBytes: 10, chunks: [3]) == [.oversized(length: 11)])
    }

    @Test func chunkBoundariesNeverChangeTheLines() {
        var random = SplitMix64(seed: 17)
        for _ in 0..<2000 {
            var input: [UInt8] = []
            for _ in 0..<Int(random.next() % 40) {
                let byte: UInt8 = [0x0A, 0x0D, 0x61, 0xE2, 0x00][Int(random.next() % 5)]
                input.append(byte)
            }
            let maxBytes = 1 + Int(random.next() % 8)
            let whole = split(input, maxBytes: maxBytes, chunks: [])
            let pieces = split(
                input, maxBytes: maxBytes, chunks: [1 + Int(random.next() % 5), 1 + Int(random.next() % 3)])
            #expect(whole == pieces)
            let lines = whole.count
            let newlines = input.filter { $0 == 0x0A }.count
            #expect(lines == newlines + (input.last == 0x0A || input.isEmpty ? 0 : 1))
        }
    }
}

private func frame(_ seq: Int, full: Bool = false) -> Outbound {
    let frame = Frame(time: Double(seq), viewport: Size(width: 1, height: 1), nodes: [], events: [], isAnimating: true)
    return .frameNotification(FrameUpdate(seq: seq, frame: frame, forceFull: full, deltaMode: true))
}

private func describe(_ items: [Outbound]) -> [String] {
    items.map { item in
        switch item {
        case .message(let bytes): String(decoding: bytes, as: UTF8.self)
        case .frameNotification(let frame): "frame \(frame.seq)\(frame.forceFull ? " full" : "")"
        case .composite: "composite"
        }
    }
}

@Suite struct OutboundQueueTests {
    @Test func pendingFramesMergeLatestWinsAndMoveBehindEarlierMessages() {
        let queue = OutboundQueue()
        queue.push([frame(1, full: true), .message(Array("r1".utf8))])
        queue.push([frame(2), .message(Array("g".utf8)), frame(3)])
        #expect(describe(queue.take() ?? []) == ["r1", "g", "frame 3 full"])
        #expect(queue.mergedFrames == 2)
        queue.push([frame(4)])
        #expect(describe(queue.take() ?? []) == ["frame 4"])
    }

    @Test func messagesAreNeverDroppedAndFinishDrains() {
        let queue = OutboundQueue()
        let messages = (0..<1000).map { Outbound.message(Array("m\($0)".utf8)) }
        queue.push(messages)
        queue.finish()
        #expect(describe(queue.take() ?? []).count == 1000)
        #expect(queue.take() == nil)
    }

    @Test func anInterruptedQueueStopsWaitingForRoom() {
        let queue = OutboundQueue(maxPendingBytes: 1)
        queue.push([.message([1, 2, 3])])
        queue.interrupt()
        queue.push([.message([4])])  // over the limit: would block without the interrupt
        queue.finish()
        #expect(describe(queue.take() ?? []).count == 2)
    }

    @Test func aClosedOutputDropsEverythingAndNeverBlocks() {
        let queue = OutboundQueue(maxPendingBytes: 1)
        queue.push([.message([1, 2, 3])])
        queue.close()
        queue.push([.message([4])])  // would block on the limit if the queue were open
        #expect(queue.isClosed)
        #expect(queue.take() == nil)
    }
}
