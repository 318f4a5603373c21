import Foundation
import LogbookClient
import Testing

/// A watched scoreboard against the real server: fetched again on each notification of the
/// house with `If-None-Match`, a new value yielded only when the board changed (the server
/// answers the rest 304), and the last value kept on disk for a launch without the server.
@Suite("Client: a watched scoreboard", .timeLimit(.minutes(1)))
struct WatchedScoreboardTests {
    typealias Board = Watched<Components.Schemas.Scoreboard>
    static let route = "/v1/houses/{houseId}/scoreboard"

    static func watch(_ house: TestHouse, by client: LogbookClient) -> (boards: Collected<Board>, task: Task<Void, any Error>) {
        let boards = Collected<Board>()
        let task = Task {
            for try await board in client.watch(topics: [house.topic], { try await $0.getScoreboard(path: .init(houseId: house.houseId)).ok.body.json }) {
                boards.append(board)
            }
        }
        return (boards, task)
    }

    static func points(_ board: Board?) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: (board?.value.members ?? []).map { ($0.displayName, $0.points) })
    }

    @Test func anotherMembersCompletionYieldsANewBoardAndChangesThatLeaveItAreNotModified() async throws {
        let rig = try await ProxiedServer()
        let ann = try await rig.client(named: "ann").registered("Ann")
        let house = try await TestHouse(by: ann)
        let bob = try await rig.client(direct: true).registered("Bob")
        _ = try await bob.run { try await $0.joinHouse(body: .json(.init(joinCode: house.joinCode))).ok.body.json }
        let (boards, watching) = Self.watch(house, by: ann)
        defer { watching.cancel() }
        try await boards.until("the board") { $0.count == 1 }
        #expect(boards.last?.isStale == false)

        try await house.complete(by: bob)
        try await boards.until("Bob's points") { $0.count == 2 }
        #expect(Self.points(boards.last)["Bob"] == 5)
        #expect(boards.last?.isStale == false)

        // Two notifications of changes that leave the board as it was: two re-fetches, both 304.
        _ = try await bob.run { try await $0.addRoom(path: .init(houseId: house.houseId), body: .json(.init(name: "Hall"))).created.body.json }
        _ = try await ann.run { try await $0.addRoom(path: .init(houseId: house.houseId), body: .json(.init(name: "Attic"))).created.body.json }
        try await poll(until: "two 304s") { rig.requestCount(method: "GET", route: Self.route, status: 304) == 2 }
        try await Task.sleep(for: .milliseconds(100))
        #expect(boards.all.count == 2, "a 304 yields nothing")
        #expect(rig.requestCount(method: "GET", route: Self.route, status: 200) == 2)
    }

    @Test func aNewClientShowsTheKeptBoardStaleWhileTheServerIsDownAndFreshOnceItIsBack() async throws {
        let rig = try await ProxiedServer()
        let ann = try await rig.client(named: "ann").registered("Ann")
        let house = try await TestHouse(by: ann)
        try await house.complete(by: ann)
        let (boards, watching) = Self.watch(house, by: ann)
        try await boards.until("the board") { $0.count == 1 }
        watching.cancel()
        let kept = rig.storageURL("ann").appendingPathComponent("watched")
        try await poll(until: "the board on disk") { ((try? FileManager.default.contentsOfDirectory(atPath: kept.path)) ?? []).contains { $0.hasSuffix(".json") } }

        rig.proxy.refuse()
        await rig.kill()
        // A new launch: a new client on the same storage, the server unreachable.
        let annAgain = try rig.client(named: "ann", credentials: ann.credentials)
        let (again, watchingAgain) = Self.watch(house, by: annAgain)
        defer { watchingAgain.cancel() }
        try await again.until("the kept board") { $0.count == 1 }
        #expect(again.last?.isStale == true)
        #expect(Self.points(again.last) == ["Ann": 5])

        try await rig.restart()
        try await again.until("the board confirmed") { $0.count == 2 }
        #expect(again.last?.isStale == false)
        #expect(Self.points(again.last) == ["Ann": 5])
        // Confirmed by the kept tag: the next server answered 304.
        #expect(rig.requestCount(method: "GET", route: Self.route, status: 304) == 1)
    }
}
