import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// Every operator route answers only the operator token: no token is 401 with the Bearer
/// challenge, a user's session or a wrong token 403 `not_an_operator`, and without an operator
/// token configured the routes do not exist (404).
@Suite("Admin API: access", .timeLimit(.minutes(2)))
struct AdminAccessTests {
    private static let reads = [
        "/v1/admin/events", "/v1/admin/streams/house-x", "/v1/admin/audit?actor=system", "/v1/admin/projections", "/v1/admin/head",
        "/v1/admin/stats",
    ]

    @Test func onlyTheOperatorTokenReadsTheLog() async throws {
        let server = try AdminFixture.server()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            for path in Self.reads {
                let anonymous = try await client.send(.get, path)
                #expect(anonymous.status == .unauthorized && anonymous.code == "unauthorized" && anonymous.isProblem, "\(path)")
                #expect(anonymous.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true, "\(path)")
                for token in [ann, "operator-secreT", "operator-secret-", String(repeating: "o", count: 2_000)] {
                    let refused = try await client.send(.get, path, token: token)
                    #expect(refused.status == .forbidden && refused.code == "not_an_operator" && refused.isProblem, "\(path) with \(token.prefix(20))")
                    #expect(!refused.text.contains("ann@example.org"))
                }
                let allowed = try await client.send(.get, path, token: AdminFixture.operatorToken)
                #expect(allowed.status == .ok || (path.contains("streams") && allowed.status == .notFound), "\(path): \(allowed.text)")
            }
            let rebuild = try await client.send(.post, "/v1/admin/projections/household.houses/rebuild", token: ann)
            #expect(rebuild.status == .forbidden && rebuild.code == "not_an_operator")
        }
    }

    @Test func withoutAnOperatorTokenConfiguredTheRoutesAreHidden() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            for path in Self.reads {
                for token in [nil, "anything"] as [String?] {
                    let reply = try await client.send(.get, path, token: token)
                    #expect(reply.status == .notFound && reply.code == "not_found", "\(path)")
                }
            }
            // The console too: a server that has no operators serves no operators' page.
            for path in ["/admin", "/admin/console.js", "/admin/index.html"] {
                let reply = try await client.send(.get, path)
                #expect(reply.status == .notFound && reply.code == "not_found" && reply.isProblem, "\(path)")
            }
        }
    }
}
