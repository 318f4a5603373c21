import EventSourcing
import Foundation
import Testing
@testable import Quiz

/// The question bank: checked questions, no duplicate texts, and bank files.
@Suite("Quiz questions")
struct QuestionTests {
    typealias D = QuizDecider
    let op = CommandMetadata(actor: "operator", now: Fixture.now, commandID: UUID())

    func add(_ id: String = "q1", _ text: String = " What is the capital of France? ", answers: [String] = ["Paris ", "Lyon", "Nice"],
             correct: String = "Paris", category: String? = " geography ") -> QuizCommand {
        .addQuestion(.init(questionId: id, text: text, answers: answers, correctAnswer: correct, category: category))
    }

    var added: QuizEvent {
        .questionAdded(.init(questionId: "q1", text: "What is the capital of France?", answers: ["Paris", "Lyon", "Nice"],
                             correctAnswer: "Paris", category: "geography"))
    }

    @Test func aQuestionIsAddedTrimmed() throws {
        #expect(try D.given([]).when(add(), op).get() == [added])
        let noCategory = try D.given([]).when(add(category: "  "), op).get()
        guard case .questionAdded(let p) = noCategory.first else { Issue.record("nothing added"); return }
        #expect(p.category == nil)
    }

    @Test func theSameTextTwiceIsRefusedWhateverItsCaseAndSpacing() {
        #expect(D.given([added]).when(add("q2", "what is the  CAPITAL of france?"), op).failure == .questionExists)
        #expect(D.given([added]).when(add("q1", "Another question?"), op).failure == .idTaken)
    }

    @Test(arguments: [
        (["Paris"], "Paris", ["answers"]),
        (["a", "b", "c", "d", "e", "f", "g"], "a", ["answers"]),
        (["Paris", "paris"], "Paris", ["answers"]),
        (["Paris", "Lyon"], "Rome", ["correctAnswer"]),
        (["Paris", " "], "Paris", ["answers[1]"]),
        (["Paris", "Lyon"], "paris", ["correctAnswer"]),
    ])
    func answersAreTwoToSixDistinctWithTheCorrectOneAmongThem(answers: [String], correct: String, fields: [String]) {
        #expect(D.given([]).when(add(answers: answers, correct: correct), op).failure?.fieldErrors.map(\.field) == fields)
    }

    @Test func everyProblemIsReportedAtOnce() {
        let long = String(repeating: "x", count: 301)
        let failure = D.given([]).when(add("q1", long, answers: ["a"], correct: "b", category: String(repeating: "c", count: 41)), op).failure
        #expect(failure?.fieldErrors.map(\.field) == ["text", "answers", "correctAnswer", "category"])
    }

    @Test func aBankFileIsCheckedWholeBeforeAnythingIsImported() throws {
        let good = #"[{"text":"2 + 2?","answers":["3","4"],"correctAnswer":"4"},{"text":"Sky?","answers":["blue","green"],"correctAnswer":"blue","category":"nature"}]"#
        let entries = try QuestionBankFile.entries(from: Data(good.utf8))
        #expect(entries.count == 2 && entries[1].category == "nature")
        let bad = #"[{"text":"2 + 2?","answers":["3","4"],"correctAnswer":"4"},{"text":"","answers":["x"],"correctAnswer":"y"}]"#
        #expect(throws: QuestionBankFile.Problem.self) { try QuestionBankFile.entries(from: Data(bad.utf8)) }
        do {
            _ = try QuestionBankFile.entries(from: Data(bad.utf8))
        } catch {
            #expect(error.description.hasPrefix("question 1: text"))
        }
        #expect(throws: QuestionBankFile.Problem.self) { try QuestionBankFile.entries(from: Data(#"{"text":"x"}"#.utf8)) }
    }

    @Test func eventsRoundTripThroughTheirStoredForm() throws {
        let finished = QuizEvent.gameFinished(.init(
            gameId: Fixture.game,
            results: [.init(userId: Fixture.ann.userId, points: 7, outcome: .won), .init(userId: Fixture.bob.userId, points: 3, outcome: .lost)],
            finishedAt: Date(timeIntervalSince1970: 1_800_000_123.5)))
        let events: [QuizEvent] = [added, Fixture.created, Fixture.given(Fixture.bob, 0), finished,
                                   .resultSeen(.init(gameId: Fixture.game, userId: Fixture.ann.userId))]
        #expect(Set(events.map(\.typeName)).count == 5, "one of every type")
        for event in events {
            // Through the fast decoder alone: a payload that fell back to Foundation would be slow.
            let decoded = try EventJSON.$fastPathOnly.withValue(true) {
                try QuizEvent.decode(typeName: event.typeName, schemaVersion: event.schemaVersion, data: event.encodeData())
            }
            #expect(decoded == event)
        }
        #expect(try QuizEvent.decode(typeName: "household.roomAdded", schemaVersion: 1, data: Data("{}".utf8)) == nil)
        #expect(Fixture.created.tags == ["game:\(Fixture.game)", "user:\(Fixture.ann.userId)", "user:\(Fixture.bob.userId)"])
        #expect(Fixture.created.streamID == "game-\(Fixture.game)")
    }
}
