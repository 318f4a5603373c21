import Foundation
import Quiz

/// What a game starts with and never changes: the players, the questions (correct answers
/// included) and the answer orders. Stored once, apart from `GameProgress`, so that each answer
/// rewrites a small row instead of the whole game.
struct GameSetup: Sendable, Equatable {
    var gameId: String
    var createdAt: Date
    /// Challenger first.
    var players: [QuizPlayer]
    var questions: [GameQuestion]
    /// `answerOrders[seat][question]`.
    var answerOrders: [[[Int]]]

    init(_ created: QuizEvent.GameCreated) {
        gameId = created.gameId
        createdAt = created.createdAt
        players = created.players
        questions = created.questions
        answerOrders = created.answerOrders
    }

    func seat(of userId: String) -> Int? {
        players.firstIndex { $0.userId == userId }
    }
}

/// What changes as a game is played, the answers aside: the result and who has seen it.
struct GameProgress: Sendable, Equatable {
    /// The players' user ids by seat, so that an answer finds its seat without the setup.
    var userIds: [String]
    /// Set when the game finished, in seat order.
    var results: [QuizEvent.GameFinished.Result]?
    var finishedAt: Date?
    /// By seat.
    var resultSeen: [Bool]

    init(_ created: QuizEvent.GameCreated) {
        userIds = created.players.map(\.userId)
        resultSeen = Array(repeating: false, count: created.players.count)
    }

    func seat(of userId: String) -> Int? {
        userIds.firstIndex(of: userId)
    }
}

/// One answer as the `answers` table stores it, a row of its own keyed by the answer's
/// position: an answer, most of a quiz log, is then one write without reading the game first.
struct GivenAnswer: Sendable, Equatable {
    /// Who answered; their seat is in `GameProgress`.
    var userId: String
    var correct: Bool
    var points: Int
}

/// A game as the games read model holds it: everything, correct answers included. Only
/// `GameView` and `NextQuestion`, built per viewer, leave the read model.
struct StoredGame: Sendable, Equatable {
    var setup: GameSetup
    var progress: GameProgress
    /// `answers[seat]`, in question order.
    var answers: [[GivenAnswer]]

    /// `progress` with `given`, the game's answers in the order they came, put in their seats.
    init(setup: GameSetup, progress: GameProgress, given: [GivenAnswer]) {
        self.setup = setup
        self.progress = progress
        var answers = [[GivenAnswer]](repeating: [], count: progress.userIds.count)
        for answer in given {
            // The decider takes answers only from the game's players.
            if let seat = progress.seat(of: answer.userId) { answers[seat].append(answer) }
        }
        self.answers = answers
    }

    /// The points of the player in `seat` so far.
    func points(of seat: Int) -> Int {
        answers[seat].reduce(0) { $0 + $1.points }
    }
}

extension GameSetup: ReadModelValue {
    func encode(to writer: inout ValueWriter) {
        writer.write(gameId)
        writer.write(createdAt)
        writer.write(players)
        writer.write(questions)
        writer.write(answerOrders)
    }

    init(from reader: inout ValueReader) throws(ValueDecodingError) {
        gameId = try reader.read()
        createdAt = try reader.read()
        players = try reader.read()
        questions = try reader.read()
        answerOrders = try reader.read()
    }
}

extension GameProgress: ReadModelValue {
    func encode(to writer: inout ValueWriter) {
        writer.write(userIds)
        writer.write(results)
        writer.write(finishedAt)
        writer.write(resultSeen)
    }

    init(from reader: inout ValueReader) throws(ValueDecodingError) {
        userIds = try reader.read()
        results = try reader.read()
        finishedAt = try reader.read()
        resultSeen = try reader.read()
    }
}

extension GivenAnswer: ReadModelValue {
    func encode(to writer: inout ValueWriter) {
        writer.write(userId)
        writer.write(correct)
        writer.write(points)
    }

    init(from reader: inout ValueReader) throws(ValueDecodingError) {
        userId = try reader.read()
        correct = try reader.read()
        points = try reader.read()
    }
}
