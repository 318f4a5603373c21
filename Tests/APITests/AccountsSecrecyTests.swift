import Accounts
import Foundation
import HummingbirdTesting
import Testing
@testable import API

@Suite("Accounts: no secret leaves the service")
struct AccountsSecrecyTests {
    @Test func noResponseOrLogLineHoldsAPasswordOrATokenHash() async throws {
        let capture = LogCapture()
        let server = try TestServer()
        defer { server.remove() }
        let password = "correct horse"
        let newPassword = "battery staple"
        let replies = try await server.test(logger: capture.logger()) { client -> [Reply] in
            var replies: [Reply] = []
            let register = try await client.send(.post, "/v1/accounts", json: [
                "email": "ann@example.org", "password": password, "displayName": "Ann",
            ])
            replies.append(register)
            let token = try #require(register.json["token"] as? String)
            replies.append(try await client.login("ann@example.org", password))
            replies.append(try await client.login("ann@example.org", "wrong password"))
            replies.append(try await client.me(token))
            replies.append(try await client.send(.get, "/v1/me/activity", token: token))
            // A body the generated code refuses before any handler runs: a problem, and no log of the request.
            let plain = try await client.send(.patch, "/v1/me", raw: "hello", token: token, contentType: "text/plain")
            #expect(plain.status == .unsupportedMediaType && plain.code == "unsupported_media_type" && plain.isProblem)
            replies.append(plain)
            replies.append(try await client.send(.put, "/v1/me/password", json: ["currentPassword": password, "newPassword": newPassword], token: token))
            replies.append(try await client.send(.post, "/v1/password-resets", json: ["email": "ann@example.org"]))
            let resetToken = try #require(try server.outboxTokens(to: "ann@example.org").first)
            replies.append(try await client.send(.post, "/v1/password-resets/\(resetToken)", json: ["newPassword": "short"]))
            replies.append(try await client.send(.post, "/v1/password-resets/\(resetToken)", json: ["newPassword": newPassword + "!"]))
            replies.append(try await client.send(.post, "/v1/password-resets/\(resetToken)", json: ["newPassword": newPassword + "!"]))
            let fresh = try #require(try await client.login("ann@example.org", newPassword + "!").json["token"] as? String)
            replies.append(try await client.send(.delete, "/v1/sessions/current", token: fresh))
            replies.append(try await client.send(.delete, "/v1/sessions/current", token: token))
            replies.append(try await client.me(token))
            return replies
        }
        let tokens = try server.runtime.log.readAll(from: 1, direction: .forward, limit: 100)
            .compactMap { try? JSONSerialization.jsonObject(with: $0.data) as? [String: Any] }
            .compactMap { ($0["sealedToken"] as? String).flatMap(SealedToken.init(base64:)) }
            .compactMap { server.runtime.auth.secrets.unseal($0) }
        let credentials = try #require(try server.runtime.accounts.credentials(email: "ann@example.org"))
        let tokenHashes = try server.runtime.log.readAll(from: 1, direction: .forward, limit: 100)
            .compactMap { event -> String? in
                let json = (try? JSONSerialization.jsonObject(with: event.data)) as? [String: Any]
                return json?["tokenHash"] as? String
            }
        #expect(!tokenHashes.isEmpty && tokens.count == 1)
        let secrets = [password, newPassword, credentials.passwordHash.bcrypt, "$2b$", "$2a$"] + tokenHashes + tokens
        let texts = replies.map { "\($0.headers) \($0.text)" } + capture.all
        #expect(!capture.all.isEmpty, "the logger was used")
        for secret in secrets {
            for text in texts {
                #expect(!text.contains(secret), "\(text) holds a secret")
            }
        }
    }
}
