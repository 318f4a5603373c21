import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// `logbook-admin outbox` on the data directory of a running server hands out the reset token.
@Suite("Accounts: the outbox for the operator's mailer", .timeLimit(.minutes(3)))
struct AccountsOutboxCLITests {
    @Test func theAdminToolListsPendingResetMailsWithWorkingTokens() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            #expect(try await client.send(.post, "/v1/password-resets", json: ["email": "ann@example.org"]).status == .accepted)
            try await server.awaitPasswordResets()

            let outbox = try await AdminTool.run(["outbox", "--data-dir", server.directory, "--json"], unsetting: ["LOGBOOK_SECRET_KEY"])
            #expect(outbox.status == 0)
            let lines = outbox.stdout.split(separator: "\n")
            #expect(lines.count == 1)
            let mail = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
            #expect(mail["to"] as? String == "ann@example.org")
            let token = try #require(mail["token"] as? String)
            let redeemed = try await client.send(.post, "/v1/password-resets/\(token)", json: ["newPassword": "battery staple"])
            #expect(redeemed.status == .noContent)
        }
    }
}
