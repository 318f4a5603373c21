import Projections
import Quiz

extension DemoSeeder {
    /// Two quiz games between Ann and Bob on questions of the starter bank: one finished (Ann
    /// wins, Bob has not seen the result yet) and one Bob started and is halfway through.
    /// Returns the ids of the finished and the running game.
    func seedQuiz(ann: String, bob: String) async throws -> (finished: String, running: String) {
        let finished = try await startGame(challenger: ann, opponent: bob)
        // Ann answers every question right; Bob gets the even ones right.
        try await answer(finished, as: ann) { _ in true }
        try await answer(finished, as: bob) { $0.isMultiple(of: 2) }
        _ = try await runner.run(QuizDecider.self, .markResultSeen(gameId: finished.gameId), actor: ann)
        let running = try await startGame(challenger: bob, opponent: ann)
        try await answer(running, as: bob, count: 5) { _ in true }
        try await answer(running, as: ann, count: 3) { $0 != 1 }
        return (finished.gameId, running.gameId)
    }

    /// A new game and the questions it was created with.
    private func startGame(challenger: String, opponent: String) async throws -> (gameId: String, questions: [GameQuestion]) {
        var generator = SystemRandomNumberGenerator()
        let questions = try runtime.quiz.randomQuestions(QuizLimits.questionsPerGame, using: &generator).map(\.gameQuestion)
        let username = { (userId: String) throws -> String in
            guard let name = try runtime.accounts.profile(userId)?.username else { throw AccountsService.accountNotFound }
            return name
        }
        let gameId = Routes.newID()
        let command = QuizCommand.createGame(.init(
            gameId: gameId, challengerId: challenger, challengerUsername: try username(challenger),
            opponent: QuizPlayer(userId: opponent, username: try username(opponent)), questions: questions,
            answerOrders: QuizRoutes.answerOrders(for: questions, using: &generator)))
        _ = try await runner.run(QuizDecider.self, command, actor: challenger)
        return (gameId, questions)
    }

    /// `player` answers their next `count` questions, rightly where `isRight(index)`.
    private func answer(
        _ game: (gameId: String, questions: [GameQuestion]), as player: String, count: Int = QuizLimits.questionsPerGame,
        isRight: (Int) -> Bool
    ) async throws {
        for _ in 0..<count {
            guard let next = try runtime.quiz.nextQuestion(game.gameId, viewer: player) else { return }
            let correct = game.questions[next.index].correctAnswer
            let choice = isRight(next.index) ? correct : next.answers.first { $0 != correct } ?? correct
            _ = try await runner.run(QuizDecider.self, .answer(gameId: game.gameId, index: next.index, answer: choice), actor: player)
        }
    }
}
