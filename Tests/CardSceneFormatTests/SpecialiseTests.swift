import CardModels
import CardSceneFormat
import Testing

/// `Expression.specialised`: the folding a layout pass does once per pass must give the same bits as the
/// expression it replaces, for every value of the slots it leaves free.
@Suite struct SpecialiseTests {
    static let texts = [
        "(b - 250 - a * 10) / 2 + (a - b) * 10", "min(450, b - 32) * 1.4 + a", "f ? a / b : b % 0",
        "clamp(a, -b, b) + mix(a, b, 0.5) + rubberBand(a, 0, b, 100)", "max(a, b, 3) - sqrt(b) + floor(a / 7)",
        "c == none ? round(b / 3) : sign(a) * abs(b)", "p == 'done' && f ? 1 : 2 * b",
    ]

    @Test func specialisedExpressionsGiveTheSameBitsForEveryValueOfTheFreeSlots() throws {
        var random = SplitMix64(seed: 50)
        for text in Self.texts {
            let expression = try Expression(text, scope: ExpressionTests.scope)
            for fixedSlots in [[1], [1, 2], [0, 1, 2, 3, 4], [3, 4]] {
                for _ in 0..<200 {
                    let fixedValues = Self.randomValues(&random)
                    let specialised = fixedValues.withUnsafeBufferPointer { buffer in
                        expression.specialised(fixing: fixedSlots.contains, values: buffer)
                    }
                    // The free slots take other values; the fixed ones keep theirs.
                    var values = Self.randomValues(&random)
                    for slot in fixedSlots { values[slot] = fixedValues[slot] }
                    #expect(
                        specialised.evaluate(values) == expression.evaluate(values),
                        "\(text) fixing \(fixedSlots)")
                }
            }
        }
    }

    @Test func partsThatReadOnlyFixedSlotsFoldToConstants() throws {
        let expression = try Expression("(b - 250 - 4 * 10) / 2 + (a - b) * 10", scope: ExpressionTests.scope)
        let values = ExpressionTests.values(a: 3, b: 844)
        let specialised = values.withUnsafeBufferPointer { expression.specialised(fixing: { $0 == 1 }, values: $0) }
        // `(b - 250 - 4 * 10) / 2` and the second `b` fold to constants: `k₁ a k₂ - 10 * +` remains.
        #expect(expression.instructionCount == 15)
        #expect(specialised.instructionCount == 7)
        let all = values.withUnsafeBufferPointer { expression.specialised(fixing: { _ in true }, values: $0) }
        #expect(all.instructionCount == 1)
        #expect(all.isConstant)
        #expect(all.evaluate(values) == expression.evaluate(values))
    }

    static func randomValues(_ random: inout SplitMix64) -> [UInt64] {
        let numbers: [Double] = [0, -0.0, 1, -3.5, 7, 1e12, -1e12, .nan, .infinity, 0.1, 844, 390]
        return [
            numbers.randomElement(using: &random)!.bitPattern, numbers.randomElement(using: &random)!.bitPattern,
            UInt64.random(in: 0...1, using: &random), [Expression.noCard, 7].randomElement(using: &random)!,
            UInt64.random(in: 0...1, using: &random),
        ]
    }
}
