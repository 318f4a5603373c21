import EventLog
import Foundation
import Household
import Quiz
import Testing
@testable import Projections

@Suite("Point in time: read models as of a log position", .timeLimit(.minutes(3)))
struct PointInTimeTests {
    /// The household at three completions, p1 < p2 < p3, with the scoreboard recorded right after p2.
    private static func threeCompletions(_ fixture: HouseholdFixture) async throws -> (p1: UInt64, p2: UInt64, p3: UInt64, atP2: [ScoreboardEntry]) {
        try await fixture.createHouse("h1", by: "ann")
        try await fixture.join("h1", "bob")
        try await fixture.run(.addRoom(houseId: "h1", roomId: "r1", name: "Kitchen"), by: "ann")
        try await fixture.run(.addTask(houseId: "h1", roomId: "r1", taskId: "t1", name: "Floor", frequencyDays: 7, points: 5), by: "ann")
        let p1 = try await fixture.complete("h1", "t1", by: "ann")
        // Apart in time too, so each position has a recordedAt of its own.
        try await Task.sleep(for: .milliseconds(5))
        let p2 = try await fixture.complete("h1", "t1", by: "bob")
        let atP2 = try fixture.queries.scoreboard(house: "h1")
        try await Task.sleep(for: .milliseconds(5))
        let p3 = try await fixture.complete("h1", "t1", by: "bob")
        return (p1, p2, p3, atP2)
    }

    @Test func theScoreboardAsOfAMiddlePositionIsTheOneServedRightAfterItAndTheServedOneIsUntouched() async throws {
        let fixture = try await HouseholdFixture()
        defer { fixture.close() }
        let (p1, p2, p3, atP2) = try await Self.threeCompletions(fixture)
        #expect(p1 < p2 && p2 < p3)
        let servedStatus = try await fixture.engine.status()
        let servedScoreboard = try fixture.queries.scoreboard(house: "h1")
        #expect(servedScoreboard != atP2, "the third completion changed it")

        var directory = ""
        do {
            let asOf = try await PointInTime.build(log: fixture.log, through: p2, projections: HouseholdProjections.all, personalData: nil)
            directory = asOf.directory
            #expect(FileManager.default.fileExists(atPath: directory))
            #expect(asOf.position == p2)
            #expect(try HouseholdQueries(engine: asOf.engine).scoreboard(house: "h1") == atP2)
            #expect(try HouseholdQueries(engine: asOf.engine).scoreboard(house: "h1").map(\.points) == [5, 5])
            #expect(try await asOf.engine.status().allSatisfy { $0.checkpoint == p2 })
            // As of p1 only ann had completed.
            let atP1 = try await PointInTime.build(log: fixture.log, through: p1, projections: HouseholdProjections.all, personalData: nil)
            #expect(try HouseholdQueries(engine: atP1.engine).scoreboard(house: "h1").map(\.points) == [5, 0])

            // The served read models kept their positions and values.
            #expect(try await fixture.engine.status() == servedStatus)
            #expect(try fixture.queries.scoreboard(house: "h1") == servedScoreboard)
            #expect(!asOf.directory.hasPrefix(fixture.directory))
        }
        // Released, the copy's directory is gone.
        #expect(!directory.isEmpty && !FileManager.default.fileExists(atPath: directory))
    }

    @Test func aTimeResolvesToTheLastPositionRecordedAtOrBeforeIt() async throws {
        let fixture = try await HouseholdFixture()
        defer { fixture.close() }
        let (_, p2, p3, _) = try await Self.threeCompletions(fixture)
        func microseconds(_ position: UInt64) async throws -> Int64 {
            let event = try #require(try await fixture.log.readAll(from: position, direction: .forward, limit: 1).first)
            return Int64((event.recordedAt.timeIntervalSince1970 * 1_000_000).rounded())
        }
        let atP2 = try await microseconds(p2)
        #expect(try await PointInTime.position(atOrBefore: atP2, in: fixture.log) == p2)
        #expect(try await PointInTime.position(atOrBefore: atP2 + 1, in: fixture.log) == p2, "between p2 and p3")
        #expect(try await PointInTime.position(atOrBefore: try await microseconds(p3), in: fixture.log) == p3)
        #expect(try await PointInTime.position(atOrBefore: .max, in: fixture.log) == p3)
        let first = try await microseconds(1)
        await #expect(throws: PointInTimeError.beforeFirstEvent(microsecondsSince1970: first - 1)) {
            try await PointInTime.position(atOrBefore: first - 1, in: fixture.log)
        }
    }

    @Test func positionZeroAndPositionsBeyondTheHeadAreRefusedAndLeaveNoDirectory() async throws {
        let fixture = try await HouseholdFixture()
        defer { fixture.close() }
        let (_, _, p3, _) = try await Self.threeCompletions(fixture)
        let temporary = NSTemporaryDirectory() + "as-of-refusals-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        await #expect(throws: PointInTimeError.positionZero) {
            _ = try await PointInTime.build(log: fixture.log, through: 0, projections: HouseholdProjections.all, personalData: nil, temporaryDirectory: temporary)
        }
        await #expect(throws: PointInTimeError.beyondHead(position: p3 + 1, head: p3)) {
            _ = try await PointInTime.build(log: fixture.log, through: p3 + 1, projections: HouseholdProjections.all, personalData: nil, temporaryDirectory: temporary)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
    }

    @Test func aQuizGameAsOfAMiddlePositionShowsTheAnswersGivenByThen() async throws {
        let fixture = try await QuizFixture()
        defer { fixture.close() }
        for user in ["ann", "bob"] { try await fixture.register(user, username: user) }
        try await fixture.startGame("g1", "ann", against: "bob")
        try await fixture.answer("g1", "ann", count: 10, right: 6)
        try await fixture.answer("g1", "bob", count: 3, right: 3)
        let middle = try await fixture.log.headPosition()
        let liveAtMiddle = try #require(try fixture.queries.game("g1", viewer: "bob"))
        try await fixture.answer("g1", "bob", from: 3, count: 7, right: 0)
        #expect(try fixture.queries.game("g1", viewer: "bob")?.status == .finished)

        let copy = try await PointInTime.build(log: fixture.log, through: middle, projections: QuizProjections.all, personalData: nil)
        let asOf = QuizQueries(engine: copy.engine)
        let bob = try #require(try asOf.game("g1", viewer: "bob"))
        #expect(bob == liveAtMiddle)
        #expect(bob.status == .running && bob.me.answered == 3 && bob.me.points == 3 && bob.opponent.answered == 10 && bob.opponent.points == nil)
        #expect(try asOf.nextQuestion("g1", viewer: "bob")?.index == 3)
        // Before the game was created it did not exist.
        let before = try await PointInTime.build(log: fixture.log, through: 2, projections: QuizProjections.all, personalData: nil)
        #expect(try QuizQueries(engine: before.engine).game("g1", viewer: "bob") == nil)
        #expect(try fixture.queries.game("g1", viewer: "bob")?.status == .finished, "the served game is as it was")
    }
}
