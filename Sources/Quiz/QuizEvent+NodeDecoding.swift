import EventSourcing

// The quiz's most frequent events read straight from the scanned JSON (`NodeDecodable`): a
// game is mostly answers, then its result and who has seen it; its creation, with ten questions
// and the answer orders, was an eighth of a quiz rebuild through `init(from:)`. Key for key what the
// synthesized `init(from:)` reads; `QuizEventJSONTests` checks the two agree.

extension QuizOutcome: NodeReadable {}

extension QuizPlayer: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(userId: try object.value("userId"), username: try object.value("username"))
    }
}

extension GameQuestion: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(
            questionId: try object.value("questionId"), text: try object.value("text"), answers: try object.value("answers"),
            correctAnswer: try object.value("correctAnswer"))
    }
}

extension QuizEvent.GameCreated: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(
            gameId: try object.value("gameId"), players: try object.value("players"), questions: try object.value("questions"),
            answerOrders: try object.value("answerOrders"), createdAt: try object.value("createdAt"))
    }
}

extension QuizEvent.AnswerGiven: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(
            gameId: try object.value("gameId"), userId: try object.value("userId"), index: try object.value("index"),
            answer: try object.value("answer"), correct: try object.value("correct"), correctAnswer: try object.value("correctAnswer"),
            points: try object.value("points"), answeredAt: try object.value("answeredAt"))
    }
}

extension QuizEvent.GameFinished.Result: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(userId: try object.value("userId"), points: try object.value("points"), outcome: try object.value("outcome"))
    }
}

extension QuizEvent.GameFinished: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(gameId: try object.value("gameId"), results: try object.value("results"), finishedAt: try object.value("finishedAt"))
    }
}

extension QuizEvent.ResultSeen: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(gameId: try object.value("gameId"), userId: try object.value("userId"))
    }
}
