/// A change of a scene's persistent state: what the engine hands its front end (`Engine.takeStateChange`) and
/// what the front end hands the saver (`StateSaver.submit`), unchanged. One type from the scene to the store.
///
/// A change is a snapshot to encode (it includes every record submitted before it), journal records to append
/// after what was submitted before, or both (the snapshot first).
public struct StateChange: Sendable {
    /// Encodes the whole state as it was when the change was taken (nil: nothing to save). The saver runs it on its
    /// own thread, off the interaction path.
    public var snapshot: (@Sendable () -> [UInt8]?)?
    /// Changes since the last submission, as JSON texts, in order.
    public var records: [[UInt8]]

    /// A change of a `snapshot` and/or `records`.
    public init(snapshot: (@Sendable () -> [UInt8]?)? = nil, records: [[UInt8]] = []) {
        self.snapshot = snapshot
        self.records = records
    }
}

/// The saver's name for a state change before the engine's and the saver's types became one.
@available(*, deprecated, renamed: "StateChange")
public typealias StateWrite = StateChange
