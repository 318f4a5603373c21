import EventSourcing
import Foundation
import Testing
@testable import Quiz

/// The quiz's frequent events are read straight from the JSON nodes (`NodeDecodable`): the same
/// values as the Codable path for random variants and every one-change mutation, the same refusals.
@Suite("Quiz event JSON")
struct QuizEventJSONTests {
    @Test func creationsAnswersResultsAndSeenResultsReadFromTheNodesAgreeWithTheCodablePath() throws {
        var random = SystemRandomNumberGenerator()
        guard case .answerGiven(let answer) = Fixture.given(Fixture.ann, 3, correct: false) else { Issue.record("not an answer"); return }
        let finished = QuizEvent.GameFinished(
            gameId: Fixture.game,
            results: [.init(userId: Fixture.ann.userId, points: 7, outcome: .won), .init(userId: Fixture.bob.userId, points: 3, outcome: .lost)],
            finishedAt: Fixture.now)
        guard case .gameCreated(let created) = Fixture.created else { Issue.record("not a creation"); return }
        var problems = try NodeDecodingAgreement.disagreements(answer, rounds: 100, using: &random)
        problems += try NodeDecodingAgreement.disagreements(created, rounds: 3, using: &random)
        problems += try NodeDecodingAgreement.disagreements(finished, rounds: 60, using: &random)
        problems += try NodeDecodingAgreement.disagreements(
            QuizEvent.ResultSeen(gameId: Fixture.game, userId: Fixture.bob.userId), rounds: 100, using: &random)
        #expect(problems.isEmpty, "\(problems.prefix(3))")
    }

    @Test func everyFrequentEventRoundTripsThroughTheNodePathAlone() throws {
        let events: [QuizEvent] = [
            Fixture.created, Fixture.given(Fixture.ann, 0), Fixture.given(Fixture.bob, 9, correct: false),
            .gameFinished(.init(gameId: Fixture.game, results: [.init(userId: Fixture.ann.userId, points: 1, outcome: .draw)],
                                finishedAt: Fixture.now)),
            .resultSeen(.init(gameId: Fixture.game, userId: Fixture.ann.userId)),
        ]
        for event in events {
            let decoded = try EventJSON.$fastPathOnly.withValue(true) {
                try QuizEvent.decode(typeName: event.typeName, schemaVersion: event.schemaVersion, data: event.encodeData())
            }
            #expect(decoded == event)
        }
    }
}
