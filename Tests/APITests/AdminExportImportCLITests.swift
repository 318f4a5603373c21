import EventLog
import Foundation
import TestSupport
import HummingbirdTesting
import Logging
import Testing
@testable import API

/// `logbook-admin export` and `import` (issue 15): the demo's log of every app exported,
/// imported into an empty directory and exported again is byte-identical, verifies clean, and a
/// runtime on the import rebuilds read models that answer as the original's; bad files and
/// non-empty directories are refused.
@Suite("Admin: logbook-admin export and import", .timeLimit(.minutes(4)))
struct AdminExportImportCLITests {
    @Test func exportImportExportIsByteIdenticalVerifiesAndServesTheSameAnswers() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let summary = try #require(try await prepareFirstStart(runtime: server.runtime, demo: true)?.demo)
        let groupId = summary.albums.groupId
        let original = try await Self.answers(server.runtime, groupId: groupId)
        #expect(original[0].contains(DemoSeed.groupName) && original[3] == "3", "the queries have something to compare: \(original)")
        server.runtime.close()

        let work = TemporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: work.path, withIntermediateDirectories: true)
        let first = work.path + "/first.jsonl", second = work.path + "/second.jsonl", imported = work.path + "/imported"
        let exported = try await AdminTool.run(["export", "--data-dir", server.directory, "--output", first], unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(exported.status == 0, "\(exported.output)")
        let result = try await AdminTool.run(["import", first, "--data-dir", imported], unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(result.status == 0, "\(result.output)")
        let again = try await AdminTool.run(["export", "--data-dir", imported, "--output", second], unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(again.status == 0, "\(again.output)")
        let firstBytes = try Data(contentsOf: URL(fileURLWithPath: first))
        #expect(firstBytes.count > 1_000)
        #expect(firstBytes == (try Data(contentsOf: URL(fileURLWithPath: second))))
        let verify = try await AdminTool.run(["verify", "--data-dir", imported], unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(verify.status == 0, "\(verify.output)")

        // The keys are not in the log: an operator copies them (and the secret that wraps them)
        // beside it, or sealed data stays sealed.
        try FileManager.default.copyItem(atPath: server.directory + "/keys", toPath: imported + "/keys")
        try FileManager.default.copyItem(atPath: server.directory + "/secret.key", toPath: imported + "/secret.key")
        let rebuilt = try LogbookRuntime(configuration: LogbookConfiguration(
            dataDirectory: imported, port: 0, bcryptCost: 4, unsafeNoSync: true, writeAhead: false
        ))
        defer { rebuilt.close() }
        #expect(try await Self.answers(rebuilt, groupId: groupId) == original)
    }

    @Test func badFilesAndNonEmptyDirectoriesAreRefusedLeavingNoLog() async throws {
        let server = try TestServer()
        defer { server.remove() }
        _ = try await prepareFirstStart(runtime: server.runtime, demo: false)
        let work = TemporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: work.path, withIntermediateDirectories: true)
        let file = work.path + "/log.jsonl"
        #expect(try await AdminTool.run(["export", "--data-dir", server.directory, "--output", file], unsetting: ["LOGBOOK_DATA_DIR"]).status == 0)
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count > 3)

        let occupied = work.path + "/occupied"
        try FileManager.default.createDirectory(atPath: occupied, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: occupied + "/notes.txt", contents: Data("keep".utf8))
        let refused = try await AdminTool.run(["import", file, "--data-dir", occupied], unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(refused.status == 2 && refused.stderr.contains("not empty"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: occupied) == ["notes.txt"])

        var corrupted = lines
        corrupted[2] = String(corrupted[2].dropLast(5))
        var gap = lines
        gap.remove(at: 2)
        var wrongHead = lines
        // The header ends `…"head":"N:HASH"}`: change the hash's last digit.
        let digit = wrongHead[0].index(wrongHead[0].endIndex, offsetBy: -3)
        wrongHead[0].replaceSubrange(digit...digit, with: wrongHead[0][digit] == "0" ? "1" : "0")
        for (name, damaged) in [("corrupted", corrupted), ("gap", gap), ("wrongHead", wrongHead)] {
            #expect(damaged != lines, "\(name) differs")
            let path = work.path + "/\(name).jsonl"
            try (damaged.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            let target = work.path + "/into-\(name)"
            let outcome = try await AdminTool.run(["import", path, "--data-dir", target], unsetting: ["LOGBOOK_DATA_DIR"])
            #expect(outcome.status == 1 && outcome.stderr.contains("import refused"), "\(name): \(outcome.output)")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: target)) ?? []
            #expect(!left.contains("log"), "\(name) left \(left)")
            let verify = try await AdminTool.run(["verify", "--data-dir", target], unsetting: ["LOGBOOK_DATA_DIR"])
            #expect(verify.status != 0, "\(name): nothing there looks like a log")
        }
    }

    /// A few queries through the HTTP API, as Bob of the demo.
    static func answers(_ runtime: LogbookRuntime, groupId: String) async throws -> [String] {
        let app = try buildApplication(runtime: runtime, logger: Logger(label: "api-tests"))
        return try await app.test(.live) { client in
            // A runtime on an imported log starts with no read models: they rebuild from it.
            try await runtime.projections.waitUntilProjected(try runtime.log.lmdb.headPosition(), timeout: .seconds(60))
            let bob = try #require(try await client.login("bob@example.org", DemoSeed.password).json["token"] as? String)
            let groups = try await client.send(.get, "/v1/groups", token: bob)
            let photos = try await client.send(.get, "/v1/groups/\(groupId)/photos", token: bob)
            let messages = try await client.send(.get, "/v1/groups/\(groupId)/messages", token: bob)
            return [
                groups.list("items").compactMap { $0["name"] as? String }.joined(separator: ","),
                photos.list("items").compactMap { $0["photoId"] as? String }.joined(separator: ","),
                messages.list("items").compactMap { $0["text"] as? String ?? $0["body"] as? String }.joined(separator: "|"),
                String(messages.list("items").count),
            ]
        }
    }
}
