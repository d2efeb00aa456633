import CardCells
import CardEngine

/// What `cardistry replay` needs of the terminal UI to replay its recordings.
package enum TUIRecording {
    /// The terminal's text measurer a recording named (`cells …`), or nil.
    package static func measurer(recordedAs name: String) -> (any TextMeasurer)? {
        CellTextMeasurer.measurer(recordedAs: name)
    }
}
