import EventLog
import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// `logbook-admin audit`, beside a running server: the same trail as the admin API, as a table or
/// JSON lines; exactly one of --actor and --entity.
@Suite("Admin CLI: audit", .timeLimit(.minutes(3)))
struct AdminAuditCLITests {
    @Test func theCLIAuditShowsTheSameTrailAsTheRoute() async throws {
        let clock = TestClock()
        let server = try AdminFixture.server(clock: clock)
        defer { server.remove() }
        let (scenario, byActor, byEntity) = try await server.test { client in
            let scenario = try await AdminScenario.play(client, clock: clock)
            let byActor = try await client.adminPositions("/v1/admin/audit?actor=\(scenario.bob.userId)")
            let byEntity = try await client.adminPositions("/v1/admin/audit?entity=\(scenario.houseId)")
            return (scenario, byActor, byEntity)
        }
        let log = try AdminFixture.logEvents(server.runtime.log.lmdb)

        let json = try await AdminTool.run(["audit", "--data-dir", server.directory, "--actor", scenario.bob.userId, "--json"], unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(json.status == 0, "\(json.output)")
        let lines = json.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.allSatisfy { $0 != nil }, "every line is a JSON object: \(json.stdout)")
        let entries = lines.compactMap { $0 }
        #expect(entries.compactMap { $0["position"] as? Int } == byActor)
        let completion = try #require(entries.first { $0["type"] as? String == "household.taskCompleted" })
        #expect(completion["commandId"] as? String == scenario.completionKey)
        #expect(completion["actor"] as? String == scenario.bob.userId && completion["correlationId"] is String)
        #expect(completion["data"] == nil)

        let table = try await AdminTool.run(["audit", "--data-dir", server.directory, "--entity", scenario.houseId], unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(table.status == 0, "\(table.output)")
        let rows = table.stdout.split(separator: "\n").map(String.init)
        #expect(rows.first?.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                == ["position", "recordedAt", "actor", "type", "stream", "commandId", "correlationId"])
        #expect(rows.dropFirst().compactMap { Int($0.split(separator: " ").first ?? "") } == byEntity)
        let completed = try #require(rows.first { $0.contains("household.taskCompleted") })
        #expect(completed.contains(scenario.bob.userId) && completed.contains(scenario.completionKey))
        #expect(byEntity == log.filter { $0.tags.contains("house:\(scenario.houseId)") }.map { Int($0.position) })

        let limited = try await AdminTool.run(["audit", "--data-dir", server.directory, "--entity", scenario.houseId, "--json", "--limit", "2"], unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(limited.stdout.split(separator: "\n").count == 2)
        let none = try await AdminTool.run(["audit", "--data-dir", server.directory, "--actor", "nobody"], unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(none.status == 0 && none.stdout == "(no events)\n")
    }

    @Test func exactlyOneSubjectOrAUsageError() async throws {
        let directory = NSTemporaryDirectory() + "admin-audit-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for arguments in [["audit"], ["audit", "--actor", "a", "--entity", "b"], ["audit", "--actor", ""], ["audit", "--entity", "x", "--limit", "0"]] {
            let result = try await AdminTool.run(arguments + ["--data-dir", directory], unsetting: ["LOGBOOK_DATA_DIR"])
            #expect(result.status == 2, "\(arguments): \(result.output)")
            #expect(result.stderr.hasPrefix("logbook-admin: "), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }
}
