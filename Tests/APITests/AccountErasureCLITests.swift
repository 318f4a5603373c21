import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// `logbook-admin replay` folds a server's sealed events with the server's keys (ADR 0004):
/// names come back for live accounts and read "Deleted user" for erased ones.
@Suite("Account erasure: the admin tool", .timeLimit(.minutes(2)))
struct AccountErasureCLITests {
    @Test func replayOpensSealedEventsWithTheServersKeys() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let (ann, houseId) = try await server.test { client in
            let ann = try await client.register("ann@example.org", displayName: "Annabel")
            let eve = try await client.register("eve@example.org", displayName: "Evelyn")
            let created = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann.token)
            let code = try #require(created.json["joinCode"] as? String)
            try #require(try await client.send(.post, "/v1/houses/join", json: ["joinCode": code], token: eve.token).status == .ok)
            try #require(try await client.send(.delete, "/v1/me", json: ["password": "correct horse"], token: eve.token).status == .noContent)
            await server.runtime.readModelsScrubbed()
            return (ann.token, try #require(created.json["houseId"] as? String))
        }
        // Without LOGBOOK_SECRET_KEY: the data directory's secret.key, as the server used.
        let replay = try await AdminTool.run(["replay", "--data-dir", server.directory], unsetting: ["LOGBOOK_SECRET_KEY"])
        let text = replay.output
        #expect(replay.status == 0, "\(text)")
        #expect(!text.contains("failed"), "\(text)")

        try await server.test { client in
            let house = try await client.send(.get, "/v1/houses/\(houseId)", token: ann)
            let members = (house.json["members"] as? [[String: Any]] ?? []).compactMap { $0["displayName"] as? String }
            #expect(members == ["Annabel", "Deleted user"], "\(house.text)")
        }
    }
}
