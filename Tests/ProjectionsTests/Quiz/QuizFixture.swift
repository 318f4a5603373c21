@testable import Accounts
import EventLog
import EventSourcing
import Foundation
import Quiz
@testable import Projections

/// The quiz read models fed by the real quiz decider, with accounts registered as plain events.
typealias QuizFixture = DeciderFixture<QuizDecider>

extension DeciderFixture where D == QuizDecider {
    convenience init() async throws {
        try await self.init(projections: QuizProjections.all)
    }

    var queries: QuizQueries<LMDBEventStore> { QuizQueries(engine: engine) }

    /// Registers account `userId`, with `username` when given.
    func register(_ userId: String, username: String?) async throws {
        try await append([AccountEvent.registered(.init(
            userId: userId, email: "\(userId)@example.org", passwordHash: Secrets.hash("a"), displayName: userId.capitalized, username: username))], by: userId)
    }

    /// Renames `userId`.
    func rename(_ userId: String, from old: String?, to new: String) async throws {
        try await append([AccountEvent.usernameChanged(.init(userId: userId, oldUsername: old, newUsername: new))], by: userId)
    }

    /// Adds questions `Q0`…`Q<count-1>` to the bank; the right answer of `Qn` is `right n`.
    func addQuestions(_ range: Range<Int>) async throws {
        for n in range {
            try await run(.addQuestion(.init(questionId: "q\(n)", text: "Q\(n)?", answers: ["wrong \(n)", "right \(n)", "other \(n)"],
                                             correctAnswer: "right \(n)")), by: "operator")
        }
    }

    /// Starts game `gameId` of `challenger` against `opponent` on questions q0…q9, each seat
    /// seeing the answers in its own order; the players' usernames are their ids unless given.
    func startGame(
        _ gameId: String, _ challenger: String, against opponent: String,
        challengerUsername: String? = nil, opponentUsername: String? = nil, at now: Date = start
    ) async throws {
        let questions = (0..<10).map { n in
            GameQuestion(questionId: "q\(n)", text: "Q\(n)?", answers: ["wrong \(n)", "right \(n)", "other \(n)"], correctAnswer: "right \(n)")
        }
        let orders = [Array(repeating: [1, 0, 2], count: 10), Array(repeating: [2, 1, 0], count: 10)]
        try await run(.createGame(.init(gameId: gameId, challengerId: challenger, challengerUsername: challengerUsername ?? challenger,
                                        opponent: QuizPlayer(userId: opponent, username: opponentUsername ?? opponent), questions: questions,
                                        answerOrders: orders)), by: challenger, at: now)
    }

    /// `player` answers the next `count` questions of `gameId` from `from`, the first `right` correctly.
    func answer(_ gameId: String, _ player: String, from: Int = 0, count: Int = 10, right: Int = 10) async throws {
        for index in from..<(from + count) {
            let text = index - from < right ? "right \(index)" : "wrong \(index)"
            try await run(.answer(gameId: gameId, index: index, answer: text), by: player)
        }
    }
}
