/// A flashcard (seed 003, `Card`): a prompt, and the answer revealed by a tap.
public struct Flashcard: Sendable, Hashable, Codable {
    /// The question shown on the front of the card.
    public var prompt: String
    /// The answer, hidden until the card is tapped.
    public var answer: String

    /// A flashcard with a prompt and its answer.
    public init(prompt: String, answer: String) {
        self.prompt = prompt
        self.answer = answer
    }

    /// The seed's own example card (`Card.example`).
    public static let example = Flashcard(
        prompt: "Who played the 13th Doctor in Doctor Who?", answer: "Jodie Whittaker")
}
