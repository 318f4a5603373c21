import EventSourcing
import Foundation
import Testing
@testable import Quiz

/// Creating games, answering in order, finishing and acknowledging results.
@Suite("Quiz games")
struct GameTests {
    typealias D = QuizDecider
    let ann = Fixture.ann, bob = Fixture.bob, cat = Fixture.cat

    @Test func aGameStartsWithTheChallengerFirstAndTheQuestionsCopied() throws {
        #expect(try D.given([]).when(Fixture.newGame(), Fixture.by(ann)).get() == [Fixture.created])
    }

    @Test func creatingNeedsAUsernameSomeoneElseAndAFreshId() {
        #expect(D.given([]).when(Fixture.newGame(username: .some(nil)), Fixture.by(ann)).failure == .usernameRequired)
        #expect(D.given([]).when(Fixture.newGame(opponent: nil), Fixture.by(ann)).failure == .noOpponent)
        #expect(D.given([]).when(Fixture.newGame(opponent: ann), Fixture.by(ann)).failure == .cannotChallengeYourself)
        #expect(D.given([]).when(Fixture.newGame(), Fixture.by(bob)).failure == .actorMismatch)
        #expect(D.given([Fixture.created]).when(Fixture.newGame(), Fixture.by(ann)).failure == .idTaken)
    }

    @Test func aGameNeedsTenDistinctQuestionsAndPermutedOrders() {
        let few = Array(Fixture.questions.prefix(9))
        #expect(D.given([]).when(Fixture.newGame(questions: few), Fixture.by(ann)).failure == .notEnoughQuestions(available: 9))
        let repeated = Array(Fixture.questions.prefix(9)) + [Fixture.questions[0]]
        #expect(D.given([]).when(Fixture.newGame(questions: repeated), Fixture.by(ann)).failure?.fieldErrors.map(\.field) == ["questions"])
        var badOrders = Fixture.orders
        badOrders[1][3] = [0, 0, 1]
        #expect(D.given([]).when(Fixture.newGame(orders: badOrders), Fixture.by(ann)).failure?.fieldErrors.map(\.field) == ["answerOrders"])
        #expect(D.given([]).when(Fixture.newGame(orders: [Fixture.orders[0]]), Fixture.by(ann)).failure?.code == "validation_failed")
    }

    @Test func answersAreMarkedAndEarnPoints() throws {
        #expect(try D.given([Fixture.created]).when(Fixture.answer(0, "right 0"), Fixture.by(bob)).get() == [Fixture.given(bob, 0)])
        #expect(try D.given([Fixture.created]).when(Fixture.answer(0, " wrong 0 "), Fixture.by(ann)).get()
            == [Fixture.given(ann, 0, correct: false)])
    }

    @Test func answersComeInOrderOnceEach() {
        let state = [Fixture.created] + Fixture.answers(ann, count: 3)
        #expect(D.given(state).when(Fixture.answer(1, "right 1"), Fixture.by(ann)).failure == .alreadyAnswered)
        #expect(D.given(state).when(Fixture.answer(5, "right 5"), Fixture.by(ann)).failure == .outOfOrder(expected: 3))
        #expect(D.given(state).when(Fixture.answer(10, "right 9"), Fixture.by(ann)).failure?.fieldErrors.map(\.field) == ["index"])
        #expect(D.given(state).when(Fixture.answer(-1, "right 0"), Fixture.by(ann)).failure?.code == "validation_failed")
        #expect(D.given(state).when(Fixture.answer(3, "maybe"), Fixture.by(ann)).failure == .notAnOption)
        #expect(D.given(state).when(Fixture.answer(3, "Right 3"), Fixture.by(ann)).failure == .notAnOption, "options match exactly")
        let done = [Fixture.created] + Fixture.answers(ann)
        #expect(D.given(done).when(Fixture.answer(9, "right 9"), Fixture.by(ann)).failure == .allAnswered)
    }

    @Test func onlyThePlayersTouchAGame() {
        #expect(D.given([Fixture.created]).when(Fixture.answer(0, "right 0"), Fixture.by(cat)).failure == .gameNotFound)
        #expect(D.given([]).when(Fixture.answer(0, "right 0"), Fixture.by(ann)).failure == .gameNotFound)
        #expect(D.given([Fixture.created]).when(.markResultSeen(gameId: Fixture.game), Fixture.by(cat)).failure == .gameNotFound)
    }

    @Test func theLastAnswerFinishesTheGameWithOutcomes() throws {
        let state = [Fixture.created] + Fixture.answers(ann, right: 7) + Fixture.answers(bob, count: 9, right: 4)
        let events = try D.given(state).when(Fixture.answer(9, "right 9"), Fixture.by(bob)).get()
        #expect(events == [Fixture.given(bob, 9), .gameFinished(.init(gameId: Fixture.game, results: [
            .init(userId: ann.userId, points: 7, outcome: .won), .init(userId: bob.userId, points: 5, outcome: .lost),
        ], finishedAt: Fixture.now))])
    }

    @Test func equalScoresAreADraw() throws {
        let state = [Fixture.created] + Fixture.answers(bob, right: 3) + Fixture.answers(ann, count: 9, right: 3)
        let events = try D.given(state).when(Fixture.answer(9, "wrong 9"), Fixture.by(ann)).get()
        guard case .gameFinished(let finished) = events.last else { Issue.record("no finish: \(events)"); return }
        #expect(finished.results.map(\.outcome) == [.draw, .draw] && finished.results.map(\.points) == [3, 3])
    }

    @Test func resultsAreSeenOnceFinishedAndOnlyOnce() throws {
        let running = [Fixture.created] + Fixture.answers(ann)
        #expect(D.given(running).when(.markResultSeen(gameId: Fixture.game), Fixture.by(ann)).failure == .gameNotFinished)
        let finished = running + Fixture.answers(bob, count: 9)
        let last = try D.given(finished).when(Fixture.answer(9, "right 9"), Fixture.by(bob)).get()
        let over = finished + last
        let seen = QuizEvent.resultSeen(.init(gameId: Fixture.game, userId: ann.userId))
        #expect(try D.given(over).when(.markResultSeen(gameId: Fixture.game), Fixture.by(ann)).get() == [seen])
        #expect(try D.given(over + [seen]).when(.markResultSeen(gameId: Fixture.game), Fixture.by(ann)).get() == [], "idempotent")
        #expect(D.given(over).when(Fixture.answer(9, "right 9"), Fixture.by(ann)).failure == .allAnswered)
    }

    @Test func boundariesAreTheGameOrTheQuestion() {
        #expect(D.boundary(of: Fixture.answer(0, "x")) == .tag("game:\(Fixture.game)"))
        let add = QuizCommand.addQuestion(.init(questionId: "q", text: " Capital  of FRANCE? ", answers: [], correctAnswer: ""))
        let key = QuestionText.key("capital of france?")
        #expect(D.boundary(of: add) == Boundary([.init(tags: ["question:q"]), .init(tags: ["question-text:\(key)"])]))
    }
}
