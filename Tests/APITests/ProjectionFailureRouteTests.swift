import Foundation
import HummingbirdTesting
import Projections
import Testing
@testable import API

/// A projection whose `apply` throws takes nothing else down: its queries answer 503
/// `read_model_unavailable`, every other route and command works, the operator sees the failure
/// (HTTP and `logbook-admin stats`), and a rebuild with the fix recovers it.
@Suite("A failing projection, over HTTP", .timeLimit(.minutes(3)))
struct ProjectionFailureRouteTests {
    private static let operatorToken = "operator-secret"

    private func projection(_ name: String, _ client: any TestClientProtocol) async throws -> [String: Any] {
        let list = try await client.send(.get, "/v1/admin/projections", token: Self.operatorToken)
        return (list.json["projections"] as? [[String: Any]])?.first { $0["name"] as? String == name } ?? [:]
    }

    @Test func itsQueriesAnswer503WhileEverythingElseWorksAndARebuildWithTheFixRecoversIt() async throws {
        let history = FaultyProjection(wrapped: HouseholdProjections.history, failingType: "household.taskCompleted", fault: .bug)
        // A bound far above any answer time on a loaded machine: an answer that waited it out shows.
        let server = try FaultyServer(history) {
            $0.operatorToken = Self.operatorToken
            $0.readYourWritesTimeout = .seconds(60)
        }
        defer { server.remove() }
        let name = HouseholdProjections.history.name
        let logs = LogCapture()
        try await server.test(logger: logs.logger()) { client in
            let ann = try await client.register("ann@example.org").token
            let created = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann)
            let houseId = try #require(created.json["houseId"] as? String)
            let room = try await client.send(.post, "/v1/houses/\(houseId)/rooms", json: ["name": "Kitchen"], token: ann)
            let roomId = try #require(room.json["roomId"] as? String)
            let task = try await client.send(.post, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks",
                                             json: ["name": "Dishes", "frequencyDays": 1, "points": 5], token: ann)
            let taskId = try #require(task.json["taskId"] as? String)
            #expect(try await client.send(.get, "/v1/houses/\(houseId)/history", token: ann).status == .ok)

            // The command whose event the history projection chokes on still answers at once:
            // read-your-writes does not wait for a failed projection.
            let clock = ContinuousClock()
            let start = clock.now
            let done = try await client.send(.post, "/v1/houses/\(houseId)/tasks/\(taskId)/completions", token: ann)
            #expect(done.status == .created, "\(done.text)")
            #expect(clock.now - start < .seconds(30), "answered without waiting out the read-your-writes bound")
            let failedAt = try await server.runtime.log.lmdb.headPosition()

            let refused = try await client.send(.get, "/v1/houses/\(houseId)/history", token: ann)
            #expect(refused.status == .serviceUnavailable && refused.isProblem && refused.code == "read_model_unavailable", "\(refused.text)")
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 > 0)
            // Every other read model and command goes on, and shows the completion.
            let board = try await client.send(.get, "/v1/houses/\(houseId)/scoreboard", token: ann)
            #expect(board.status == .ok && (board.json["members"] as? [[String: Any]])?.first?["points"] as? Int == 5, "\(board.text)")
            #expect(try await client.send(.get, "/v1/me/house", token: ann).status == .ok)
            let renamed = try await client.send(.patch, "/v1/houses/\(houseId)/rooms/\(roomId)", json: ["name": "Galley"], token: ann)
            #expect(renamed.status == .ok, "\(renamed.text)")

            let status = try await projection(name, client)
            #expect(status["state"] as? String == "failed")
            let failure = try #require(status["failure"] as? [String: Any])
            #expect(failure["position"] as? Int == Int(failedAt) && failure["reason"] as? String == "Bug()")
            #expect(status["checkpoint"] as? Int == Int(failedAt) - 1, "stopped at the last good event")
            let ready = try await client.send(.get, "/health/ready")
            #expect(ready.status == .serviceUnavailable && ready.json["status"] as? String == "not_ready", "\(ready.text)")
            #expect((ready.json["reasons"] as? [String])?.contains("projection \(name) failed at position \(failedAt)") == true, "\(ready.text)")
            #expect(try await client.send(.get, "/health").status == .ok, "still alive")

            // The operator's tool, on the directory of the running server, shows it too.
            let stats = try await AdminTool.run(["stats", "--json", "--data-dir", server.directory])
            #expect(stats.status == 0, "\(stats.stderr)")
            let projections = try #require((try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])?["projections"] as? [[String: Any]])
            let shown = try #require(projections.first { $0["name"] as? String == name })
            #expect(shown["state"] as? String == "failed" && (shown["failure"] as? [String: Any])?["position"] as? Int == Int(failedAt))
            let text = try await AdminTool.run(["stats", "--data-dir", server.directory])
            #expect(text.stdout.contains("\(name) failed at position \(failedAt): Bug()"), "\(text.stdout)")

            // A rebuild without the fix fails again: recorded, and the server stays up.
            #expect(try await client.send(.post, "/v1/admin/projections/\(name)/rebuild", token: Self.operatorToken).status == .accepted)
            try await waitUntilAsync { try await projection(name, client)["lastRebuildError"] != nil }
            #expect(try await projection(name, client)["lastRebuildError"] as? String == "projection \(name) failed at position \(failedAt): Bug()")
            #expect(try await projection(name, client)["state"] as? String == "failed")
            // Both the failure and the failed rebuild reached the server's log.
            let failures = logs.all.filter { $0.hasPrefix("error projection failed") }
            #expect(failures.count == 1 && failures[0].contains("\(failedAt)") && failures[0].contains(name), "\(logs.all)")
            #expect(logs.all.contains { $0.hasPrefix("error projection rebuild failed") && $0.contains("Bug()") }, "\(logs.all)")

            // The fix is deployed; a rebuild recovers the projection, with the completion in it.
            history.fix.apply()
            #expect(try await client.send(.post, "/v1/admin/projections/\(name)/rebuild", token: Self.operatorToken).status == .accepted)
            try await waitUntilAsync { try await projection(name, client)["state"] as? String == "serving" }
            let recovered = try await projection(name, client)
            #expect(recovered["failure"] == nil && recovered["lastRebuildError"] == nil && recovered["lag"] as? Int == 0)
            let items = try await client.send(.get, "/v1/houses/\(houseId)/history", token: ann)
            #expect(items.status == .ok && (items.json["items"] as? [Any])?.count == 1, "\(items.text)")
            #expect(try await client.send(.get, "/health/ready").status == .ok)
        }
    }

    /// The read models' storage failing stops the runner: the server stays up and says so.
    @Test func aStoppedRunnerLeavesTheServerUpAndNotReady() async throws {
        let houses = FaultyProjection(wrapped: HouseholdProjections.houses, failingType: "household.houseCreated", fault: .storage)
        let server = try FaultyServer(houses) { $0.readYourWritesTimeout = .milliseconds(200) }
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            let created = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann)
            #expect(created.status == .serviceUnavailable && created.code == "read_models_behind", "\(created.text)")
            try await waitUntilAsync { server.runtime.projections.runnerStatus.phase == .stopped }
            let ready = try await client.send(.get, "/health/ready")
            #expect(ready.status == .serviceUnavailable && ready.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(ready.json["runner"] as? String == "stopped" && ready.json["logWriter"] as? String == "open")
            #expect((ready.json["reasons"] as? [String])?.contains("the projection runner stopped") == true, "\(ready.text)")
            // Alive, and still answering from the read models as they are.
            #expect(try await client.send(.get, "/health").status == .ok)
            #expect(try await client.me(ann).status == .ok)
        }
    }
}

/// Polls `condition` every 10 ms for up to 10 s.
func waitUntilAsync(_ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw WaitTimedOut() }
        try await Task.sleep(for: .milliseconds(10))
    }
}
