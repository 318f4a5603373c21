/// The bounds the quiz decider enforces, so that a game's events and state stay small.
public enum QuizLimits {
    /// Questions in one game.
    public static let questionsPerGame = 10
    /// A question's text, in characters after trimming.
    public static let questionTextCharacters = 1...300
    /// Answers a question offers.
    public static let answersPerQuestion = 2...6
    /// One answer's text, in characters after trimming.
    public static let answerCharacters = 1...120
    /// A question's optional category, in characters after trimming.
    public static let categoryCharacters = 1...40
    /// Points a correct answer earns; a wrong one earns none.
    public static let pointsPerCorrectAnswer = 1
}
