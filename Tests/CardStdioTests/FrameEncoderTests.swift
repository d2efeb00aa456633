import CardEngine
import CardGeometry
import CardJSON
import CardModels
import CardScenes
import CardTestScenes
import Foundation
import Testing

@testable import CardStdio

/// The wire form of a node as a Codable mirror: Foundation's JSONEncoder is the reference for the hand-written one.
private struct ReferenceNode: Encodable {
    struct Shadow: Encodable {
        var color: String
        var radius: Double
        var dx: Double
        var dy: Double
    }
    struct Run: Encodable {
        var text: String
        var style: String
        var color: String
        var weight: String
        var alignment: String
        var numeric: Bool?
        var rollingFrom: String?
        var digitProgress: [Double]?
    }
    var id: String
    var role: String
    var card: String?
    var parent: String?
    var x, y, width, height, z, opacity, rotation, scale, cornerRadius: Double
    var fill: String?
    var stroke: String?
    var shadow: Shadow?
    var text: String?
    var runs: [Run]?
    var matched: String?
    var leaving: Bool?
    /// The accessibility label: the scene's, else the node's text (never an icon's).
    var label: String?

    static func hex(_ color: RGBA) -> String {
        let channels = [color.red, color.green, color.blue, color.alpha].map { component in
            Int(((component.isFinite ? min(max(component, 0), 1) : 0) * 255).rounded())
        }
        return "#" + channels.map { String(format: "%02x", $0) }.joined()
    }

    init(_ node: FrameNode) {
        id = node.id.rawValue
        role = node.role.rawValue
        card = node.card?.description
        parent = node.parent?.rawValue
        x = node.rect.origin.x
        y = node.rect.origin.y
        width = node.rect.size.width
        height = node.rect.size.height
        z = node.z
        opacity = node.opacity
        rotation = node.rotation
        scale = node.scale
        cornerRadius = node.cornerRadius
        fill = node.fill.map(Self.hex)
        stroke = node.stroke.map(Self.hex)
        shadow = node.shadow.map {
            Shadow(color: Self.hex($0.color), radius: $0.radius, dx: $0.offset.dx, dy: $0.offset.dy)
        }
        if !node.text.isEmpty {
            text = node.plainText
            runs = node.text.map { text in
                Run(
                    text: text.run.text, style: text.run.style.rawValue, color: Self.hex(text.run.color),
                    weight: text.run.weight.rawValue, alignment: text.run.alignment.rawValue,
                    numeric: text.run.isNumeric ? true : nil, rollingFrom: text.rollingFrom,
                    digitProgress: text.rollingFrom == nil ? nil : text.digitProgress)
            }
        }
        matched = node.matchedGeometryID
        leaving = node.isLeaving ? true : nil
        label = node.accessibilityLabel ?? (node.text.isEmpty || node.role == .icon ? nil : node.plainText)
    }
}

/// Seeded random frame nodes covering every optional field.
struct NodeGenerator {
    var random: SplitMix64

    mutating func number() -> Double {
        switch random.next() % 4 {
        case 0: Double(Int(random.next() % 800))
        case 1: Double(random.next() % 100_000) / 1000
        case 2: Double(bitPattern: random.next() >> 2).truncatingRemainder(dividingBy: 1e6)
        default: -Double(random.next() % 1000) / 7
        }
    }

    mutating func text() -> String {
        let pieces = ["Alice", "9", "1", "\u{2028}", "\"", "é", "😀", "\n", "Test 10", ""]
        return (0..<Int(random.next() % 3)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
    }

    mutating func color() -> RGBA {
        RGBA(red: number() / 100, green: Double(random.next() % 256) / 255, blue: 0.5, alpha: 1)
    }

    mutating func flag() -> Bool { random.next() % 2 == 0 }

    mutating func node(id: String) -> FrameNode {
        let roles = NodeRole.allCases
        var runs: [FrameText] = []
        for _ in 0..<Int(random.next() % 3) {
            let run = TextRun(
                text(), style: .headline, color: color(), weight: .bold, alignment: .center, isNumeric: flag())
            runs.append(
                flag() ? FrameText(run: run) : FrameText(run: run, rollingFrom: text(), digitProgress: [0.25, 1]))
        }
        return FrameNode(
            id: NodeID(id), role: roles[Int(random.next() % UInt64(roles.count))],
            card: flag() ? CardID(random.next()) : nil, parent: flag() ? NodeID("parent") : nil,
            rect: Rect(x: number(), y: number(), width: abs(number()), height: abs(number())), z: number(),
            opacity: Double(random.next() % 101) / 100, rotation: number(), scale: 1 + number() / 1000,
            cornerRadius: abs(number()), fill: flag() ? color() : nil, stroke: flag() ? color() : nil,
            shadow: flag() ? Shadow(radius: 4, offset: Vector(dx: 0, dy: number())) : nil, text: runs,
            matchedGeometryID: flag() ? "hero" : nil, isLeaving: flag())
    }
}

/// Compares two JSON values as data: member order does not matter and numbers compare by value.
func sameJSON(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.number, .number): return a.doubleValue == b.doubleValue
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(sameJSON)
    case (.object(let x), .object(let y)):
        guard x.count == y.count else { return false }
        return x.allSatisfy { member in y.contains { $0.key == member.key && sameJSON($0.value, member.value) } }
    default: return a == b
    }
}

@Suite struct FrameEncoderTests {
    @Test func nodesMatchFoundationsJSONEncoder() throws {
        var generator = NodeGenerator(random: SplitMix64(seed: 2024))
        let encoder = JSONEncoder()
        for index in 0..<3000 {
            let node = generator.node(id: "n\(index)")
            var out = JSONOutput()
            FrameJSON.node(node, into: &out)
            let ours = try JSONValue(parsing: out.bytes)
            let reference = try JSONValue(parsing: Array(try encoder.encode(ReferenceNode(node))))
            #expect(sameJSON(ours, reference), "node \(index): \(String(decoding: out.bytes, as: UTF8.self))")
        }
    }

    @Test func nonFiniteValuesAreWrittenAsZero() throws {
        var generator = NodeGenerator(random: SplitMix64(seed: 1))
        var node = generator.node(id: "x")
        node.rect = Rect(x: .nan, y: .infinity, width: -.infinity, height: 1)
        node.rotation = .nan
        var out = JSONOutput()
        FrameJSON.node(node, into: &out)
        let parsed = try JSONValue(parsing: out.bytes)
        #expect(parsed["x"] == .number("0"))
        #expect(parsed["y"] == .number("0"))
        #expect(parsed["rotation"] == .number("0"))
    }

    /// Applies a delta frame to what the host holds, as a host would.
    static func apply(_ frame: JSONValue, to held: inout [String: JSONValue], order: inout [String]) {
        if frame["full"] == .bool(true) {
            held = [:]
            order = []
            for node in frame["nodes"]?.arrayValue ?? [] {
                let id = node["id"]?.stringValue ?? ""
                held[id] = node
                order.append(id)
            }
            return
        }
        for id in frame["removed"]?.arrayValue ?? [] { held[id.stringValue ?? ""] = nil }
        for node in frame["changed"]?.arrayValue ?? [] { held[node["id"]?.stringValue ?? ""] = node }
        if let newOrder = frame["order"]?.arrayValue { order = newOrder.compactMap(\.stringValue) }
        order = order.filter { held[$0] != nil }
    }

    @Test func deltasRebuildEveryFullFrame() throws {
        var generator = NodeGenerator(random: SplitMix64(seed: 99))
        var random = SplitMix64(seed: 5)
        var deltaEncoder = FrameEncoder()
        var fullEncoder = FrameEncoder()
        var nodes = (0..<12).map { generator.node(id: "n\($0)") }
        var held: [String: JSONValue] = [:]
        var order: [String] = []
        var nextID = 12
        for step in 0..<2000 {
            switch random.next() % 5 {
            case 0 where !nodes.isEmpty: nodes.remove(at: Int(random.next() % UInt64(nodes.count)))
            case 1:
                nodes.insert(generator.node(id: "n\(nextID)"), at: Int(random.next() % UInt64(nodes.count + 1)))
                nextID += 1
            case 2 where nodes.count > 1: nodes.swapAt(0, Int(random.next() % UInt64(nodes.count)))
            case 3 where !nodes.isEmpty:
                let index = Int(random.next() % UInt64(nodes.count))
                nodes[index] = generator.node(id: nodes[index].id.rawValue)
            default: break
            }
            let frame = Frame(
                time: Double(step), viewport: Size(width: 390, height: 844), nodes: nodes, events: [], isAnimating: true
            )
            let delta = try JSONValue(
                parsing: deltaEncoder.encode(
                    .frameNotification(FrameUpdate(seq: step + 1, frame: frame, forceFull: false, deltaMode: true))))
            let full = try JSONValue(
                parsing: fullEncoder.encode(
                    .frameNotification(FrameUpdate(seq: step + 1, frame: frame, forceFull: false, deltaMode: false))))
            #expect(delta[path: "params", "full"] == .bool(step == 0))
            Self.apply(delta["params"] ?? .null, to: &held, order: &order)
            let expected = full[path: "params", "nodes"]?.arrayValue ?? []
            let rebuilt = order.compactMap { held[$0] }
            #expect(rebuilt.count == expected.count)
            #expect(zip(rebuilt, expected).allSatisfy(sameJSON), "step \(step)")
        }
    }

    /// A recording's frame digest is taken over the very bytes the server sends a host: the `params` of a full
    /// frame notification with `seq` 0, for every scene of the catalogue (the throwaway sixth too), at rest and
    /// while moving.
    @Test func theServersFullFrameIsWhatARecordingDigests() throws {
        for name in SceneCatalog.testing.names {
            var engine = Engine(scene: try SceneCatalog.testing.make(name), viewport: Size(width: 390, height: 844))
            var frames = [engine.frame(at: 0)]
            engine.handle(.key(KeyInput("right"), time: 0.1))
            engine.handle(.key(KeyInput("enter"), time: 0.2))
            frames += [engine.frame(at: 0.25), engine.frame(at: 5)]
            for frame in frames {
                var encoder = FrameEncoder()
                let line = encoder.encode(
                    .frameNotification(FrameUpdate(seq: 0, frame: frame, forceFull: false, deltaMode: true)))
                let prefix = Array(#"{"jsonrpc":"2.0","method":"frame","params":"#.utf8)
                #expect(Array(line.prefix(prefix.count)) == prefix)
                #expect(Array(line.dropFirst(prefix.count).dropLast()) == InputLog.digestBytes(of: frame), "\(name)")
            }
        }
    }

    @Test func anUnchangedFrameSendsAnEmptyDelta() throws {
        var generator = NodeGenerator(random: SplitMix64(seed: 3))
        let nodes = (0..<5).map { generator.node(id: "n\($0)") }
        let frame = Frame(time: 0, viewport: Size(width: 10, height: 10), nodes: nodes, events: [], isAnimating: false)
        var encoder = FrameEncoder()
        _ = encoder.encode(.frameNotification(FrameUpdate(seq: 1, frame: frame, forceFull: false, deltaMode: true)))
        let second = try JSONValue(
            parsing: encoder.encode(
                .frameNotification(FrameUpdate(seq: 2, frame: frame, forceFull: false, deltaMode: true))))
        #expect(second[path: "params", "changed"] == .array([]))
        #expect(second[path: "params", "removed"] == .array([]))
        #expect(second[path: "params", "order"] == nil)
    }
}
