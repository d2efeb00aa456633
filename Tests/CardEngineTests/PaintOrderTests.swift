import CardEngine
import CardGeometry
import CardGestures
import CardModels
import Testing

/// A scene whose layout is a tree chosen by the test: each node names its parent and z.
struct TreeScene: Scene {
    static let descriptor = SceneDescriptor(name: "tree", title: "Tree", summary: "nodes in a tree", seed: "none")
    let deck = Deck()
    var shape: [(id: String, parent: String?, z: Double, clips: Bool)]

    func layout(in viewport: Size) -> [Node] {
        shape.enumerated().map { index, entry in
            Node(
                id: NodeID(entry.id), role: .card, parent: entry.parent.map { NodeID($0) },
                rect: Rect(x: 0, y: Double(index), width: 10, height: 10), z: entry.z, clipsContent: entry.clips)
        }
    }
    mutating func perform(_ action: SceneAction, context: inout SceneContext) throws(SceneError) {
        throw .unknownAction(action.name)
    }
    mutating func handle(_ gesture: GestureEvent<NodeID>, context: inout SceneContext) {}
    mutating func handle(_ key: KeyInput, context: inout SceneContext) -> Bool { false }
    mutating func replaceDeck(_ deck: Deck, context: inout SceneContext) throws(SceneError) {}
}

@Suite struct PaintOrderTests {
    func order(_ shape: [(id: String, parent: String?, z: Double, clips: Bool)]) -> [String] {
        var engine = Engine(scene: TreeScene(shape: shape), viewport: Size(width: 100, height: 100))
        return engine.frame(at: 0).nodes.map(\.id.rawValue)
    }

    /// SwiftUI's composition: z orders siblings only; a later sibling paints over an earlier sibling's whole
    /// subtree (the defect: a flat sort by z painted every card's text over every card).
    @Test func childrenPaintWithTheirParentAndZOrdersSiblingsOnly() {
        let shape: [(id: String, parent: String?, z: Double, clips: Bool)] = [
            ("a", nil, 0, false), ("a.text", "a", 1, false), ("b", nil, 0, false), ("b.text", "b", 1, false),
            ("bg", nil, -1, false),
        ]
        #expect(order(shape) == ["bg", "a", "a.text", "b", "b.text"])
        // A lifted card (z 1 among its siblings) paints over the other card's text, with its own text.
        let lifted: [(id: String, parent: String?, z: Double, clips: Bool)] = [
            ("a", nil, 1, false), ("a.text", "a", 0, false), ("b", nil, 0, false), ("b.text", "b", 5, false),
        ]
        #expect(order(lifted) == ["b", "b.text", "a", "a.text"])
        // Children listed before their parent still paint after it; ties keep layout order.
        let early: [(id: String, parent: String?, z: Double, clips: Bool)] = [
            ("c.2", "c", 0, false), ("c.1", "c", 0, false), ("c", nil, 0, false), ("c.2.x", "c.2", -1, false),
        ]
        #expect(order(early) == ["c", "c.2", "c.2.x", "c.1"])
    }

    /// A parent cycle (a scene bug) still paints every node once.
    @Test func aCycleOfParentsStillPaintsEveryNode() {
        let shape: [(id: String, parent: String?, z: Double, clips: Bool)] = [
            ("x", "y", 0, false), ("y", "x", 0, false), ("root", nil, 0, false),
        ]
        #expect(Set(order(shape)) == ["x", "y", "root"])
        #expect(order(shape).count == 3)
    }

    /// Seeded property test: for random forests of up to 60 nodes, the frame is in depth-first order (the lint
    /// finds nothing), every node appears once, and each node follows its parent.
    @Test func randomTreesPaintDepthFirst() {
        var random = SplitMix64(seed: 0x7233)
        for _ in 0..<2000 {
            let count = 1 + Int(random.next() % 60)
            var shape: [(id: String, parent: String?, z: Double, clips: Bool)] = []
            for index in 0..<count {
                let parent = index > 0 && random.next() % 4 != 0 ? "n\(random.next() % UInt64(index))" : nil
                shape.append(("n\(index)", parent, Double(random.next() % 3) - 1, random.next() % 5 == 0))
            }
            shape.shuffle(using: &random)
            var engine = Engine(scene: TreeScene(shape: shape), viewport: Size(width: 100, height: 100))
            let frame = engine.frame(at: 0)
            #expect(frame.nodes.count == count)
            #expect(FrameLint().findings(in: frame).filter { $0.kind == .paintOrder }.isEmpty)
            var seen: Set<String> = []
            for node in frame.nodes {
                if let parent = node.parent { #expect(seen.contains(parent.rawValue)) }
                seen.insert(node.id.rawValue)
            }
        }
    }

    /// The lint catches a flat z sort: texts after every card, away from their own cards.
    @Test func theLintReportsAFlatZOrder() {
        func node(_ id: String, _ parent: String?, _ z: Double) -> FrameNode {
            FrameNode(
                id: NodeID(id), role: .card, card: nil, parent: parent.map { NodeID($0) },
                rect: Rect(x: 0, y: 0, width: 10, height: 10), z: z, opacity: 1, rotation: 0, scale: 1,
                cornerRadius: 0, fill: nil, stroke: nil, shadow: nil, text: [], matchedGeometryID: nil,
                isLeaving: false)
        }
        let flat = Frame(
            time: 1, viewport: Size(width: 10, height: 10),
            nodes: [node("a", nil, 0), node("b", nil, 0), node("a.text", "a", 1), node("b.text", "b", 1)],
            events: [], isAnimating: true)
        let findings = FrameLint().findings(in: flat)
        #expect(!findings.isEmpty && findings.allSatisfy { $0.kind == .paintOrder })
        #expect(findings.first?.node == "a.text" && findings.first?.time == 1)
    }
}

@Suite struct PlainTextTests {
    /// The defect: the header read "Test  1" (two spaces) because runs were always joined by a space.
    @Test func aRunEndingInASpaceRunsOnIntoTheNext() {
        func node(_ runs: [String]) -> FrameNode {
            FrameNode(
                id: "n", role: .text, card: nil, parent: nil, rect: Rect(x: 0, y: 0, width: 1, height: 1), z: 0,
                opacity: 1, rotation: 0, scale: 1, cornerRadius: 0, fill: nil, stroke: nil, shadow: nil,
                text: runs.map { FrameText(run: TextRun($0)) }, matchedGeometryID: nil, isLeaving: false)
        }
        #expect(node(["Test ", "1"]).plainText == "Test 1")
        #expect(node(["Visa", "4354"]).plainText == "Visa 4354")
        #expect(node([]).plainText == "")
    }
}
