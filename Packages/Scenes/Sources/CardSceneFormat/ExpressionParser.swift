/// Parses, type-checks and compiles an expression in one pass (recursive descent, one function per precedence
/// level, lowest first: `?:`, `||`, `&&`, `== !=`, `< <= > >=`, `+ -`, `* / %`, unary `- !`). O(n) in the text.
struct ExpressionParser {
    /// A parsed operand: a value of a type (its code emitted), or a quoted literal not yet resolved (emitted once
    /// the enumeration it is compared with or assigned to is known).
    enum Operand {
        case value(ExpressionType)
        case quoted(String, column: Int)
    }

    let scalars: [Unicode.Scalar]
    let scope: ExpressionScope
    var position = 0
    var depth = 0
    var code: [Expression.Instruction] = []

    init(text: String, scope: ExpressionScope) {
        self.scalars = Array(text.unicodeScalars)
        self.scope = scope
    }

    var column: Int { position + 1 }

    mutating func parseTop(expected: ExpressionType?) throws(ExpressionError) -> ExpressionType {
        skipSpace()
        guard position < scalars.count else { throw ExpressionError(column: 1, "empty expression") }
        let operand = try parseConditional(expected: expected)
        skipSpace()
        if position < scalars.count {
            throw ExpressionError(column: column, "unexpected '\(scalars[position])'")
        }
        return try resolve(operand, as: expected, column: 1)
    }

    // MARK: Levels

    /// `expected`: the type the caller needs, which a quoted branch of `?:` resolves against.
    mutating func parseConditional(expected: ExpressionType? = nil) throws(ExpressionError) -> Operand {
        try enter()
        defer { depth -= 1 }
        let start = column
        let condition = try parseOr()
        guard consume("?") else { return condition }
        try require(condition, .bool, column: start, "the condition of '?'")
        let thenStart = column
        let first = try resolveIfEnumeration(try parseConditional(expected: expected), expected)
        guard consume(":") else { throw ExpressionError(column: column, "expected ':'") }
        let elseStart = column
        let second = try resolveIfEnumeration(try parseConditional(expected: expected), expected)
        let type: ExpressionType
        switch (first, second) {
        case (.value(let a), .value(let b)):
            guard a == b else {
                throw ExpressionError(column: elseStart, "the branches of '?' differ: \(a) and \(b)")
            }
            type = a
        case (.quoted, .quoted):
            throw ExpressionError(column: thenStart, "a quoted value needs an enumeration to compare with")
        case (.value(let a), .quoted(let text, let at)):
            try emitQuoted(text, as: a, column: at)
            type = a
        case (.quoted(_, let at), .value):
            throw ExpressionError(column: at, "put the quoted value after ':' (or compare it with '==')")
        }
        code.append(.select)
        return .value(type)
    }

    mutating func parseOr() throws(ExpressionError) -> Operand {
        try parseLevel([("||", .or)], of: .bool, "'||'") { (parser) throws(ExpressionError) in try parser.parseAnd() }
    }

    mutating func parseAnd() throws(ExpressionError) -> Operand {
        try parseLevel([("&&", .and)], of: .bool, "'&&'") { (parser) throws(ExpressionError) in
            try parser.parseEquality()
        }
    }

    mutating func parseEquality() throws(ExpressionError) -> Operand {
        var left = try parseComparison()
        while true {
            let equal: Bool
            if consume("==") {
                equal = true
            } else if consume("!=") {
                equal = false
            } else {
                return left
            }
            let at = column
            let right = try parseComparison()
            let type: ExpressionType
            switch (left, right) {
            case (.value(let a), .value(let b)):
                guard a == b else { throw ExpressionError(column: at, "cannot compare a \(a) with a \(b)") }
                type = a
            case (.value(let a), .quoted(let text, let column)):
                try emitQuoted(text, as: a, column: column)
                type = a
            case (.quoted(let text, let column), .value(let b)):
                // Equality is symmetric: the literal may go on the stack after the other side.
                try emitQuoted(text, as: b, column: column)
                type = b
            case (.quoted(_, let column), .quoted):
                throw ExpressionError(column: column, "two quoted values: compare an enumeration with a value")
            }
            if type == .number {
                code.append(equal ? .equalNumber : .notEqualNumber)
            } else {
                code.append(equal ? .equalBits : .notEqualBits)
            }
            left = .value(.bool)
        }
    }

    mutating func parseComparison() throws(ExpressionError) -> Operand {
        let start = column
        let left = try parseAdditive()
        let instruction: Expression.Instruction
        if consume("<=") {
            instruction = .lessOrEqual
        } else if consume(">=") {
            instruction = .greaterOrEqual
        } else if consume("<") {
            instruction = .less
        } else if consume(">") {
            instruction = .greater
        } else {
            return left
        }
        try require(left, .number, column: start, "a comparison")
        let at = column
        try require(try parseAdditive(), .number, column: at, "a comparison")
        code.append(instruction)
        return .value(.bool)
    }

    mutating func parseAdditive() throws(ExpressionError) -> Operand {
        try parseLevel([("+", .add), ("-", .subtract), ("−", .subtract)], of: .number, "arithmetic") {
            (parser) throws(ExpressionError) in try parser.parseMultiplicative()
        }
    }

    mutating func parseMultiplicative() throws(ExpressionError) -> Operand {
        let operators: [(String, Expression.Instruction)] = [
            ("*", .multiply), ("×", .multiply), ("/", .divide), ("÷", .divide), ("%", .remainder),
        ]
        return try parseLevel(operators, of: .number, "arithmetic") { (parser) throws(ExpressionError) in
            try parser.parseUnary()
        }
    }

    /// One left-associative level of binary operators whose operands and result are of `type` (`||`, `&&`, `+ -`,
    /// `* / %`), each operand parsed by `next` (the level above).
    mutating func parseLevel(
        _ operators: [(token: String, instruction: Expression.Instruction)], of type: ExpressionType, _ role: String,
        next: (inout ExpressionParser) throws(ExpressionError) -> Operand
    ) throws(ExpressionError) -> Operand {
        let start = column
        var left = try next(&self)
        while true {
            var found: Expression.Instruction?
            for candidate in operators where consume(candidate.token) {
                found = candidate.instruction
                break
            }
            guard let instruction = found else { return left }
            try require(left, type, column: start, role)
            let at = column
            try require(try next(&self), type, column: at, role)
            code.append(instruction)
            left = .value(type)
        }
    }

    /// Prefix operators, read in a loop (a long run of them costs no recursion), applied innermost first.
    mutating func parseUnary() throws(ExpressionError) -> Operand {
        var prefixes: [(negate: Bool, column: Int)] = []
        while true {
            skipSpace()
            let start = column
            if consume("-") || consume("−") {
                prefixes.append((true, start))
            } else if peek("!") && !peek("!=") {
                position += 1
                prefixes.append((false, start))
            } else {
                break
            }
        }
        var operand = try parsePrimary()
        for prefix in prefixes.reversed() {
            let type: ExpressionType = prefix.negate ? .number : .bool
            try require(operand, type, column: prefix.column + 1, prefix.negate ? "'-'" : "'!'")
            code.append(prefix.negate ? .negate : .not)
            operand = .value(type)
        }
        return operand
    }

    mutating func parsePrimary() throws(ExpressionError) -> Operand {
        skipSpace()
        let start = column
        guard position < scalars.count else { throw ExpressionError(column: start, "expected a value") }
        let scalar = scalars[position]
        if scalar == "(" {
            position += 1
            let inner = try parseConditional()
            guard consume(")") else { throw ExpressionError(column: column, "expected ')'") }
            return inner
        }
        if scalar == "'" {
            position += 1
            var text = ""
            while position < scalars.count, scalars[position] != "'" {
                text.unicodeScalars.append(scalars[position])
                position += 1
            }
            guard position < scalars.count else { throw ExpressionError(column: start, "unterminated quote") }
            position += 1
            return .quoted(text, column: start)
        }
        if Self.isDigit(scalar)
            || (scalar == "." && position + 1 < scalars.count && Self.isDigit(scalars[position + 1]))
        {
            return .value(try parseNumber(start: start))
        }
        guard Self.isIdentifierStart(scalar) else { throw ExpressionError(column: start, "unexpected '\(scalar)'") }
        var name = ""
        while position < scalars.count, Self.isIdentifier(scalars[position]) {
            name.unicodeScalars.append(scalars[position])
            position += 1
        }
        switch name {
        case "true":
            code.append(.constant(1))
            return .value(.bool)
        case "false":
            code.append(.constant(0))
            return .value(.bool)
        case "none":
            code.append(.constant(Expression.noCard))
            return .value(.card)
        default:
            break
        }
        if consume("(") { return .value(try parseCall(name, start: start)) }
        guard let variable = scope.variables[name] else {
            throw ExpressionError(column: start, "unknown variable '\(name)'")
        }
        // A number is read through the finite rule (a host's NaN becomes 0); other values are bits.
        code.append(variable.type == .number ? .loadNumber(variable.slot) : .load(variable.slot))
        return .value(variable.type)
    }

    mutating func parseNumber(start: Int) throws(ExpressionError) -> ExpressionType {
        var text = ""
        while position < scalars.count, Self.isDigit(scalars[position]) || scalars[position] == "." {
            text.unicodeScalars.append(scalars[position])
            position += 1
        }
        if position < scalars.count, scalars[position] == "e" || scalars[position] == "E" {
            text.unicodeScalars.append(scalars[position])
            position += 1
            if position < scalars.count, scalars[position] == "+" || scalars[position] == "-" {
                text.unicodeScalars.append(scalars[position])
                position += 1
            }
            while position < scalars.count, Self.isDigit(scalars[position]) {
                text.unicodeScalars.append(scalars[position])
                position += 1
            }
        }
        guard let value = Double(text) else { throw ExpressionError(column: start, "'\(text)' is not a number") }
        code.append(.constant(Expression.finite(value).bitPattern))
        return .number
    }

    mutating func parseCall(_ name: String, start: Int) throws(ExpressionError) -> ExpressionType {
        let arity: ClosedRange<Int>
        switch name {
        case "min", "max": arity = 1...16
        case "clamp", "mix": arity = 3...3
        case "rubberBand": arity = 4...4
        case "abs", "floor", "round", "sign", "sqrt": arity = 1...1
        default: throw ExpressionError(column: start, "unknown function '\(name)'")
        }
        var count = 0
        if !consume(")") {
            repeat {
                let at = column
                try require(try parseConditional(), .number, column: at, "an argument of \(name)")
                count += 1
            } while consume(",")
            guard consume(")") else { throw ExpressionError(column: column, "expected ')' or ','") }
        }
        guard arity.contains(count) else {
            let wanted = arity.count == 1 ? "\(arity.lowerBound)" : "\(arity.lowerBound) to \(arity.upperBound)"
            throw ExpressionError(column: start, "\(name) takes \(wanted) arguments, not \(count)")
        }
        switch name {
        case "min": code.append(.minimum(count))
        case "max": code.append(.maximum(count))
        case "clamp": code.append(.clamp)
        case "mix": code.append(.mix)
        case "rubberBand": code.append(.rubberBand)
        case "abs": code.append(.abs)
        case "floor": code.append(.floor)
        case "round": code.append(.round)
        case "sign": code.append(.sign)
        default: code.append(.sqrt)
        }
        return .number
    }

    // MARK: Helpers

    mutating func enter() throws(ExpressionError) {
        depth += 1
        guard depth <= Expression.maximumDepth else {
            throw ExpressionError(column: column, "nested more than \(Expression.maximumDepth) deep")
        }
    }

    mutating func require(_ operand: Operand, _ type: ExpressionType, column: Int, _ role: String)
        throws(ExpressionError)
    {
        switch operand {
        case .value(let found):
            guard found == type else {
                throw ExpressionError(column: column, "\(role) needs a \(type), not a \(found)")
            }
        case .quoted(_, let at):
            throw ExpressionError(column: at, "\(role) needs a \(type), not a quoted value")
        }
    }

    /// A quoted operand emitted as a value of `expected` when that is an enumeration; other operands unchanged.
    mutating func resolveIfEnumeration(_ operand: Operand, _ expected: ExpressionType?) throws(ExpressionError)
        -> Operand
    {
        guard case .quoted(let text, let at) = operand, let expected, case .enumeration = expected else {
            return operand
        }
        try emitQuoted(text, as: expected, column: at)
        return .value(expected)
    }

    mutating func resolve(_ operand: Operand, as expected: ExpressionType?, column: Int) throws(ExpressionError)
        -> ExpressionType
    {
        switch operand {
        case .value(let type): return type
        case .quoted(let text, let at):
            guard let expected else {
                throw ExpressionError(column: at, "a quoted value needs an enumeration to compare with")
            }
            try emitQuoted(text, as: expected, column: at)
            return expected
        }
    }

    mutating func emitQuoted(_ text: String, as type: ExpressionType, column: Int) throws(ExpressionError) {
        guard case .enumeration(let index) = type, index < scope.enumerations.count else {
            throw ExpressionError(column: column, "'\(text)' is quoted but compared with a \(type)")
        }
        guard let value = scope.enumerations[index].firstIndex(of: text) else {
            let values = scope.enumerations[index].map { "'\($0)'" }.joined(separator: ", ")
            throw ExpressionError(column: column, "'\(text)' is not one of \(values)")
        }
        code.append(.constant(UInt64(value)))
    }

    mutating func skipSpace() {
        while position < scalars.count,
            scalars[position] == " " || scalars[position] == "\t"
                || scalars[position] == "\n"
        {
            position += 1
        }
    }

    func peek(_ token: String) -> Bool {
        var index = position
        while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" || scalars[index] == "\n" {
            index += 1
        }
        for scalar in token.unicodeScalars {
            guard index < scalars.count, scalars[index] == scalar else { return false }
            index += 1
        }
        return true
    }

    /// Consumes `token` after any spaces (and the spaces after it); false, consuming nothing, when it is not next.
    mutating func consume(_ token: String) -> Bool {
        skipSpace()
        guard peek(token) else { return false }
        position += token.unicodeScalars.count
        skipSpace()
        return true
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
    }
    static func isIdentifier(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || isDigit(scalar) || scalar == "."
    }
}
