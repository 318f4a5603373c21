@testable import Accounts
import EventLog
import Foundation
import Quiz
import Testing
@testable import Projections

@Suite("Quiz read models", .timeLimit(.minutes(3)))
struct QuizReadModelTests {
    @Test func theBankIsNumberedAndDrawsDistinctQuestions() async throws {
        let fixture = try await QuizFixture()
        defer { fixture.close() }
        try await fixture.addQuestions(0..<12)
        try await fixture.appendForeignEvent()
        #expect(try fixture.queries.questionCount() == 12)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let drawn = try fixture.queries.randomQuestions(10, using: &generator)
            #expect(drawn.count == 10 && Set(drawn.map(\.questionId)).count == 10)
        }
        #expect(try fixture.queries.randomQuestions(50, using: &generator).count == 12, "never more than the bank holds")
    }

    @Test func playersAreAccountsWithAUsernameAndNeverTheirOwnOpponent() async throws {
        let fixture = try await QuizFixture()
        defer { fixture.close() }
        var generator = SystemRandomNumberGenerator()
        try await fixture.register("ann", username: "Ann")
        try await fixture.register("nobody", username: nil)
        #expect(try fixture.queries.randomOpponent(for: "ann", using: &generator) == nil, "nobody else has a username")
        try await fixture.register("bob", username: "bob")
        try await fixture.register("cat", username: "cat")
        var drawn: Set<String> = []
        for _ in 0..<60 { drawn.insert(try #require(try fixture.queries.randomOpponent(for: "ann", using: &generator)).userId) }
        #expect(drawn == ["bob", "cat"])
        #expect(try fixture.queries.randomOpponent(for: "nobody", using: &generator) != nil, "anyone may be drawn for a caller outside the pool")
        #expect(try fixture.queries.player(username: "ANN")?.userId == "ann")
        try await fixture.rename("ann", from: "Ann", to: "Annie")
        #expect(try fixture.queries.player(username: "ann") == nil)
        #expect(try fixture.queries.player(username: "annie")?.username == "Annie")
        try await fixture.rename("nobody", from: nil, to: "somebody")
        drawn = []
        for _ in 0..<80 { drawn.insert(try #require(try fixture.queries.randomOpponent(for: "ann", using: &generator)).userId) }
        #expect(drawn == ["bob", "cat", "nobody"], "a username later joins the pool")
    }

    @Test func eachPlayerSeesOwnPointsAndTheOpponentsOnlyWhenItIsOver() async throws {
        let fixture = try await QuizFixture()
        defer { fixture.close() }
        for user in ["ann", "bob"] { try await fixture.register(user, username: user) }
        try await fixture.startGame("g1", "ann", against: "bob")
        let question = try #require(try fixture.queries.nextQuestion("g1", viewer: "ann"))
        #expect(question.index == 0 && question.answers == ["right 0", "wrong 0", "other 0"])
        #expect(try fixture.queries.nextQuestion("g1", viewer: "bob")?.answers == ["other 0", "right 0", "wrong 0"], "each seat has its own order")
        #expect(try fixture.queries.game("g1", viewer: "cat") == nil && fixture.queries.nextQuestion("g1", viewer: "cat") == nil)

        try await fixture.answer("g1", "ann", count: 10, right: 6)
        try await fixture.answer("g1", "bob", count: 4, right: 4)
        // The answer route's figure: each player's own answers only, from the answers table.
        #expect(try fixture.queries.points(in: "g1", of: "ann") == 6 && fixture.queries.points(in: "g1", of: "bob") == 4)
        #expect(try fixture.queries.points(in: "g1", of: "cat") == nil && fixture.queries.points(in: "g2", of: "ann") == nil)
        var ann = try #require(try fixture.queries.game("g1", viewer: "ann"))
        #expect(ann.status == .running && ann.me.answered == 10 && ann.me.points == 6)
        #expect(ann.opponent.answered == 4 && ann.opponent.points == nil && ann.outcome == nil)
        #expect(try fixture.queries.nextQuestion("g1", viewer: "ann") == nil)
        #expect(try fixture.queries.nextQuestion("g1", viewer: "bob")?.index == 4, "resumes at the first unanswered")

        try await fixture.answer("g1", "bob", from: 4, count: 6, right: 3)
        ann = try #require(try fixture.queries.game("g1", viewer: "ann"))
        let bob = try #require(try fixture.queries.game("g1", viewer: "bob"))
        #expect(ann.status == .finished && ann.opponent.points == 7 && ann.outcome == .lost && !ann.resultSeen)
        #expect(bob.me.points == 7 && bob.opponent.points == 6 && bob.outcome == .won)
        try await fixture.run(.markResultSeen(gameId: "g1"), by: "ann")
        #expect(try fixture.queries.game("g1", viewer: "ann")?.resultSeen == true)
        #expect(try fixture.queries.game("g1", viewer: "bob")?.resultSeen == false)
    }

    @Test func statsAndTheLeaderboardRankByWinsThenRatio() async throws {
        let fixture = try await QuizFixture()
        defer { fixture.close() }
        for user in ["ann", "bob", "cat", "dan"] { try await fixture.register(user, username: user) }
        // ann beats bob twice; cat beats dan once and draws once; dan loses to bob.
        try await play(fixture, "g1", "ann", 8, "bob", 2)
        try await play(fixture, "g2", "bob", 3, "ann", 9)
        try await play(fixture, "g3", "cat", 5, "dan", 4)
        try await play(fixture, "g4", "dan", 5, "cat", 5)
        try await play(fixture, "g5", "bob", 6, "dan", 1)
        #expect(try fixture.queries.player(username: "cat") == PlayerStats(userId: "cat", username: "cat", played: 2, won: 1, lost: 0, drawn: 1, poolIndex: 2))
        let board = try fixture.queries.leaderboard(limit: 10)
        // ann 2/2; cat 1 win of 2 (50%) ahead of bob 1 win of 3 (33%); dan no win.
        #expect(board.map(\.username) == ["ann", "cat", "bob", "dan"])
        #expect(board.map(\.played) == [2, 2, 3, 3])
        #expect(try fixture.queries.leaderboard(limit: 2).count == 2)
        #expect(throws: ListQueryError.self) { try fixture.queries.leaderboard(limit: 0) }
        try await fixture.rename("cat", from: "cat", to: "Catherine")
        #expect(try fixture.queries.leaderboard(limit: 10).map(\.username) == ["ann", "Catherine", "bob", "dan"], "renaming keeps one entry")
    }

    @Test func aPlayersGamesPageNewestFirst() async throws {
        let fixture = try await QuizFixture()
        defer { fixture.close() }
        for user in ["ann", "bob", "cat"] { try await fixture.register(user, username: user) }
        for n in 0..<5 { try await fixture.startGame("g\(n)", "ann", against: n.isMultiple(of: 2) ? "bob" : "cat") }
        var page = try fixture.queries.games(of: "ann", limit: 2, cursor: nil)
        var seen = page.games.map(\.gameId)
        while let next = page.next {
            page = try fixture.queries.games(of: "ann", limit: 2, cursor: next)
            seen += page.games.map(\.gameId)
        }
        #expect(seen == ["g4", "g3", "g2", "g1", "g0"])
        #expect(try fixture.queries.games(of: "bob", limit: 50, cursor: nil).games.map(\.gameId) == ["g4", "g2", "g0"])
        let bobsCursor = try #require(try fixture.queries.games(of: "bob", limit: 1, cursor: nil).next)
        #expect(throws: ListQueryError.malformedCursor) { try fixture.queries.games(of: "ann", limit: 2, cursor: bobsCursor) }
        #expect(throws: ListQueryError.self) { try fixture.queries.games(of: "ann", limit: 501, cursor: nil) }
    }

    /// ADR 0010: an erasure takes its player out of the pool and the board in its own batch, as a
    /// rebuild with her key destroyed leaves them. ADR 0018: `games` keeps the usernames sealed,
    /// so she reads "Deleted user" in her games from her key's destruction on, and her username
    /// is never in `games` in the clear.
    @Test func anErasedPlayerLeavesThePoolAndTheBoardAndReadsDeletedUserInHerGames() async throws {
        let keys = try TemporaryKeyStore()
        defer { keys.remove() }
        let fixture = try await QuizFixture(projections: QuizProjections.all, personalData: keys.keyring)
        defer { fixture.close() }
        let robert = "Robert-9c1e"
        for user in ["ann", "bob", "cat", "dan"] { try await fixture.register(user, username: user == "bob" ? robert : user) }
        try await play(fixture, "g1", "ann", 8, "bob", 2, opponentUsername: robert)
        try await fixture.startGame("g2", "bob", against: "cat", challengerUsername: robert)
        #expect(try fixture.queries.game("g1", viewer: "ann")?.opponent.player.username == robert)
        #expect(try fixture.queries.player(username: " \(robert.uppercased())")?.username == robert, "found by the keyed name, any case")
        #expect(try fixture.queries.leaderboard(limit: 10).map(\.username) == ["ann", robert])
        for projection in QuizProjections.all {
            #expect(try !RawReadModel(projection, in: fixture.engine).holds(robert), "\(projection.name) keeps the username sealed")
        }
        let file = (fixture.directory as NSString).appendingPathComponent("readmodels/data.mdb")
        let bytes = try #require(FileManager.default.contents(atPath: file))
        #expect(bytes.range(of: Data(robert.utf8)) == nil && bytes.range(of: Data(robert.lowercased().utf8)) == nil,
                "the read-model file never held the username in the clear")
        _ = try await fixture.append([AccountEvent.erased(.init(userId: "bob", releasedTags: []))], by: "bob")
        try keys.keyring.erase("bob")  // what `ErasureFollower` does in the batch that projects it
        var generator = SystemRandomNumberGenerator()
        var drawn: Set<String> = []
        for _ in 0..<80 { drawn.insert(try #require(try fixture.queries.randomOpponent(for: "ann", using: &generator)).userId) }
        #expect(drawn == ["cat", "dan"], "never the erased player, and the pool has no gap")
        #expect(try fixture.queries.player(username: robert) == nil)
        #expect(try fixture.queries.leaderboard(limit: 10).map(\.username) == ["ann"])
        #expect(try fixture.queries.game("g1", viewer: "ann")?.opponent.player.username == "Deleted user")
        #expect(try fixture.queries.game("g2", viewer: "cat")?.opponent.player.username == "Deleted user")
        #expect(try fixture.queries.game("g1", viewer: "ann")?.opponent.answered == 10, "games and answers stay")
    }

    @Test func aRebuildEqualsTheLiveReadModels() async throws {
        let fixture = try await QuizFixture()
        defer { fixture.close() }
        try await fixture.addQuestions(0..<10)
        for user in ["ann", "bob", "cat"] { try await fixture.register(user, username: user) }
        try await play(fixture, "g1", "ann", 4, "bob", 7)
        try await fixture.startGame("g2", "cat", against: "ann")
        try await fixture.answer("g2", "cat", count: 3, right: 1)
        try await fixture.run(.markResultSeen(gameId: "g1"), by: "bob")
        try await fixture.rename("bob", from: "bob", to: "Robert")
        let live = try snapshot(fixture)
        for projection in QuizProjections.all { try await fixture.engine.rebuild(projection.name) }
        #expect(try snapshot(fixture) == live)
        #expect(live.boards.map(\.username) == ["Robert", "ann"])
    }

    private struct Snapshot: Equatable {
        var games: [GameView?] = []
        var pages: [[GameView]] = []
        var players: [PlayerStats?] = []
        var boards: [PlayerStats] = []
        var questions = 0
    }

    private func snapshot(_ fixture: QuizFixture) throws -> Snapshot {
        var snapshot = Snapshot()
        let users = ["ann", "bob", "cat"]
        for game in ["g1", "g2"] { for user in users { snapshot.games.append(try fixture.queries.game(game, viewer: user)) } }
        for user in users { snapshot.pages.append(try fixture.queries.games(of: user, limit: 10, cursor: nil).games) }
        snapshot.players = try ["ann", "robert", "cat"].map { try fixture.queries.player(username: $0) }
        snapshot.boards = try fixture.queries.leaderboard(limit: 10)
        snapshot.questions = try fixture.queries.questionCount()
        return snapshot
    }

    /// A whole game: `a` challenges `b`; each gets `aRight`/`bRight` answers right.
    private func play(
        _ fixture: QuizFixture, _ gameId: String, _ a: String, _ aRight: Int, _ b: String, _ bRight: Int, opponentUsername: String? = nil
    ) async throws {
        try await fixture.startGame(gameId, a, against: b, opponentUsername: opponentUsername)
        try await fixture.answer(gameId, a, right: aRight)
        try await fixture.answer(gameId, b, right: bRight)
    }
}
