import EventSourcing

// What of the quiz's events is whose personal data (ADR 0004): a player's username, which reads
// "Deleted user" once they are erased. Answers, points and outcomes stay: the other player's
// game and score do not change. Questions are the quiz's, not anyone's personal data.

extension QuizPlayer: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.text(\.username, of: \.userId, erased: PersonalDataSeal.deletedUser)]
}

extension QuizEvent.GameCreated: PersonalData {
    public static let personalFields: [PersonalField<Self>] = [.each(\.players)]
}
