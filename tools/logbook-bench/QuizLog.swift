import Accounts
import EventLog
import EventSourcing
import Foundation
import Quiz

/// A quiz log shaped like real use: players with usernames, then whole games (created with ten
/// questions of four answers, twenty answers, the finish and both results seen), which is what
/// most of such a log is.
enum QuizLog {
    static let players = 1_000
    /// Events of one whole game: created, 2 × 10 answers, finished, 2 results seen.
    static let eventsPerGame = 24

    /// Appends about `events` quiz and account events (no fsync) and returns how many it wrote,
    /// the games' each decided by `QuizDecider` from its command, as a server would.
    static func fill(_ store: LMDBEventStore, events: Int, sealer: EventSealer = .plain) async throws -> Int {
        var batch = DomainEventBatch(store: store, sealer: sealer)
        let hash = PasswordHash(bcrypt: "$2b$04$" + String(repeating: "a", count: 53))!
        for player in 0..<players {
            try await batch.add(AccountEvent.registered(.init(userId: "u\(player)", email: "u\(player)@example.org", passwordHash: hash,
                                                        displayName: "Player \(player)", username: "player\(player)")), by: "u\(player)")
        }
        let questions = (0..<QuizLimits.questionsPerGame).map { n in
            GameQuestion(questionId: "q\(n)", text: "Question number \(n) of the bench?", answers: ["right \(n)", "wrong a", "wrong b", "wrong c"],
                         correctAnswer: "right \(n)")
        }
        let order = Array(repeating: [3, 1, 0, 2], count: questions.count)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var state = QuizDecider.initialState
        func run(_ command: QuizCommand, by actor: String) async throws {
            try await batch.decide(command, with: QuizDecider.self, state: &state, by: actor, at: now)
        }
        for game in 0..<max(1, (events - players) / eventsPerGame) {
            let gameId = "g\(game)"
            let seats = [QuizPlayer(userId: "u\(game % players)", username: "player\(game % players)"),
                         QuizPlayer(userId: "u\((game + 1) % players)", username: "player\((game + 1) % players)")]
            // The first seat invited the second.
            try await run(.createGame(.init(gameId: gameId, challengerId: seats[0].userId, challengerUsername: seats[0].username,
                                            opponent: seats[1], questions: questions, answerOrders: [order, order])), by: seats[0].userId)
            // The second seat's last answer finishes the game.
            for (seat, player) in seats.enumerated() {
                for index in questions.indices {
                    let correct = (index + game + seat) % 3 != 0
                    try await run(.answer(gameId: gameId, index: index, answer: correct ? "right \(index)" : "wrong a"), by: player.userId)
                }
            }
            for player in seats { try await run(.markResultSeen(gameId: gameId), by: player.userId) }
        }
        return try await batch.finish()
    }
}
