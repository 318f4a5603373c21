import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// The quiz routes through HTTP: the bank, games played by two players with a pause, and every
/// refusal, including a third user trying to look and to answer.
@Suite("Quiz routes", .timeLimit(.minutes(3)))
struct QuizRouteTests {
    /// A server whose empty data directory got its first start (the starter bank).
    private func startedServer(operatorToken: String? = nil) async throws -> TestServer {
        let server = try TestServer { $0.operatorToken = operatorToken }
        let summary = try await prepareFirstStart(runtime: server.runtime, demo: false)
        #expect((summary?.questionsImported ?? 0) >= 60)
        return server
    }

    /// Answers the caller's next question with its first option; the reply.
    private func answerNext(_ client: any TestClientProtocol, _ gameId: String, token: String) async throws -> Reply {
        let question = try await client.send(.get, "/v1/quiz/games/\(gameId)/question", token: token)
        try #require(question.status == .ok, "\(question.text)")
        let index = try #require(question.json["index"] as? Int)
        let option = try #require((question.json["answers"] as? [String])?.first)
        return try await client.send(.post, "/v1/quiz/games/\(gameId)/answers", json: ["index": index, "answer": option], token: token)
    }

    @Test func twoPlayersPlayAGameWithAPauseWhileAThirdUserIsKeptOut() async throws {
        let server = try await startedServer()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org", displayName: "Ann", username: "ann").token
            let bob = try await client.register("bob@example.org", displayName: "Bob", username: "Bob").token
            let cat = try await client.register("cat@example.org", displayName: "Cat", username: "cat").token
            let created = try await client.send(.post, "/v1/quiz/games", json: ["opponentUsername": "BOB"], token: ann)
            try #require(created.status == .created, "\(created.text)")
            let gameId = try #require(created.json["gameId"] as? String)
            #expect((created.json["opponent"] as? [String: Any])?["username"] as? String == "Bob")
            #expect(created.json["events"] as? [String] == ["quiz.gameCreated"])

            let first = try await client.send(.get, "/v1/quiz/games/\(gameId)/question", token: ann)
            #expect(first.json["index"] as? Int == 0 && (first.json["answers"] as? [String])?.count ?? 0 >= 2)
            #expect(!first.text.contains("correct"), "the correct answer never leaves before the question is answered")
            for _ in 0..<5 { #expect(try await answerNext(client, gameId, token: ann).status == .created) }
            for _ in 0..<3 { #expect(try await answerNext(client, gameId, token: bob).status == .created) }

            // Ann pauses: her view, then the same next question in the same order when she resumes.
            var view = try await client.send(.get, "/v1/quiz/games/\(gameId)", token: ann)
            #expect(view.json["status"] as? String == "running" && view.json["questionCount"] as? Int == 10)
            let me = view.json["me"] as? [String: Any], opponent = view.json["opponent"] as? [String: Any]
            #expect(me?["answered"] as? Int == 5 && me?["points"] is Int)
            #expect(opponent?["answered"] as? Int == 3 && opponent?["points"] == nil, "no opponent points while running")
            #expect(view.json["outcome"] == nil)
            let paused = try await client.send(.get, "/v1/quiz/games/\(gameId)/question", token: ann)
            let resumed = try await client.send(.get, "/v1/quiz/games/\(gameId)/question", token: ann)
            #expect(paused.json["index"] as? Int == 5 && paused.text == resumed.text)

            let options = try #require(paused.json["answers"] as? [String])
            let outOfOrder = try await client.send(.post, "/v1/quiz/games/\(gameId)/answers", json: ["index": 7, "answer": options[0]], token: ann)
            #expect(outOfOrder.status == .conflict && outOfOrder.code == "out_of_order" && outOfOrder.isProblem)
            let twice = try await client.send(.post, "/v1/quiz/games/\(gameId)/answers", json: ["index": 4, "answer": options[0]], token: ann)
            #expect(twice.status == .conflict && twice.code == "already_answered")
            let notAnOption = try await client.send(.post, "/v1/quiz/games/\(gameId)/answers", json: ["index": 5, "answer": "none of these"], token: ann)
            #expect(notAnOption.status == .unprocessableContent && notAnOption.code == "not_an_option" && notAnOption.fieldsInError == ["answer"])
            let wrongType = try await client.send(.post, "/v1/quiz/games/\(gameId)/answers", json: ["index": "five", "answer": options[0]], token: ann)
            #expect(wrongType.isProblem && (400..<500).contains(wrongType.status.code))
            let missing = try await client.send(.post, "/v1/quiz/games/\(gameId)/answers", json: ["index": 5], token: ann)
            #expect(missing.isProblem && (400..<500).contains(missing.status.code))
            #expect(try await client.send(.post, "/v1/quiz/games/\(gameId)/result-seen", token: ann).code == "game_not_finished")

            // Cat is not a player: she learns nothing and changes nothing.
            for path in ["", "/question"] {
                let look = try await client.send(.get, "/v1/quiz/games/\(gameId)\(path)", token: cat)
                #expect(look.status == .notFound && look.code == "game_not_found")
            }
            let meddle = try await client.send(.post, "/v1/quiz/games/\(gameId)/answers", json: ["index": 3, "answer": options[0]], token: cat)
            #expect(meddle.status == .notFound && meddle.code == "game_not_found")
            #expect(try await client.send(.post, "/v1/quiz/games/\(gameId)/result-seen", token: cat).status == .notFound)
            let catsGames = try await client.send(.get, "/v1/quiz/games", token: cat)
            #expect((catsGames.json["games"] as? [Any])?.isEmpty == true)

            var last = Reply(status: .ok, headers: [:], body: Data())
            for _ in 0..<5 { last = try await answerNext(client, gameId, token: ann) }
            #expect(last.json["answered"] as? Int == 10 && last.json["finished"] as? Bool == false)
            #expect(last.json["correctAnswer"] is String && last.json["correct"] is Bool && last.json["pointsAwarded"] is Int)
            let done = try await client.send(.get, "/v1/quiz/games/\(gameId)/question", token: ann)
            #expect(done.status == .conflict && done.code == "all_answered")
            for _ in 0..<7 { last = try await answerNext(client, gameId, token: bob) }
            #expect(last.json["finished"] as? Bool == true && last.json["events"] as? [String] == ["quiz.answerGiven", "quiz.gameFinished"])

            view = try await client.send(.get, "/v1/quiz/games/\(gameId)", token: ann)
            let annPoints = try #require((view.json["me"] as? [String: Any])?["points"] as? Int)
            let bobPoints = try #require((view.json["opponent"] as? [String: Any])?["points"] as? Int, "shown once finished")
            let expected = annPoints > bobPoints ? "won" : annPoints < bobPoints ? "lost" : "draw"
            #expect(view.json["status"] as? String == "finished" && view.json["outcome"] as? String == expected)

            var games = try await client.send(.get, "/v1/quiz/games", token: bob)
            var summary = (games.json["games"] as? [[String: Any]])?.first
            #expect(summary?["gameId"] as? String == gameId && summary?["status"] as? String == "finished")
            #expect(summary?["resultSeen"] as? Bool == false && summary?["myAnswered"] as? Int == 10 && summary?["opponentPoints"] as? Int == annPoints)
            #expect(try await client.send(.post, "/v1/quiz/games/\(gameId)/result-seen", token: bob).status == .noContent)
            #expect(try await client.send(.post, "/v1/quiz/games/\(gameId)/result-seen", token: bob).status == .noContent, "idempotent")
            games = try await client.send(.get, "/v1/quiz/games", token: bob)
            summary = (games.json["games"] as? [[String: Any]])?.first
            #expect(summary?["resultSeen"] as? Bool == true)

            let stats = try await client.send(.get, "/v1/quiz/players/ANN", token: cat)
            #expect(stats.status == .ok && stats.json["played"] as? Int == 1 && stats.json["username"] as? String == "ann")
            let wins = (stats.json["won"] as? Int ?? 0) + (stats.json["lost"] as? Int ?? 0) + (stats.json["drawn"] as? Int ?? 0)
            #expect(wins == 1)
            #expect(try await client.send(.get, "/v1/quiz/players/nobody", token: cat).code == "player_not_found")
            let board = try await client.send(.get, "/v1/quiz/leaderboard", token: cat)
            let names = (board.json["players"] as? [[String: Any]])?.compactMap { $0["username"] as? String } ?? []
            #expect(Set(names) == ["ann", "Bob"])
            #expect(try await client.send(.get, "/v1/quiz/leaderboard?limit=0", token: cat).status == .badRequest)
        }
    }

    @Test func gamesNeedAUsernameAnOpponentAndEnoughQuestions() async throws {
        let empty = try TestServer()
        defer { empty.remove() }
        try await empty.test { client in
            let ann = try await client.register("ann@example.org", username: "ann").token
            _ = try await client.register("bob@example.org", username: "bob")
            let few = try await client.send(.post, "/v1/quiz/games", token: ann)
            #expect(few.status == .conflict && few.code == "not_enough_questions", "\(few.status) \(few.text)")
        }
        let server = try await startedServer()
        defer { server.remove() }
        try await server.test { client in
            let nameless = try await client.register("nameless@example.org").token
            let ann = try await client.register("ann@example.org", username: "ann").token
            let alone = try await client.send(.post, "/v1/quiz/games", json: [String: Any](), token: ann)
            #expect(alone.status == .conflict && alone.code == "no_opponent")
            let noUsername = try await client.send(.post, "/v1/quiz/games", token: nameless)
            #expect(noUsername.status == .conflict && noUsername.code == "username_required")
            let bob = try await client.register("bob@example.org", username: "bob")
            let yourself = try await client.send(.post, "/v1/quiz/games", json: ["opponentUsername": "Ann"], token: ann)
            #expect(yourself.status == .unprocessableContent && yourself.code == "cannot_challenge_yourself")
            let unknown = try await client.send(.post, "/v1/quiz/games", json: ["opponentUsername": "zed"], token: ann)
            #expect(unknown.status == .notFound && unknown.code == "player_not_found")
            #expect(try await client.send(.post, "/v1/quiz/games").status == .unauthorized)
            let wrongType = try await client.send(.post, "/v1/quiz/games", json: ["opponentUsername": 7], token: ann)
            #expect(wrongType.isProblem && (400..<500).contains(wrongType.status.code))

            let key = UUID().uuidString
            let random = try await client.send(.post, "/v1/quiz/games", token: ann, key: key)
            #expect(random.status == .created && (random.json["opponent"] as? [String: Any])?["userId"] as? String == bob.userId, "the only other player")
            let retried = try await client.send(.post, "/v1/quiz/games", token: ann, key: key)
            #expect(retried.json["gameId"] as? String == random.json["gameId"] as? String, "a retry answers with the first game")
            let again = try await client.send(.post, "/v1/quiz/games", json: ["opponentUsername": "bob"], token: ann)
            #expect(again.status == .created && again.json["gameId"] as? String != random.json["gameId"] as? String, "several games against one player")

            let gameId = try #require(again.json["gameId"] as? String)
            let annQuestion = try await client.send(.get, "/v1/quiz/games/\(gameId)/question", token: ann)
            let bobQuestion = try await client.send(.get, "/v1/quiz/games/\(gameId)/question", token: bob.token)
            #expect(annQuestion.json["text"] as? String == bobQuestion.json["text"] as? String)
            #expect(Set(annQuestion.json["answers"] as? [String] ?? []) == Set(bobQuestion.json["answers"] as? [String] ?? ["x"]))

            var page = try await client.send(.get, "/v1/quiz/games?limit=1", token: ann)
            #expect((page.json["games"] as? [[String: Any]])?.first?["gameId"] as? String == gameId, "newest first")
            let next = try #require(page.json["next"] as? String)
            page = try await client.send(.get, "/v1/quiz/games?limit=1&cursor=\(next)", token: ann)
            #expect((page.json["games"] as? [[String: Any]])?.first?["gameId"] as? String == random.json["gameId"] as? String)
            #expect(page.json["next"] == nil)
            #expect(try await client.send(.get, "/v1/quiz/games?cursor=bogus", token: ann).code == "invalid_cursor")
            #expect(try await client.send(.get, "/v1/quiz/games/unknown-game", token: ann).code == "game_not_found")
        }
    }

    @Test func operatorsAddQuestionsOnceEach() async throws {
        let server = try TestServer { $0.operatorToken = "operator-secret" }
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org", username: "ann").token
            let question: [String: Any] = ["text": "What is 6 x 7?", "answers": ["42", "36", "48"], "correctAnswer": "42", "category": "maths"]
            #expect(try await client.send(.post, "/v1/quiz/questions", json: question).status == .unauthorized)
            #expect(try await client.send(.post, "/v1/quiz/questions", json: question, token: ann).status == .forbidden, "a user is not the operator")
            let added = try await client.send(.post, "/v1/quiz/questions", json: question, token: "operator-secret")
            #expect(added.status == .created && added.json["questionId"] is String && added.json["events"] as? [String] == ["quiz.questionAdded"])
            var twice = question
            twice["text"] = "  what is 6 X 7? "
            let duplicate = try await client.send(.post, "/v1/quiz/questions", json: twice, token: "operator-secret")
            #expect(duplicate.status == .conflict && duplicate.code == "question_exists")
            let bad: [String: Any] = ["text": "", "answers": ["only"], "correctAnswer": "other"]
            let refused = try await client.send(.post, "/v1/quiz/questions", json: bad, token: "operator-secret")
            #expect(refused.status == .unprocessableContent && refused.fieldsInError == ["text", "answers", "correctAnswer"])
            let wrongType = try await client.send(.post, "/v1/quiz/questions", json: ["text": "Q?", "answers": "42", "correctAnswer": "42"], token: "operator-secret")
            #expect(wrongType.isProblem && (400..<500).contains(wrongType.status.code))
            #expect(try server.runtime.quiz.questionCount() == 1)
        }
        let hidden = try TestServer()
        defer { hidden.remove() }
        try await hidden.test { client in
            let reply = try await client.send(.post, "/v1/quiz/questions", json: ["text": "Q?", "answers": ["a", "b"], "correctAnswer": "a"], token: "anything")
            #expect(reply.status == .notFound, "no operator token configured: the route does not exist")
        }
    }

    @Test func theDemoHasAFinishedAndARunningGame() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let summary = try #require(try await prepareFirstStart(runtime: server.runtime, demo: true)?.demo)
        try await server.test { client in
            let login = try await client.login("bob@example.org", DemoSeed.password)
            let bob = try #require(login.json["token"] as? String)
            let games = try await client.send(.get, "/v1/quiz/games", token: bob)
            let list = games.json["games"] as? [[String: Any]] ?? []
            #expect(list.compactMap { $0["gameId"] as? String } == [summary.quizGames.running, summary.quizGames.finished])
            #expect(list.compactMap { $0["status"] as? String } == ["running", "finished"])
            #expect(list.last?["outcome"] as? String == "lost" && list.last?["resultSeen"] as? Bool == false, "Bob has a result to see")
            #expect(list.first?["myAnswered"] as? Int == 5 && list.first?["opponentAnswered"] as? Int == 3)
            let next = try await client.send(.get, "/v1/quiz/games/\(summary.quizGames.running)/question", token: bob)
            #expect(next.json["index"] as? Int == 5)
            let board = try await client.send(.get, "/v1/quiz/leaderboard", token: bob)
            #expect((board.json["players"] as? [[String: Any]])?.compactMap { $0["username"] as? String } == ["ann", "bob"])
        }
    }
}

/// Issue 10 item 4: question texts, answers and categories follow the one text policy.
extension QuizRouteTests {
    @Test(.timeLimit(.minutes(3)))
    func aQuestionWithAControlCharacterOrABidiOverrideIsA422NamingTheField() async throws {
        let server = try TestServer { $0.operatorToken = "operator-secret" }
        defer { server.remove() }
        try await server.test { client in
            let question: [String: Any] = ["text": "What is 6 x 7?\u{7}", "answers": ["42\u{202E}", "36"], "correctAnswer": "42\u{202E}",
                                           "category": "ma\u{0}ths"]
            let refused = try await client.send(.post, "/v1/quiz/questions", json: question, token: "operator-secret")
            #expect(refused.status == .unprocessableContent && refused.code == "validation_failed" && refused.isProblem, "\(refused.text)")
            #expect(refused.fieldsInError == ["text", "answers[0]", "category"])
            #expect(try server.runtime.quiz.questionCount() == 0)
        }
    }
}
