import CardJSON
import CardModels

/// The loader fuzz: seeded mutations of valid descriptions — dropped keys, values of the wrong type, huge numbers,
/// deep nesting, self-references, division by zero, edited expressions, duplicated items — each of which must be
/// refused with a pointer to a place in the mutated document, or play with finite frames (`ScenePlayer`, one short
/// session each). A crash or a hang would stop the run; the language and loader are total, so neither can happen
/// by design, and the run shows it. O(count × (description + session)).
package struct LoaderFuzz {
    /// What a run found.
    package struct Report: Sendable, Hashable {
        /// Mutations tried.
        package var mutations = 0
        /// Mutations refused by the loader (or by the scene when opened), each with a valid pointer.
        package var refused = 0
        /// Mutations that loaded and played.
        package var played = 0
        /// Refusals whose pointer names no place in the mutated document.
        package var badPointers: [String] = []
        /// Problems the played sessions found (non-finite numbers, unsettled animations; lint findings are the
        /// description's own business and not counted).
        package var problems: [String] = []
    }

    /// The valid descriptions mutations start from.
    package let bases: [JSONValue]

    /// A fuzz of mutations of `bases`.
    package init(bases: [JSONValue]) { self.bases = bases }

    /// Runs `count` mutations from `seed`.
    package func run(count: Int, seed: UInt64) -> Report {
        var report = Report()
        var random = SplitMix64(seed: seed)
        guard !bases.isEmpty else { return report }
        for index in 0..<count {
            var document = bases[index % bases.count]
            let rounds = Int.random(in: 1...3, using: &random)
            for _ in 0..<rounds { document = Self.mutate(document, random: &random) }
            report.mutations += 1
            let description: SceneDescription
            do {
                description = try SceneDescription.load(document)
            } catch {
                report.refused += 1
                if !Self.resolves(error.pointer, in: document), report.badPointers.count < 20 {
                    report.badPointers.append(
                        "\(error) in \(String(decoding: document.jsonBytes.prefix(400), as: UTF8.self))")
                }
                continue
            }
            var player = ScenePlayer(description)
            player.checksContrast = false
            player.inputs = 4
            let problems = player.play(sessions: 1, seed: random.next()).filter {
                !$0.message.contains("paintOrder") && !$0.message.contains("text")
                    && !$0.message.contains("outsideParent")
                    && !$0.message.contains("missingParent")
            }
            if problems.contains(where: { $0.message.contains("does not open") }) {
                report.refused += 1
                continue
            }
            report.played += 1
            for problem in problems where report.problems.count < 20 {
                report.problems.append("mutation \(index): \(problem)")
            }
        }
        return report
    }

    /// Whether `pointer` names a value of `document`, or a missing member of an object in it (a "missing" fault).
    package static func resolves(_ pointer: String, in document: JSONValue) -> Bool {
        guard !pointer.isEmpty else { return true }
        var tokens = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            $0.replacing("~1", with: "/").replacing("~0", with: "~")
        }
        var value = document
        while !tokens.isEmpty {
            let token = tokens.removeFirst()
            switch value {
            case .object(let members):
                guard let member = members.first(where: { $0.key == token }) else { return tokens.isEmpty }
                value = member.value
            case .array(let items):
                guard let index = Int(token), items.indices.contains(index) else { return false }
                value = items[index]
            default:
                return false
            }
        }
        return true
    }

    // MARK: Mutations

    /// One mutation of `document` at a random place.
    static func mutate(_ document: JSONValue, random: inout SplitMix64) -> JSONValue {
        let places = countPlaces(document)
        let target = Int.random(in: 0..<Swift.max(1, places), using: &random)
        var counter = 0
        let kind = Int.random(in: 0..<9, using: &random)
        return rewrite(document, target: target, counter: &counter, kind: kind, random: &random, depth: 0)
    }

    static func countPlaces(_ value: JSONValue) -> Int {
        switch value {
        case .object(let members): 1 + members.reduce(0) { $0 + countPlaces($1.value) }
        case .array(let items): 1 + items.reduce(0) { $0 + countPlaces($1) }
        default: 1
        }
    }

    static func rewrite(
        _ value: JSONValue, target: Int, counter: inout Int, kind: Int, random: inout SplitMix64, depth: Int
    ) -> JSONValue {
        let here = counter
        counter += 1
        if here == target { return mutated(value, kind: kind, random: &random) }
        switch value {
        case .object(let members):
            return .object(
                members.map {
                    .init(
                        $0.key,
                        rewrite(
                            $0.value, target: target, counter: &counter, kind: kind, random: &random, depth: depth + 1))
                })
        case .array(let items):
            return .array(
                items.map {
                    rewrite($0, target: target, counter: &counter, kind: kind, random: &random, depth: depth + 1)
                })
        default:
            return value
        }
    }

    static let hugeNumbers = [
        "1e308", "-1e308", "1e999", "123456789012345678901234567890", "-0", "4.9e-324", "9007199254740993",
    ]
    static let nastyExpressions = [
        "1 / 0", "x / (x - x)", "0 % 0", "1e308 * 1e308", "sqrt(-1)", "card.column", "expanded",
        "rubberBand(tx, 0, 0, 0)",
        "clamp(1, 5, 0)", "i / n",
        "(((((((((((((((((((((((((((((((((((((((((((((((((((1)))))))))))))))))))))))))))))))))))))))))))))))))",
        "-------------------------------------------------1", "max()", "'done'", "none == none", "card.id",
        "true ? 1 : 'a'",
    ]

    static func mutated(_ value: JSONValue, kind: Int, random: inout SplitMix64) -> JSONValue {
        switch kind {
        case 0:
            // Drop a key.
            guard case .object(var members) = value, !members.isEmpty else { return .null }
            members.remove(at: Int.random(in: 0..<members.count, using: &random))
            return .object(members)
        case 1:
            // A value of another type.
            let choices: [JSONValue] = [.null, .bool(true), .number("7"), .string("seven"), .array([]), .object([])]
            return choices.randomElement(using: &random) ?? .null
        case 2:
            return .number(hugeNumbers.randomElement(using: &random) ?? "1e308")
        case 3:
            // Deep nesting.
            var nested = value
            for _ in 0..<Int.random(in: 10...200, using: &random) { nested = .array([nested]) }
            return nested
        case 4, 5:
            // An expression that refers to itself or another variable, divides by zero, or nests deeply.
            let text = nastyExpressions.randomElement(using: &random) ?? "1 / 0"
            if case .string(let old) = value, Bool.random(using: &random) { return .string("(\(old)) / 0 + " + text) }
            return .string(text)
        case 6:
            // Edit a string: insert, delete or replace a character.
            guard case .string(let text) = value else { return value }
            var scalars = Array(text.unicodeScalars)
            let alphabet: [Unicode.Scalar] = [
                "(", ")", "?", ":", "'", "-", "/", "0", "9", "x", ".", ",", " ", "!", "=",
            ]
            let at = Int.random(in: 0...scalars.count, using: &random)
            if at < scalars.count, Bool.random(using: &random) {
                scalars.remove(at: at)
            } else {
                scalars.insert(alphabet.randomElement(using: &random) ?? "(", at: at)
            }
            var result = ""
            result.unicodeScalars.append(contentsOf: scalars)
            return .string(result)
        case 7:
            // Duplicate an item (an id or a name used twice).
            guard case .array(var items) = value, let item = items.randomElement(using: &random) else { return value }
            items.append(item)
            return .array(items)
        default:
            // A self-reference: the variable's initial value reads a variable.
            guard case .object(var members) = value else { return value }
            members.append(
                .init("initial", .string(["card.column + 1", "expanded", "x", "n / 0"].randomElement(using: &random)!)))
            var seen: Set<String> = []
            return .object(members.reversed().filter { seen.insert($0.key).inserted }.reversed())
        }
    }
}
