import Accounts
import EventLog
import Foundation
import Household
import Neighbourhood
import Quiz
import Testing
import Workplace
@testable import Projections

/// The one rebuild test for every read model of the service: a log of all six apps and the
/// blobs, built by their real deciders (the workplace's told event by event,
/// `RebuildEqualsLiveTests+Workplace`; the albums' in `RebuildEqualsLiveTests+Albums`),
/// projected live one command at a time; then each projection is rebuilt from position 1 in
/// one go, and every table of it must hold the same bytes as before.
///
/// It supersedes, for equality of rebuilt and live copies, the per-app
/// `RebuildTests.aRebuildOfEveryProjectionAnswersExactlyAsTheLiveOnes` (household) and
/// `NeighbourhoodRebuildTests.aRebuildAnswersExactlyAsTheLiveReadModel`, which compare query
/// answers of one app's log; those stay as checks that the queries read a rebuilt copy right.
@Suite("Read models: rebuild equals live, every app", .timeLimit(.minutes(3)))
struct RebuildEqualsLiveTests {
    private let start = AllAppsFixture.start
    private let day: TimeInterval = 86_400

    @Test func everyProjectionRebuiltFromOneLogOfAllAppsHoldsTheSameBytesAsLive() async throws {
        let fixture = try await AllAppsFixture()
        defer { fixture.close() }
        try await liveALittle(fixture)

        var live: [String: RawReadModel] = [:]
        for projection in LogbookProjections.all {
            let raw = try RawReadModel(projection, in: fixture.engine)
            #expect(raw.emptyTables.isEmpty, "the log fills every table of \(projection.name): \(raw)")
            live[projection.name] = raw
        }
        // Each app's events must have reached its read models, or this compares empty copies.
        for app in ["accounts.", "household.", "quiz.", "neighbourhood.", "workplace.", "albums.", "blobs."] {
            #expect(live.filter { $0.key.hasPrefix(app) }.values.contains { $0.count > 0 }, "\(app) read models hold data")
        }

        for projection in LogbookProjections.all { try await fixture.engine.rebuild(projection.name) }
        let status = try await fixture.engine.status()
        #expect(status.count == LogbookProjections.all.count)
        #expect(status.allSatisfy { $0.generation == 1 && $0.lag == 0 && $0.rebuildCheckpoint == nil }, "\(status)")

        for projection in LogbookProjections.all {
            let rebuilt = try RawReadModel(projection, in: fixture.engine)
            let before = try #require(live[projection.name])
            #expect(rebuilt == before, "\(projection.name): \(rebuilt.firstDifference(from: before) ?? "")")
        }

        // The engine hands a projection only the domains it `reads`: handed every event
        // instead, each must build the same bytes, or its `reads` leaves out a domain it uses.
        #expect(LogbookProjections.all.contains { $0.reads != nil }, "some projections name their domains")
        let everyEventDirectory = fixture.directory + "-every-event"
        defer { try? FileManager.default.removeItem(atPath: everyEventDirectory) }
        let unfiltered = try ProjectionEngine(
            log: fixture.log, dataDirectory: everyEventDirectory, projections: LogbookProjections.all.map(EveryEventProjection.init),
            sync: .unsafeNever)
        _ = try await unfiltered.prepare()
        let running = Task { try await unfiltered.runLive() }
        defer { running.cancel() }
        try await unfiltered.waitUntilProjected(try await fixture.log.headPosition(), timeout: .seconds(60))
        for projection in LogbookProjections.all {
            let everyEvent = try RawReadModel(EveryEventProjection(wrapped: projection), in: unfiltered)
            let before = try #require(live[projection.name])
            #expect(everyEvent == before, "\(projection.name) handed every event: \(everyEvent.firstDifference(from: before) ?? "")")
        }
    }

    /// Four people using every app, the apps' commands interleaved in the log.
    private func liveALittle(_ fixture: AllAppsFixture) async throws {
        try await accountsStart(fixture)
        try await fixture.run(HouseholdDecider.self, .createHouse(
            houseId: "h1", name: "Canal House", joinCode: joinCode("h1"), userId: "ann", displayName: "Ann"), by: "ann")
        try await questions(fixture)
        for user in ["bob", "cara"] {
            try await fixture.run(HouseholdDecider.self, .joinHouse(
                houseId: "h1", joinCode: joinCode("h1"), userId: user, displayName: user.capitalized), by: user)
        }
        try await reports(fixture)
        try await workplace(fixture)
        try await albums(fixture)
        try await chores(fixture)
        try await games(fixture)
        try await accountsLater(fixture)
        try await fixture.run(NeighbourhoodDecider.self, .deleteReport(reportId: "r1", neighbourhood: nil), by: "bob")
        try await fixture.run(HouseholdDecider.self, .completeTask(houseId: "h1", taskId: "dishes"), by: "bob", at: start + 3 * day)
        try await workplaceLater(fixture)
        try await albumsLater(fixture)
    }

    private func accountsStart(_ fixture: AllAppsFixture) async throws {
        let people: [(String, String?, String?)] = [("ann", "ann", "1012AB"), ("bob", "bob", "1012AB"), ("cara", nil, "3011CD"), ("dan", "dan", nil)]
        for (user, username, postcode) in people {
            try await fixture.run(AccountDecider.self, .register(.init(
                userId: user, email: "\(user)@example.org", passwordHash: Secrets.hash("a"), passwordLength: 12,
                displayName: user.capitalized, username: username, postcode: postcode)), by: user)
        }
        let expiresAt = start + 30 * day
        for (user, token) in [("ann", Character("1")), ("ann", "2"), ("bob", "3"), ("cara", "4"), ("dan", "5")] {
            try await fixture.run(AccountDecider.self, .startSession(.init(userId: user, tokenHash: Secrets.token(token), expiresAt: expiresAt)), by: user)
        }
        try await fixture.run(AccountDecider.self, .endSession(.init(userId: "ann", tokenHash: Secrets.token("1"))), by: "ann")
    }

    private func accountsLater(_ fixture: AllAppsFixture) async throws {
        try await fixture.run(AccountDecider.self, .updateProfile(.init(userId: "cara", displayName: "Cara B", username: "cara")), by: "cara")
        try await fixture.run(AccountDecider.self, .updateProfile(.init(userId: "ann", email: "annie@example.org")), by: "ann")
        let expiresAt = start + day
        // Ann redeems hers (her sessions end); Bob's is spent by his password change; Dan's waits in the outbox.
        for (user, token) in [("ann", Character("6")), ("bob", "7"), ("dan", "8")] {
            try await fixture.run(AccountDecider.self, .requestPasswordReset(.init(
                userId: user, tokenHash: Secrets.token(token), sealedToken: Secrets.sealed, expiresAt: expiresAt)), by: user)
        }
        try await fixture.run(AccountDecider.self, .redeemPasswordReset(.init(
            userId: "ann", tokenHash: Secrets.token("6"), newPasswordHash: Secrets.hash("b"), newPasswordLength: 12)), by: "ann")
        try await fixture.run(AccountDecider.self, .changePassword(.init(userId: "bob", newPasswordHash: Secrets.hash("c"), newPasswordLength: 12)), by: "bob")
    }

    private func chores(_ fixture: AllAppsFixture) async throws {
        let house = "h1"
        try await fixture.run(HouseholdDecider.self, .addRoom(houseId: house, roomId: "kitchen", name: "Kitchen"), by: "ann")
        try await fixture.run(HouseholdDecider.self, .addRoom(houseId: house, roomId: "bath", name: "Bath"), by: "bob")
        for (task, room, points) in [("dishes", "kitchen", 5), ("floor", "kitchen", 3), ("tub", "bath", 4)] {
            try await fixture.run(HouseholdDecider.self, .addTask(
                houseId: house, roomId: room, taskId: task, name: task.capitalized, frequencyDays: 2, points: points), by: "ann")
        }
        for step in 0..<9 {
            let user = ["ann", "bob", "cara"][step % 3], task = ["dishes", "floor", "tub"][step % 3 == 0 ? 0 : step % 2 + 1]
            try await fixture.run(HouseholdDecider.self, .completeTask(houseId: house, taskId: task), by: user, at: start + Double(step) * day / 3)
        }
        try await fixture.run(HouseholdDecider.self, .editTask(houseId: house, taskId: "floor", name: "Mop", frequencyDays: 7, points: 6), by: "cara")
        try await fixture.run(HouseholdDecider.self, .rotateJoinCode(houseId: house, joinCode: joinCode("rotated")), by: "bob")
        try await fixture.run(HouseholdDecider.self, .leaveHouse(houseId: house), by: "cara")
        // A house that closes: its last member leaves.
        try await fixture.run(HouseholdDecider.self, .createHouse(
            houseId: "h2", name: "Attic", joinCode: joinCode("h2"), userId: "dan", displayName: "Dan"), by: "dan")
        try await fixture.run(HouseholdDecider.self, .leaveHouse(houseId: "h2"), by: "dan")
        try await fixture.run(HouseholdDecider.self, .createHouse(
            houseId: "h3", name: "Loft", joinCode: joinCode("h3"), userId: "cara", displayName: "Cara"), by: "cara")
    }

    private func questions(_ fixture: AllAppsFixture) async throws {
        for n in 0..<12 {
            try await fixture.run(QuizDecider.self, .addQuestion(.init(
                questionId: "q\(n)", text: "Q\(n)?", answers: ["wrong \(n)", "right \(n)", "other \(n)"], correctAnswer: "right \(n)")),
                by: "operator")
        }
    }

    private func games(_ fixture: AllAppsFixture) async throws {
        let questions = (0..<10).map { n in
            GameQuestion(questionId: "q\(n)", text: "Q\(n)?", answers: ["wrong \(n)", "right \(n)", "other \(n)"], correctAnswer: "right \(n)")
        }
        let orders = [Array(repeating: [1, 0, 2], count: 10), Array(repeating: [2, 1, 0], count: 10)]
        for (game, challenger, opponent) in [("g1", "ann", "bob"), ("g2", "bob", "dan")] {
            try await fixture.run(QuizDecider.self, .createGame(.init(
                gameId: game, challengerId: challenger, challengerUsername: challenger,
                opponent: QuizPlayer(userId: opponent, username: opponent), questions: questions, answerOrders: orders)), by: challenger)
        }
        // g1 is played to the end; g2 stays running halfway.
        for (game, player, count, right) in [("g1", "ann", 10, 7), ("g1", "bob", 10, 4), ("g2", "bob", 5, 5), ("g2", "dan", 3, 1)] {
            for index in 0..<count {
                let answer = index < right ? "right \(index)" : "wrong \(index)"
                try await fixture.run(QuizDecider.self, .answer(gameId: game, index: index, answer: answer), by: player)
            }
        }
        try await fixture.run(QuizDecider.self, .markResultSeen(gameId: "g1"), by: "ann")
    }

    private func reports(_ fixture: AllAppsFixture) async throws {
        let posts: [(String, String, String, ReportCategory)] = [
            ("r0", "ann", "1012AB", .event), ("r1", "bob", "1012AB", ReportCategory.allCases.last!),
            ("r2", "cara", "3011CD", ReportCategory.allCases.first!), ("r3", "ann", "1012AB", ReportCategory.allCases[1]),
        ]
        for (index, (report, user, neighbourhood, category)) in posts.enumerated() {
            try await fixture.run(NeighbourhoodDecider.self, .postReport(.init(
                reportId: report, neighbourhood: neighbourhood, displayName: user.capitalized, title: "Title of \(report)",
                description: "About \(report)", category: category.rawValue, latitude: 52 + Double(index) / 10, longitude: 4.5)),
                by: user, at: start + Double(index) * 60)
        }
        try await fixture.run(NeighbourhoodDecider.self, .followReport(reportId: "r0", neighbourhood: "1012AB"), by: "bob")
        try await fixture.run(NeighbourhoodDecider.self, .followReport(reportId: "r3", neighbourhood: "1012AB"), by: "bob")
        try await fixture.run(NeighbourhoodDecider.self, .postReply(
            reportId: "r0", replyId: "r0-1", message: "Count me in", displayName: "Bob", neighbourhood: "1012AB"), by: "bob", at: start + 600)
        try await fixture.run(NeighbourhoodDecider.self, .postReply(
            reportId: "r0", replyId: "r0-2", message: "See you", displayName: "Ann", neighbourhood: "1012AB"), by: "ann", at: start + 700)
        try await fixture.run(NeighbourhoodDecider.self, .postReply(
            reportId: "r2", replyId: "r2-1", message: "Fixed now", displayName: "Cara", neighbourhood: "3011CD"), by: "cara", at: start + 800)
        try await fixture.run(NeighbourhoodDecider.self, .unfollowReport(reportId: "r3", neighbourhood: "1012AB"), by: "bob")
    }
}
