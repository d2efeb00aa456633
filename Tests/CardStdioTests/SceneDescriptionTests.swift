import CardEngine
import CardJSON
import CardTestScenes
import Testing

@testable import CardStdio

/// The protocol describes a catalogue's scenes from their descriptors alone: `initialize`'s and `scene.list`'s
/// names and details, and `scene.open`'s title, actions (with their arguments and schema) and keys. Over the
/// catalogue with the throwaway sixth scene, which no line of the server names.
@Suite struct SceneDescriptionTests {
    static let catalog = SceneCatalog.testing

    @Test func initializeAndSceneListDescribeEveryScene() {
        var harness = Harness(catalog: Self.catalog)
        let names = JSONValue.array(Self.catalog.names.map(JSONValue.string))
        let reply = harness.request(
            0, "initialize", #"{"protocolVersion":"1.0","viewport":{"width":390,"height":844}}"#
        ).response
        #expect(reply?[path: "result", "scenes"] == names)
        let list = harness.request(1, "scene.list").response?["result"]
        #expect(list?["scenes"] == names)
        let details = list?["details"]?.arrayValue ?? []
        #expect(details.count == Self.catalog.descriptors.count)
        for (detail, descriptor) in zip(details, Self.catalog.descriptors) {
            #expect(detail["name"] == .string(descriptor.name))
            #expect(detail["title"] == .string(descriptor.title))
            #expect(detail["summary"] == .string(descriptor.summary))
            #expect(detail["takesDeck"] == .bool(descriptor.takesDeck))
            #expect(detail["takesCardCount"] == .bool(descriptor.takesCardCount))
        }
    }

    @Test(arguments: SceneCatalog.testing.descriptors)
    func sceneOpenDescribesTheScene(descriptor: SceneDescriptor) throws {
        var harness = Harness(catalog: Self.catalog)
        harness.initialize()
        let opened = try #require(
            harness.request(1, "scene.open", #"{"scene":"\#(descriptor.name)"}"#).response?["result"])
        #expect(opened["scene"] == .string(descriptor.name))
        #expect(opened["title"] == .string(descriptor.title))
        let actions = opened["actions"]?.arrayValue ?? []
        #expect(actions.map { $0["name"]?.stringValue } == descriptor.actions.map(\.name))
        for (action, info) in zip(actions, descriptor.actions) {
            #expect(action["summary"] == .string(info.summary))
            guard case .object(let arguments)? = action["arguments"] else {
                Issue.record("\(descriptor.name).\(info.name): no arguments object")
                continue
            }
            #expect(arguments.map(\.key) == info.arguments.map(\.name))
            let properties = action[path: "schema", "properties"]
            for argument in info.arguments {
                #expect(
                    properties?[argument.name] != nil, "\(descriptor.name).\(info.name): no schema for \(argument.name)"
                )
            }
        }
        let keys = opened["keys"]?.arrayValue ?? []
        #expect(keys.count == descriptor.keyHelp.count)
        for (key, help) in zip(keys, descriptor.keyHelp) {
            #expect(key["label"] == .string(help.keys))
            #expect(key["summary"] == .string(help.summary))
            #expect(key["keys"] == .array(help.names.map(JSONValue.string)))
        }
        let nodes = opened[path: "frame", "nodes"]?.arrayValue ?? []
        #expect(!nodes.isEmpty, "\(descriptor.name): an empty frame")
    }
}
