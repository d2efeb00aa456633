extension Expression {
    /// The expression with every slot in `fixed` read from `values` and every part that then reads no other slot
    /// folded to a constant: what a layout pass evaluates per card once the values that are the same for every
    /// card (the viewport, the count, the global state, a card size that reads only those) are known.
    ///
    /// Each folded part is computed by `evaluate` itself, on the part's own instructions, so the specialised
    /// expression gives the same bits as the original for every value of the other slots (the folding changes
    /// the work, never the arithmetic: the same operations, in the same order, with the same clamping).
    ///
    /// - Complexity: O(code) instructions evaluated once.
    package func specialised(fixing fixed: (Int) -> Bool, values: UnsafeBufferPointer<UInt64>) -> Expression {
        guard !isConstant else { return self }
        // The postfix code as a stack of parts: each part is the code that pushes one value, and whether that
        // value is known.
        var parts: [(code: [Instruction], known: Bool)] = []
        parts.reserveCapacity(stackDepth)
        for instruction in code {
            let arity = Self.arity(of: instruction)
            switch instruction {
            case .constant:
                parts.append(([instruction], true))
            case .load(let slot), .loadNumber(let slot):
                parts.append(([instruction], fixed(slot)))
            default:
                let operands = parts.suffix(arity)
                parts.removeLast(arity)
                var combined = operands.flatMap(\.code)
                combined.append(instruction)
                parts.append((combined, operands.allSatisfy(\.known)))
            }
            if let last = parts.last, last.known, !(last.code.count == 1 && Self.isConstantInstruction(last.code[0])) {
                let part = Expression(type: type, text: text, code: last.code, stackDepth: Self.depth(of: last.code))
                parts[parts.count - 1] = ([.constant(part.evaluate(values))], true)
            }
        }
        let folded = parts.flatMap(\.code)
        return Expression(type: type, text: text, code: folded, stackDepth: Self.depth(of: folded))
    }

    /// How many values `instruction` takes off the stack.
    static func arity(of instruction: Instruction) -> Int {
        switch instruction {
        case .constant, .load, .loadNumber: 0
        case .negate, .not, .abs, .floor, .round, .sign, .sqrt: 1
        case .add, .subtract, .multiply, .divide, .remainder, .less, .lessOrEqual, .greater, .greaterOrEqual,
            .equalNumber, .notEqualNumber, .equalBits, .notEqualBits, .and, .or:
            2
        case .select, .clamp, .mix: 3
        case .rubberBand: 4
        case .minimum(let count), .maximum(let count): count
        }
    }

    static func isConstantInstruction(_ instruction: Instruction) -> Bool {
        if case .constant = instruction { return true }
        return false
    }

    /// The constant the expression is, when it is one instruction pushing a constant (nil otherwise).
    var constantBits: UInt64? {
        guard code.count == 1, case .constant(let bits) = code[0] else { return nil }
        return bits
    }

    /// The slot the expression reads as a number and does nothing else with (`i`, `x`), nil otherwise.
    var loadedSlot: Int? {
        guard code.count == 1, case .loadNumber(let slot) = code[0] else { return nil }
        return slot
    }
}

extension Expression {
    /// The number of instructions in the compiled program (what specialising shrinks).
    package var instructionCount: Int { code.count }
}
