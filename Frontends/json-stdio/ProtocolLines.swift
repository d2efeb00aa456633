import CardEngine

/// The protocol's one encoding of frames and engine events, for tools that write what a host would receive
/// (`cardistry replay --json`): each line is exactly what `cardistry stdio` writes, so it validates against
/// `docs/protocol.schema.json` as a server message.
public enum ProtocolLines {
    /// The notifications for `frame`'s events (`gesture`, `haptic`, `deck.changed`) followed by a full `frame`
    /// notification, each without its newline; `seq` is the sequence number of the first and counts on.
    /// O(nodes + text + events).
    public static func lines(for frame: Frame, seq: inout Int) -> [[UInt8]] {
        var revision = 0
        return lines(for: frame, seq: &seq, revision: &revision)
    }

    /// As `lines(for:seq:)`, with `revision` the deck revision before the frame (each `deck.changed` advances it,
    /// as a server's does after `scene.open`).
    public static func lines(for frame: Frame, seq: inout Int, revision: inout Int) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        lines.reserveCapacity(frame.events.count + 1)
        for event in frame.events {
            var stamp: OrderStamp?
            if case .deckChanged(let change) = event {
                revision += 1
                stamp = OrderStamp(change: change, revision: revision, wholeOrder: false)
            }
            lines.append(Messages.event(event, seq: seq, order: stamp))
            seq += 1
        }
        var encoder = FrameEncoder()
        let update = FrameUpdate(seq: seq, frame: frame, forceFull: true, deltaMode: false)
        lines.append(encoder.encode(.frameNotification(update)))
        seq += 1
        return lines
    }
}
