import EventSourcing

extension QuizDecider {
    /// A game between the actor and a different opponent, both with usernames, on distinct
    /// questions, with an answer order per player and question.
    static func createGame(_ game: QuizCommand.NewGame, state: QuizState, metadata: CommandMetadata) throws(QuizError) -> [QuizEvent] {
        guard game.challengerId == metadata.actor else { throw .actorMismatch }
        guard let username = game.challengerUsername else { throw .usernameRequired }
        guard let opponent = game.opponent else { throw .noOpponent }
        guard opponent.userId != game.challengerId else { throw .cannotChallengeYourself }
        guard state.games[game.gameId] == nil else { throw .idTaken }
        let questions = game.questions
        guard questions.count >= QuizLimits.questionsPerGame else { throw .notEnoughQuestions(available: questions.count) }
        var errors: [FieldError] = []
        if questions.count != QuizLimits.questionsPerGame || Set(questions.map(\.questionId)).count != questions.count {
            errors.append(FieldError("questions", "must be \(QuizLimits.questionsPerGame) distinct questions"))
        }
        if !questions.allSatisfy({ $0.answers.contains($0.correctAnswer) }) {
            errors.append(FieldError("questions", "each correct answer must be one of its answers"))
        }
        if !isValid(game.answerOrders, for: questions) {
            errors.append(FieldError("answerOrders", "must give each player a permutation of each question's answers"))
        }
        guard errors.isEmpty else { throw .validationFailed(errors) }
        let players = [QuizPlayer(userId: game.challengerId, username: username), opponent]
        return [.gameCreated(.init(gameId: game.gameId, players: players, questions: questions,
                                   answerOrders: game.answerOrders, createdAt: metadata.now))]
    }

    /// The actor's answer to their next question; the game's end with the answer that completes it.
    static func answerQuestion(_ gameId: String, index: Int, answer: String, state: QuizState, metadata: CommandMetadata) throws(QuizError) -> [QuizEvent] {
        let (game, seat) = try playerGame(gameId, actor: metadata.actor, state: state)
        let answered = game.answers[seat].count
        guard (0..<game.questions.count).contains(index) else {
            throw .validationFailed([FieldError("index", "must be from 0 to \(game.questions.count - 1)")])
        }
        guard answered < game.questions.count else { throw .allAnswered }
        guard index >= answered else { throw .alreadyAnswered }
        guard index == answered else { throw .outOfOrder(expected: answered) }
        let question = game.questions[index]
        let chosen = answer.trimmingCharacters(in: .whitespacesAndNewlines)
        guard question.answers.contains(chosen) else { throw .notAnOption }
        let correct = chosen == question.correctAnswer
        let given = QuizEvent.AnswerGiven(
            gameId: gameId, userId: metadata.actor, index: index, answer: chosen, correct: correct, correctAnswer: question.correctAnswer,
            points: correct ? QuizLimits.pointsPerCorrectAnswer : 0, answeredAt: metadata.now)
        var answers = game.answers
        answers[seat].append(given)
        guard answers.allSatisfy({ $0.count == game.questions.count }) else { return [.answerGiven(given)] }
        return [.answerGiven(given), .gameFinished(finish(gameId, game.players, answers, at: metadata))]
    }

    /// Nothing when already seen; refused while the game runs.
    static func markResultSeen(_ gameId: String, state: QuizState, actor: String) throws(QuizError) -> [QuizEvent] {
        let (game, _) = try playerGame(gameId, actor: actor, state: state)
        guard game.isFinished else { throw .gameNotFinished }
        if game.resultSeenBy.contains(actor) { return [] }
        return [.resultSeen(.init(gameId: gameId, userId: actor))]
    }

    /// The game and the actor's seat; not-found for outsiders, so a game's existence stays private.
    private static func playerGame(_ gameId: String, actor: String, state: QuizState) throws(QuizError) -> (QuizState.Game, Int) {
        guard let game = state.games[gameId], let seat = game.seat(of: actor) else { throw .gameNotFound }
        return (game, seat)
    }

    private static func finish(
        _ gameId: String, _ players: [QuizPlayer], _ answers: [[QuizEvent.AnswerGiven]], at metadata: CommandMetadata
    ) -> QuizEvent.GameFinished {
        assert(players.count == 2 && answers.count == 2, "a game has two players")
        let points = answers.map { $0.reduce(0) { $0 + $1.points } }
        let results = players.indices.map { seat in
            let (mine, theirs) = (points[seat], points[1 - seat])
            let outcome: QuizOutcome = mine > theirs ? .won : mine < theirs ? .lost : .draw
            return QuizEvent.GameFinished.Result(userId: players[seat].userId, points: mine, outcome: outcome)
        }
        return .init(gameId: gameId, results: results, finishedAt: metadata.now)
    }

    /// Two players' orders, each a permutation of its question's answer indexes.
    private static func isValid(_ orders: [[[Int]]], for questions: [GameQuestion]) -> Bool {
        orders.count == 2 && orders.allSatisfy { perPlayer in
            perPlayer.count == questions.count
                && zip(perPlayer, questions).allSatisfy { $0.sorted() == Array($1.answers.indices) }
        }
    }
}
