/// A student's results: exactly ten test scores (seed 000, `Student.scores`). Test numbers are 1-based.
public struct StudentScores: Sendable, Hashable, Codable {
    /// The ten scores, test 1 first.
    public let scores: [Int]

    /// The number of tests every student sits.
    public static let testCount = 10

    /// Throws `ModelError.wrongScoreCount` unless there are exactly ten scores.
    public init(_ scores: [Int]) throws(ModelError) {
        guard scores.count == Self.testCount else { throw .wrongScoreCount(scores.count) }
        self.scores = scores
    }

    /// The score of test `number` (1…10), clamped into range.
    public func score(test number: Int) -> Int {
        scores[min(max(number, 1), Self.testCount) - 1]
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let values = try container.decode([Int].self)
        do {
            try self.init(values)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(scores)
    }
}
