import CardEngine
import CardGeometry
import CardJSON
import CardModels
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

private func frame(_ seq: Int, full: Bool = false, nodes: [FrameNode] = []) -> Outbound {
    let frame = Frame(
        time: Double(seq), viewport: Size(width: 1, height: 1), nodes: nodes, events: [], isAnimating: true)
    return .frameNotification(FrameUpdate(seq: seq, frame: frame, forceFull: full, deltaMode: true))
}

private func message(_ text: String) -> Outbound { .message(Array(text.utf8)) }

/// What the writer would write next: each taken line as text, frames as "frame SEQ" (plus " full").
private func drain(_ queue: OutboundQueue) -> [String] {
    queue.finish()
    var lines: [String] = []
    while let items = queue.take() {
        for item in items {
            let text = String(decoding: item.bytes, as: UTF8.self)
            guard let value = try? JSONValue(parsing: item.bytes), value["method"] == .string("frame") else {
                lines.append(text)
                continue
            }
            let seq = value[path: "params", "seq"]?.integerValue ?? -1
            lines.append("frame \(seq)\(value[path: "params", "full"] == .bool(true) ? " full" : "")")
        }
    }
    return lines
}

@Suite struct OutboundQueueTests {
    @Test func pendingFramesMergeLatestWinsAndMoveBehindEarlierMessages() {
        let queue = OutboundQueue()
        var encoder = OutboundEncoder()
        let first = encoder.push([frame(1, full: true), message("r1")], to: queue)
        let second = encoder.push([frame(2), message("g"), frame(3)], to: queue)
        #expect(first && second)
        #expect(encoder.mergedFrames == 2)
        #expect(drain(queue) == ["r1", "g", "frame 3 full"])
    }

    @Test func aFrameTheWriterTookIsNotMergedAndTheNextIsADeltaAgainstIt() {
        let queue = OutboundQueue()
        var encoder = OutboundEncoder()
        _ = encoder.push([frame(1, full: true)], to: queue)
        #expect(queue.take()?.count == 1)
        _ = encoder.push([frame(2)], to: queue)
        #expect(encoder.mergedFrames == 0)
        #expect(drain(queue) == ["frame 2"])
    }

    @Test func theBoundIsTheRealEncodedBytes() {
        let queue = OutboundQueue()
        var encoder = OutboundEncoder()
        let lines = [message("{\"a\":1}"), frame(1, full: true), message("xyz")]
        _ = encoder.push(lines, to: queue)
        var check = FrameEncoder()
        let expected = lines.map { check.encode($0).count + 1 }.reduce(0, +)
        #expect(queue.waitingBytes == expected)
        _ = queue.take(maxBytes: 1)
        #expect(queue.waitingBytes == expected - 8)
    }

    @Test func takeReturnsBoundedChunks() {
        let queue = OutboundQueue()
        for index in 0..<100 {
            queue.push(OutboundQueue.Item(bytes: [UInt8](repeating: 0x61, count: 100), frame: index))
        }
        #expect(queue.take(maxBytes: 1000)?.count == 9)
        #expect(queue.take(maxBytes: 1)?.count == 1)
    }

    @Test func messagesAreNeverDroppedAndFinishDrains() {
        let queue = OutboundQueue()
        var encoder = OutboundEncoder()
        _ = encoder.push((0..<1000).map { message("m\($0)") }, to: queue)
        #expect(drain(queue).count == 1000)
        #expect(queue.take() == nil)
    }

    @Test func anInterruptedQueueStopsWaitingForRoom() {
        let queue = OutboundQueue(maxPendingBytes: 1)
        queue.push(OutboundQueue.Item(bytes: [1, 2, 3], frame: nil))
        queue.interrupt()
        queue.push(OutboundQueue.Item(bytes: [4], frame: nil))  // over the limit: would block without the interrupt
        queue.finish()
        #expect(queue.take()?.count == 2)
    }

    @Test func aClosedOutputDropsEverythingAndNeverBlocks() {
        let queue = OutboundQueue(maxPendingBytes: 1)
        queue.push(OutboundQueue.Item(bytes: [1, 2, 3], frame: nil))
        queue.close()
        queue.push(OutboundQueue.Item(bytes: [4], frame: nil))  // would block on the limit if the queue were open
        #expect(queue.isClosed)
        #expect(queue.take() == nil)
    }
}
