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
        let admin = try ServerBinary.url().deletingLastPathComponent().appendingPathComponent("logbook-admin")
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            #expect(try await client.send(.post, "/v1/password-resets", json: ["email": "ann@example.org"]).status == .accepted)
            try await server.awaitPasswordResets()

            let process = Process()
            process.executableURL = admin
            process.arguments = ["outbox", "--data-dir", server.directory, "--json"]
            var environment = ProcessInfo.processInfo.environment
            environment["LOGBOOK_SECRET_KEY"] = nil
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            try SpawnLock.run(process)
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
            #expect(lines.count == 1)
            let mail = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
            #expect(mail["to"] as? String == "ann@example.org")
            let token = try #require(mail["token"] as? String)
            let redeemed = try await client.send(.post, "/v1/password-resets/\(token)", json: ["newPassword": "battery staple"])
            #expect(redeemed.status == .noContent)
        }
    }
}
