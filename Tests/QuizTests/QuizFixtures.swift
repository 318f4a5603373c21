import EventSourcing
import Foundation
@testable import Quiz

/// Players, questions and common events shared by the quiz tests.
enum Fixture {
    static let game = "0193c0de-0000-7000-8000-00000000009a"
    static let ann = QuizPlayer(userId: "0193c0de-0000-7000-8000-0000000000a1", username: "ann")
    static let bob = QuizPlayer(userId: "0193c0de-0000-7000-8000-0000000000b2", username: "Bob")
    static let cat = QuizPlayer(userId: "0193c0de-0000-7000-8000-0000000000c3", username: "cat")
    /// Millisecond-exact, so it survives the JSON round trip unchanged.
    static let now = Date(timeIntervalSince1970: 1_790_000_000.25)

    /// The metadata of a command by `actor` at `now`.
    static func by(_ actor: QuizPlayer, at time: Date = now) -> CommandMetadata {
        CommandMetadata(actor: actor.userId, now: time, commandID: UUID())
    }

    /// Ten questions; the right answer of question `n` is "right n".
    static let questions: [GameQuestion] = (0..<10).map { n in
        GameQuestion(questionId: "q\(n)", text: "Question \(n)?", answers: ["wrong \(n)", "right \(n)", "other \(n)"], correctAnswer: "right \(n)")
    }

    /// Each player sees each question's answers reversed.
    static let orders: [[[Int]]] = [Array(repeating: [2, 1, 0], count: 10), Array(repeating: [2, 1, 0], count: 10)]

    static func newGame(
        _ gameId: String = game, challenger: QuizPlayer = ann, username: String?? = .none, opponent: QuizPlayer? = bob,
        questions: [GameQuestion] = questions, orders: [[[Int]]] = orders
    ) -> QuizCommand {
        .createGame(.init(gameId: gameId, challengerId: challenger.userId, challengerUsername: username ?? challenger.username,
                          opponent: opponent, questions: questions, answerOrders: orders))
    }

    static let created = QuizEvent.gameCreated(.init(gameId: game, players: [ann, bob], questions: questions,
                                                     answerOrders: orders, createdAt: now))

    static func given(_ player: QuizPlayer, _ index: Int, correct: Bool = true) -> QuizEvent {
        .answerGiven(.init(gameId: game, userId: player.userId, index: index, answer: correct ? "right \(index)" : "wrong \(index)",
                           correct: correct, correctAnswer: "right \(index)", points: correct ? 1 : 0, answeredAt: now))
    }

    /// `player` answered questions `0..<count`, the first `right` of them correctly.
    static func answers(_ player: QuizPlayer, count: Int = 10, right: Int = 10) -> [QuizEvent] {
        (0..<count).map { given(player, $0, correct: $0 < right) }
    }

    static func answer(_ index: Int, _ text: String) -> QuizCommand {
        .answer(gameId: game, index: index, answer: text)
    }
}
