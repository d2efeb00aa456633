import CardEngine
import CardJSON

extension SceneDefiner {
    /// Loads descriptions as `DescribedScene`s: the definer the command line hands its front ends.
    public static let described = SceneDefiner { (json) throws(SceneDefinitionError) -> SceneCatalog.Entry in
        try SceneDescription.load(json).catalogEntry
    }
}

extension SceneDescription {
    /// A catalogue entry that opens this description.
    public var catalogEntry: SceneCatalog.Entry {
        SceneCatalog.Entry(descriptor: descriptor) { options throws(SceneError) in
            try DescribedScene(description: self, options: options)
        }
    }
}
