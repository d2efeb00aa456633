import CardSceneFormat
import Testing

@Suite struct ExpressionTests {
    /// A scope with `a` (number, slot 0), `b` (number, slot 1), `f` (Boolean, slot 2), `c` (card, slot 3) and `p`
    /// (an enumeration of 'todo', 'done', slot 4).
    static let scope: ExpressionScope = {
        var scope = ExpressionScope()
        scope.declare("a", .number)
        scope.declare("b", .number)
        scope.declare("f", .bool)
        scope.declare("c", .card)
        let phase = scope.enumeration(["todo", "done"])
        scope.declare("p", phase)
        return scope
    }()

    static func values(a: Double = 0, b: Double = 0, f: Bool = false, c: UInt64 = Expression.noCard, p: UInt64 = 0)
        -> [UInt64]
    {
        [a.bitPattern, b.bitPattern, f ? 1 : 0, c, p]
    }

    func number(_ text: String, _ values: [UInt64] = values()) throws -> Double {
        let expression = try Expression(text, scope: Self.scope, expected: .number)
        return Double(bitPattern: expression.evaluate(values))
    }

    func bool(_ text: String, _ values: [UInt64] = values()) throws -> Bool {
        try Expression(text, scope: Self.scope, expected: .bool).evaluate(values) != 0
    }

    @Test func arithmeticFollowsPrecedence() throws {
        #expect(try number("1 + 2 * 3") == 7)
        #expect(try number("(1 + 2) * 3") == 9)
        #expect(try number("10 - 4 - 3") == 3)
        #expect(try number("-a + 2", Self.values(a: 5)) == -3)
        #expect(try number("7 % 4") == 3)
        #expect(try number("2 × 3 ÷ 4") == 1.5)
        #expect(try number("1.5e2") == 150)
    }

    @Test func divisionByZeroAndOverflowStayFinite() throws {
        #expect(try number("1 / 0") == 0)
        #expect(try number("a % 0", Self.values(a: 3)) == 0)
        #expect(try number("1e300 * 1e300") == Expression.limit)
        #expect(try number("-1e308 * 10") == -Expression.limit)
        #expect(try number("sqrt(-4)") == 0)
        // A variable holding NaN or infinity reads as a finite number.
        #expect(try number("a", Self.values(a: .nan)) == 0)
        #expect(try number("a + 0", Self.values(a: .infinity)) == Expression.limit)
    }

    @Test func functions() throws {
        #expect(try number("min(3, 1, 2)") == 1)
        #expect(try number("max(3, 1, 2)") == 3)
        #expect(try number("clamp(5, 0, 2)") == 2)
        #expect(try number("clamp(-5, 0, 2)") == 0)
        #expect(try number("abs(-2)") == 2)
        #expect(try number("mix(10, 20, 0.25)") == 12.5)
        #expect(try number("floor(2.7)") == 2)
        #expect(try number("round(2.5)") == 3)
        #expect(try number("round(-2.5)") == -3)
        #expect(try number("sign(-0.1)") == -1)
        #expect(try number("rubberBand(5, 0, 10, 100)") == 5)
        // Beyond the range the excess e becomes (1 − 1/(e·0.55/d + 1))·d: 100 past with d = 100 → 35.48…
        let banded = try number("rubberBand(110, 0, 10, 100)")
        #expect(abs(banded - (10 + (1 - 1 / (100 * 0.55 / 100 + 1)) * 100)) < 1e-9)
        #expect(banded < 110)
    }

    @Test func comparisonsConditionalsAndLogic() throws {
        #expect(try bool("a < b && !f", Self.values(a: 1, b: 2)))
        #expect(try bool("a >= b || f", Self.values(a: 1, b: 2, f: true)))
        #expect(try number("f ? 1 : 2", Self.values(f: true)) == 1)
        #expect(try number("a > 0 ? a : -a", Self.values(a: -4)) == 4)
        #expect(try bool("c == none"))
        #expect(try bool("c != none", Self.values(c: 7)))
        #expect(try bool("p == 'done'", Self.values(p: 1)))
        #expect(try bool("'todo' == p", Self.values(p: 0)))
        #expect(try !bool("p != 'done'", Self.values(p: 1)))
    }

    @Test func assignmentsResolveQuotedValuesAgainstTheTargetType() throws {
        let phase = try #require(Self.scope.variables["p"]).type
        #expect(try Expression("'done'", scope: Self.scope, expected: phase).evaluate(Self.values()) == 1)
        #expect(try Expression("f ? 'todo' : 'done'", scope: Self.scope, expected: phase).evaluate(Self.values()) == 1)
    }

    /// Each refusal names the column of its fault.
    @Test(arguments: [
        ("1 +", 4, "expected a value"),
        ("a + f", 5, "needs a number"),
        ("f ? 1 : true", 9, "branches"),
        ("zz * 2", 1, "unknown variable 'zz'"),
        ("frob(1)", 1, "unknown function"),
        ("clamp(1, 2)", 1, "takes 3 arguments"),
        ("p == 'later'", 6, "is not one of"),
        ("a == c", 6, "cannot compare"),
        ("(1 + 2", 7, "expected ')'"),
        ("1 2", 3, "unexpected"),
        ("", 1, "empty"),
        ("'x'", 1, "quoted"),
    ])
    func refusalsNameTheColumn(text: String, column: Int, message: String) {
        do {
            _ = try Expression(text, scope: Self.scope)
            Issue.record("'\(text)' compiled")
        } catch {
            #expect(error.column == column, "\(text): \(error)")
            #expect(error.message.contains(message), "\(text): \(error)")
        }
    }

    @Test func deepNestingIsRefusedNotOverflowed() {
        let deep = String(repeating: "(", count: 5000) + "1" + String(repeating: ")", count: 5000)
        #expect(throws: ExpressionError.self) { try Expression(deep, scope: Self.scope) }
        // A run of prefix operators is read in a loop, not by recursion: it compiles (1500 negations of 1 are 1).
        let negations = String(repeating: "-", count: 1500) + "1"
        #expect((try? Expression(negations, scope: Self.scope).evaluate([])) == 1.0.bitPattern)
        let nested = String(repeating: "(", count: 40) + "1" + String(repeating: ")", count: 40)
        #expect(throws: Never.self) { try Expression(nested, scope: Self.scope) }
    }

    @Test func typeIsCheckedAgainstWhatTheCallerNeeds() {
        #expect(throws: ExpressionError.self) { try Expression("1 + 2", scope: Self.scope, expected: .bool) }
        #expect(throws: ExpressionError.self) { try Expression("a < b", scope: Self.scope, expected: .number) }
    }
}
