/// A flashcard (seed 003, `Card`): a prompt, and the answer revealed by a tap.
public struct Flashcard: Sendable, Hashable, Codable {
    public var prompt: String
    public var answer: String

    public init(prompt: String, answer: String) {
        self.prompt = prompt
        self.answer = answer
    }

    /// The seed's own example card (`Card.example`).
    public static let example = Flashcard(
        prompt: "Who played the 13th Doctor in Doctor Who?", answer: "Jodie Whittaker")
}
