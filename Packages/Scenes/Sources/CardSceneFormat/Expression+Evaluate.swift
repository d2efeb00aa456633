extension Expression {
    /// The expression's value as raw bits (a number's `bitPattern`, 1 or 0 for a Boolean, a card id's value or
    /// `noCard`, an enumeration value's index) for the variables in `values` (indexed by slot; a slot past the end
    /// reads as 0). O(code); allocates nothing on the heap.
    public func evaluate(_ values: UnsafeBufferPointer<UInt64>) -> UInt64 {
        code.withUnsafeBufferPointer { Self.run($0, stackDepth: stackDepth, values) }
    }

    /// Runs the stack program `code` (which needs `stackDepth` entries) on `values`: `evaluate`'s body, for a
    /// caller that keeps many programs in one buffer (`LayoutPass`). A program of one instruction that pushes a
    /// constant or a number variable is answered without the stack.
    static func run(_ code: UnsafeBufferPointer<Instruction>, stackDepth: Int, _ values: UnsafeBufferPointer<UInt64>)
        -> UInt64
    {
        if code.count == 1 {
            switch code[0] {
            case .constant(let bits): return bits
            case .loadNumber(let slot):
                return slot < values.count ? Expression.finite(Double(bitPattern: values[slot])).bitPattern : 0
            default: break
            }
        }
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: stackDepth) { stack in
            var top = 0
            @inline(__always) func number(_ offset: Int) -> Double { Double(bitPattern: stack[top - offset]) }
            @inline(__always) func replace(_ count: Int, _ value: Double) {
                top -= count - 1
                stack[top - 1] = Expression.finite(value).bitPattern
            }
            @inline(__always) func replace(_ count: Int, bool: Bool) {
                top -= count - 1
                stack[top - 1] = bool ? 1 : 0
            }
            for instruction in code {
                switch instruction {
                case .constant(let bits):
                    stack[top] = bits
                    top += 1
                case .load(let slot):
                    stack[top] = slot < values.count ? values[slot] : 0
                    top += 1
                case .loadNumber(let slot):
                    stack[top] =
                        slot < values.count ? Expression.finite(Double(bitPattern: values[slot])).bitPattern : 0
                    top += 1
                case .add: replace(2, number(2) + number(1))
                case .subtract: replace(2, number(2) - number(1))
                case .multiply: replace(2, number(2) * number(1))
                case .divide:
                    let divisor = number(1)
                    replace(2, divisor == 0 ? 0 : number(2) / divisor)
                case .remainder:
                    let divisor = number(1)
                    replace(2, divisor == 0 ? 0 : number(2).truncatingRemainder(dividingBy: divisor))
                case .negate: replace(1, -number(1))
                case .less: replace(2, bool: number(2) < number(1))
                case .lessOrEqual: replace(2, bool: number(2) <= number(1))
                case .greater: replace(2, bool: number(2) > number(1))
                case .greaterOrEqual: replace(2, bool: number(2) >= number(1))
                case .equalNumber: replace(2, bool: number(2) == number(1))
                case .notEqualNumber: replace(2, bool: number(2) != number(1))
                case .equalBits: replace(2, bool: stack[top - 2] == stack[top - 1])
                case .notEqualBits: replace(2, bool: stack[top - 2] != stack[top - 1])
                case .and: replace(2, bool: stack[top - 2] != 0 && stack[top - 1] != 0)
                case .or: replace(2, bool: stack[top - 2] != 0 || stack[top - 1] != 0)
                case .not: replace(1, bool: stack[top - 1] == 0)
                case .select:
                    let chosen = stack[top - 3] != 0 ? stack[top - 2] : stack[top - 1]
                    top -= 2
                    stack[top - 1] = chosen
                case .minimum(let count):
                    var result = number(count)
                    for offset in 1..<count { result = Swift.min(result, number(offset)) }
                    replace(count, result)
                case .maximum(let count):
                    var result = number(count)
                    for offset in 1..<count { result = Swift.max(result, number(offset)) }
                    replace(count, result)
                case .clamp:
                    let low = number(2)
                    let high = Swift.max(low, number(1))
                    replace(3, Swift.min(Swift.max(number(3), low), high))
                case .mix:
                    let a = number(3)
                    replace(3, a + (number(2) - a) * number(1))
                case .rubberBand:
                    replace(4, Self.rubberBand(number(4), low: number(3), high: number(2), dimension: number(1)))
                case .abs: replace(1, Swift.abs(number(1)))
                case .floor: replace(1, number(1).rounded(.down))
                case .round: replace(1, number(1).rounded(.toNearestOrAwayFromZero))
                case .sign:
                    let x = number(1)
                    replace(1, x > 0 ? 1 : x < 0 ? -1 : 0)
                case .sqrt:
                    let x = number(1)
                    replace(1, x > 0 ? x.squareRoot() : 0)
                }
            }
            return stack[0]
        }
    }

    /// The expression's value as a number (for a number expression).
    public func number(_ values: UnsafeBufferPointer<UInt64>) -> Double {
        Expression.finite(Double(bitPattern: evaluate(values)))
    }

    /// The expression's value as a Boolean (for a Boolean expression).
    public func bool(_ values: UnsafeBufferPointer<UInt64>) -> Bool { evaluate(values) != 0 }

    /// The value as a number, for the variables of an array.
    public func number(_ values: [UInt64]) -> Double { values.withUnsafeBufferPointer { number($0) } }

    /// The value as a Boolean, for the variables of an array.
    public func bool(_ values: [UInt64]) -> Bool { values.withUnsafeBufferPointer { bool($0) } }

    /// Evaluates with the values of an array (a convenience for tests and one-off values).
    public func evaluate(_ values: [UInt64]) -> UInt64 { values.withUnsafeBufferPointer { evaluate($0) } }

    /// UIKit's rubber band of `x` outside `low…high`: the excess `e` beyond the nearer bound becomes
    /// `(1 − 1/(e·0.55/d + 1))·d` (d = `dimension`, at least 1). Inside the range, `x`.
    static func rubberBand(_ x: Double, low: Double, high: Double, dimension: Double) -> Double {
        let high = Swift.max(low, high)
        let d = Swift.max(1, Swift.abs(dimension))
        func band(_ excess: Double) -> Double { (1 - 1 / (excess * 0.55 / d + 1)) * d }
        if x < low { return low - band(low - x) }
        if x > high { return high + band(x - high) }
        return x
    }
}

extension Double {
    /// The bits a number takes in an expression's values.
    @inline(__always)
    var expressionBits: UInt64 { Expression.finite(self).bitPattern }
}
