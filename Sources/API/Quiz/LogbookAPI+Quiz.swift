import Foundation
import Projections
import Quiz

/// The quiz routes (SPEC §4 quiz): commands go through `CommandRunner`, so they are idempotent by
/// `Idempotency-Key` and answered only once the read models include them. Random picks (the
/// opponent, the questions, the answer orders) are made here and passed to the pure decider.
extension LogbookAPI {
    func addQuizQuestion(_ input: Operations.AddQuizQuestion.Input) async throws -> Operations.AddQuizQuestion.Output {
        try requireOperator()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let command = QuizCommand.addQuestion(.init(
            questionId: Routes.newID(), text: body.text, answers: body.answers, correctAnswer: body.correctAnswer, category: body.category))
        let outcome = try await commands.run(QuizDecider.self, command, actor: QuizRoutes.operatorActor)
        guard case let .questionAdded(added)? = outcome.events.first else { throw Problem.internalError }
        return .created(.init(body: .json(.init(questionId: added.questionId, position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    func createQuizGame(_ input: Operations.CreateQuizGame.Input) async throws -> Operations.CreateQuizGame.Output {
        let caller = try authenticate()
        var opponentUsername: String?
        if let body = input.body {
            guard case let .json(game) = body else { throw Routes.unsupportedBody }
            opponentUsername = game.opponentUsername
        }
        let username = try runtime.accounts.profile(caller.userId)?.username
        var generator = SystemRandomNumberGenerator()
        let opponent: PlayerStats?
        if let named = opponentUsername {
            guard let found = try runtime.quiz.player(username: named) else { throw QuizRoutes.playerNotFound(named) }
            opponent = found
        } else {
            opponent = try runtime.quiz.randomOpponent(for: caller.userId, using: &generator)
        }
        let questions = try runtime.quiz.randomQuestions(QuizLimits.questionsPerGame, using: &generator).map(\.gameQuestion)
        let command = QuizCommand.createGame(.init(
            gameId: Routes.newID(), challengerId: caller.userId, challengerUsername: username,
            opponent: opponent.map { QuizPlayer(userId: $0.userId, username: $0.username) }, questions: questions,
            answerOrders: QuizRoutes.answerOrders(for: questions, using: &generator)))
        let outcome = try await commands.run(QuizDecider.self, command, actor: caller.userId)
        // From the events, not from `command`: a retried request answers with what the first made.
        guard case let .gameCreated(created)? = outcome.events.first, created.players.count == 2 else { throw Problem.internalError }
        return .created(.init(body: .json(.init(
            gameId: created.gameId, opponent: QuizRoutes.player(created.players[1]), position: outcome.responsePosition,
            events: outcome.eventTypes))))
    }

    func listQuizGames(_ input: Operations.ListQuizGames.Input) async throws -> Operations.ListQuizGames.Output {
        let caller = try authenticate()
        let page = try ProblemMapping.listQuery {
            try runtime.quiz.games(of: caller.userId, limit: input.query.limit, cursor: input.query.cursor)
        }
        return .ok(.init(body: .json(.init(games: page.games.map(QuizRoutes.summary), next: page.next))))
    }

    func getQuizGame(_ input: Operations.GetQuizGame.Input) async throws -> Operations.GetQuizGame.Output {
        let caller = try authenticate()
        let asOf = projectedPosition
        guard let game = try runtime.quiz.game(input.path.gameId, viewer: caller.userId) else { throw QuizRoutes.gameNotFound }
        let eTag = try await eTag(of: EntityStream.game(input.path.gameId), asOf: asOf)
        return .ok(.init(headers: .init(eTag: eTag), body: .json(QuizRoutes.game(game))))
    }

    func getQuizQuestion(_ input: Operations.GetQuizQuestion.Input) async throws -> Operations.GetQuizQuestion.Output {
        let caller = try authenticate()
        let asOf = projectedPosition
        if let question = try runtime.quiz.nextQuestion(input.path.gameId, viewer: caller.userId) {
            let eTag = try await eTag(of: EntityStream.game(input.path.gameId), asOf: asOf)
            return .ok(.init(headers: .init(eTag: eTag), body: .json(.init(index: question.index, text: question.text, answers: question.answers))))
        }
        // No next question: either every one is answered, or the game is not the caller's.
        guard try runtime.quiz.game(input.path.gameId, viewer: caller.userId) != nil else { throw QuizRoutes.gameNotFound }
        throw ProblemMapping.problem(for: QuizError.allAnswered)
    }

    func answerQuizQuestion(_ input: Operations.AnswerQuizQuestion.Input) async throws -> Operations.AnswerQuizQuestion.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let gameId = input.path.gameId
        let outcome = try await commands.run(QuizDecider.self, .answer(gameId: gameId, index: body.index, answer: body.answer), actor: caller.userId, entity: EntityStream.game(gameId))
        guard case let .answerGiven(given)? = outcome.events.first,
              let points = try runtime.quiz.points(in: gameId, of: caller.userId) else { throw Problem.internalError }
        let finished = outcome.events.contains { if case .gameFinished = $0 { true } else { false } }
        return .created(.init(body: .json(.init(
            correct: given.correct, correctAnswer: given.correctAnswer, pointsAwarded: given.points, points: points,
            answered: given.index + 1, finished: finished, position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    func markQuizResultSeen(_ input: Operations.MarkQuizResultSeen.Input) async throws -> Operations.MarkQuizResultSeen.Output {
        let caller = try authenticate()
        _ = try await commands.run(QuizDecider.self, .markResultSeen(gameId: input.path.gameId), actor: caller.userId, entity: EntityStream.game(input.path.gameId))
        return .noContent(.init())
    }

    func getQuizPlayer(_ input: Operations.GetQuizPlayer.Input) async throws -> Operations.GetQuizPlayer.Output {
        _ = try authenticate()
        guard let stats = try runtime.quiz.player(username: input.path.username) else { throw QuizRoutes.playerNotFound(input.path.username) }
        return .ok(.init(body: .json(QuizRoutes.stats(stats))))
    }

    func getQuizLeaderboard(_ input: Operations.GetQuizLeaderboard.Input) async throws -> Operations.GetQuizLeaderboard.Output {
        _ = try authenticate()
        let players = try ProblemMapping.listQuery { try runtime.quiz.leaderboard(limit: input.query.limit) }
        return .ok(.init(body: .json(.init(players: players.map {
            .init(username: $0.username, won: $0.won, played: $0.played, lost: $0.lost, drawn: $0.drawn)
        }))))
    }
}
