/// What a review question asks for, and so what its answer must be.
public enum QuestionKind: String, Codable, Sendable, CaseIterable {
    /// A whole number from 1 to 5.
    case rating
    /// A yes or no.
    case yesNo
    /// A free text.
    case text

    /// The raw values, for messages: `rating, yesNo, text`.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
