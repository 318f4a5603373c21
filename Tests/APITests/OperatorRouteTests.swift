import Foundation
import HummingbirdTesting
import Testing
@testable import API

@Suite("Operator routes", .timeLimit(.minutes(3)))
struct OperatorRouteTests {
    @Test func projectionsAreListedAndRebuiltWithTheOperatorTokenOnly() async throws {
        let server = try TestServer { $0.operatorToken = "operator-secret" }
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            #expect(try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann).status == .created)
            #expect(try await client.send(.get, "/v1/admin/projections").status == .unauthorized)
            #expect(try await client.send(.get, "/v1/admin/projections", token: ann).status == .forbidden, "a user token is not the operator's")
            let list = try await client.send(.get, "/v1/admin/projections", token: "operator-secret")
            #expect(list.status == .ok)
            let names = (list.json["projections"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
            #expect(names.contains("household.houses") && names.contains { $0.hasPrefix("accounts") || $0.hasPrefix("account") })
            let listed = list.json["projections"] as? [[String: Any]] ?? []
            #expect(listed.allSatisfy { $0["state"] as? String == "serving" && $0["failure"] == nil && $0["lastRebuildError"] == nil }, "\(list.text)")
            let rebuild = try await client.send(.post, "/v1/admin/projections/household.houses/rebuild", token: "operator-secret")
            #expect(rebuild.status == .accepted && rebuild.json["name"] as? String == "household.houses")
            var generation = 0
            for _ in 0..<200 where generation == 0 {
                let status = try await client.send(.get, "/v1/admin/projections", token: "operator-secret")
                generation = ((status.json["projections"] as? [[String: Any]])?.first { $0["name"] as? String == "household.houses" })?["generation"] as? Int ?? 0
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(generation == 1, "the rebuilt copy was swapped in")
            #expect(try await client.send(.get, "/v1/me/house", token: ann).json["name"] as? String == "Canal House", "still served after the swap")
            let unknown = try await client.send(.post, "/v1/admin/projections/nope/rebuild", token: "operator-secret")
            #expect(unknown.status == .notFound && unknown.code == "unknown_projection")
        }
    }

    @Test func theChainHeadIsPublishedToTheOperatorOnly() async throws {
        let server = try TestServer { $0.operatorToken = "operator-secret" }
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            #expect(try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann).status == .created)
            let anonymous = try await client.send(.get, "/v1/admin/head")
            #expect(anonymous.status == .unauthorized && anonymous.code != nil)
            // As on every operator route, a user's token is not the operator's: 403 not_an_operator.
            let user = try await client.send(.get, "/v1/admin/head", token: ann)
            #expect(user.status == .forbidden && user.code == "not_an_operator")
            let reply = try await client.send(.get, "/v1/admin/head", token: "operator-secret")
            #expect(reply.status == .ok, "\(reply.text)")
            let head = try #require(try server.runtime.log.lmdb.chainHead())
            #expect(head.position > 0)
            #expect(reply.json["position"] as? Int == Int(head.position))
            #expect(reply.json["hash"] as? String == head.hashHex)
            // The operator's tool, beside the running server, publishes the same head.
            let run = try await AdminTool.run(["head", "--data-dir", server.directory])
            #expect(run.status == 0, "\(run.output)")
            let printed = run.stdout
            #expect(printed == "\(reply.json["position"] as? Int ?? -1):\(reply.json["hash"] as? String ?? "")\n")
            // What the route publishes, verify proves: the log up to it is the one that was read.
            #expect(try server.runtime.log.lmdb.verify(heads: [head]).isHealthy)
        }
    }

    @Test func withoutAnOperatorTokenTheRoutesDoNotExist() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let reply = try await client.send(.get, "/v1/admin/projections", token: "anything")
            #expect(reply.status == .notFound && reply.code == "not_found")
            let head = try await client.send(.get, "/v1/admin/head", token: "anything")
            #expect(head.status == .notFound && head.code == "not_found")
        }
    }
}
