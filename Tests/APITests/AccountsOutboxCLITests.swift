import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// `logbook-admin outbox` on the data directory of a running server hands out the reset and
/// verification tokens, each with its kind.
@Suite("Accounts: the outbox for the operator's mailer", .timeLimit(.minutes(3)))
struct AccountsOutboxCLITests {
    @Test func theAdminToolListsPendingOutboxMailsWithWorkingTokens() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            #expect(try await client.send(.post, "/v1/password-resets", json: ["email": "ann@example.org"]).status == .accepted)
            try await server.awaitPasswordResets()

            let outbox = try await AdminTool.run(["outbox", "--data-dir", server.directory, "--json"], unsetting: ["LOGBOOK_SECRET_KEY"])
            #expect(outbox.status == 0)
            let lines = outbox.stdout.split(separator: "\n")
            #expect(lines.count == 2)
            let mails = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            #expect(mails.map { $0["kind"] as? String } == ["passwordReset", "emailVerification"], "newest first")
            #expect(mails.allSatisfy { $0["to"] as? String == "ann@example.org" })
            let token = try #require(mails[0]["token"] as? String)
            let redeemed = try await client.send(.post, "/v1/password-resets/\(token)", json: ["newPassword": "battery staple"])
            #expect(redeemed.status == .noContent)
            let session = try #require(try await client.login("ann@example.org", "battery staple").json["token"] as? String)
            let link = try #require(mails[1]["token"] as? String)
            #expect(try await client.send(.post, "/v1/email-verifications/\(link)", token: session).status == .noContent)
        }
    }
}
