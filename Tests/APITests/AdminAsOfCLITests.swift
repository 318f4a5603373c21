import EventLog
import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// `logbook-admin replay --as-of`, beside a running server: read models as of a position or a
/// time in a temporary copy, the scoreboard as its route answered then, and bad points refused.
@Suite("Admin CLI: replay --as-of", .timeLimit(.minutes(3)))
struct AdminAsOfCLITests {
    private static func json(_ text: String) -> NSDictionary? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? NSDictionary
    }

    @Test func theScoreboardAsOfAPositionOrATimeIsTheOneServedThenAndBadPointsAreUsageErrors() async throws {
        // The clock moves between completions: events recorded at one instant all resolve to the last.
        let clock = TestClock()
        let server = try AdminFixture.server(clock: clock)
        defer { server.remove() }
        let (houseId, positions, scoreboards) = try await server.test { client in
            let ann = try await client.register("ann@example.org", displayName: "Ann")
            let bob = try await client.register("bob@example.org", displayName: "Bob")
            let (houseId, taskId) = try await AdminFixture.houseWithTask(client, owner: ann.token, member: bob.token)
            var positions: [UInt64] = [], scoreboards: [String] = []
            for completer in [bob, ann, bob] {
                clock.advance(by: 60)
                let done = try await client.send(.post, "/v1/houses/\(houseId)/tasks/\(taskId)/completions", token: completer.token)
                try #require(done.status == .created, "\(done.text)")
                positions.append(try await server.runtime.log.lmdb.headPosition())
                scoreboards.append(try await client.send(.get, "/v1/houses/\(houseId)/scoreboard", token: ann.token).text)
            }
            return (houseId, positions, scoreboards)
        }
        let statusBefore = try await server.runtime.projections.status()
        let directory = ["--data-dir", server.directory]

        let middle = try await AdminTool.run(["replay", "--as-of", "\(positions[1])", "--query", "household-scoreboard", "--house", houseId] + directory,
                                       unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(middle.status == 0, "\(middle.output)")
        #expect(Self.json(middle.stdout) != nil && Self.json(middle.stdout) == Self.json(scoreboards[1]), "\(middle.stdout) vs \(scoreboards[1])")
        #expect(Self.json(scoreboards[1]) != Self.json(scoreboards[2]))

        // A time resolves to the last position recorded at or before it: p2's own recordedAt.
        let recorded = try #require(try server.runtime.log.lmdb.readAll(from: positions[1], limit: 1).first).recordedAt
        let microseconds = Int64((recorded.timeIntervalSince1970 * 1_000_000).rounded())
        let seconds = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(microseconds / 1_000_000))).dropLast()
        let time = String(seconds) + String(format: ".%06dZ", Int(microseconds % 1_000_000))
        let byTime = try await AdminTool.run(["replay", "--as-of", time, "--query", "household-scoreboard", "--house", houseId] + directory,
                                       unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(byTime.status == 0 && Self.json(byTime.stdout) == Self.json(scoreboards[1]), "\(time): \(byTime.output)")

        // Status: every read model at the position, in the copy.
        let status = try await AdminTool.run(["replay", "--as-of", "\(positions[0])", "--projection", "household.tasks"] + directory, unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(status.status == 0, "\(status.output)")
        let rows = status.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(rows.first == ["as", "of", "position", "\(positions[0])"])
        #expect(rows.dropFirst().first == ["projection", "version", "checkpoint", "state"])
        #expect(rows.count == 3 && rows[2].first == "household.tasks" && rows[2][2] == "\(positions[0])" && rows[2][3] == "serving", "\(status.stdout)")

        // The served read models were not touched.
        #expect(try await server.runtime.projections.status() == statusBefore)

        let head = positions[2]
        let usage: [[String]] = [
            ["replay", "--as-of", "0"], ["replay", "--as-of", "\(head + 1)"], ["replay", "--as-of", "2026-13-45T00:00:00Z"],
            ["replay", "--as-of", "yesterday"], ["replay", "--as-of", "1970-01-01T00:00:00Z"],
            ["replay", "--as-of", "\(head)", "--query", "household-scoreboard"], ["replay", "--query", "quiz-game", "--game", "g", "--user", "u"],
            ["replay", "--as-of", "\(head)", "--projection", "no.such"],
        ]
        for arguments in usage {
            let result = try await AdminTool.run(arguments + directory, unsetting: ["LOGBOOK_DATA_DIR"])
            #expect(result.status == 2 && result.stderr.hasPrefix("logbook-admin: ") && result.stdout.isEmpty, "\(arguments): \(result.output)")
        }
        let unknown = try await AdminTool.run(["replay", "--as-of", "\(head)", "--query", "household-scoreboard", "--house", UUID().uuidString.lowercased()] + directory,
                                        unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(unknown.status == 1 && unknown.stderr.contains("no house") && unknown.stdout.isEmpty, "\(unknown.output)")
    }
}
