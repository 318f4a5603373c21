import Accounts
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OpenAPIRuntime
import Testing
@testable import API

@Suite("Accounts: no secret leaves the service", .timeLimit(.minutes(3)))
struct AccountsSecrecyTests {
    /// A realistic session of an account's life at the most verbose log level, 2xx and 4xx
    /// answers alike: no response and no log line holds a password, a password hash, a bearer
    /// token, a token hash or a reset or verification token (plain or sealed).
    @Test func noResponseOrLogLineHoldsASecret() async throws {
        let capture = LogCapture()
        let server = try TestServer()
        defer { server.remove() }
        let password = "correct horse"
        let newPassword = "battery staple"
        let (replies, issued) = try await server.test(logger: capture.logger()) { client -> ([Reply], [String]) in
            var replies: [Reply] = []
            var issued: [String] = []
            func keep(_ reply: Reply) -> Reply {
                replies.append(reply)
                if let token = reply.json["token"] as? String { issued.append(token) }
                return reply
            }
            let register = keep(try await client.send(.post, "/v1/accounts", json: [
                "email": "ann@example.org", "password": password, "displayName": "Ann",
            ]))
            let token = try #require(register.json["token"] as? String)
            let verification = try #require(try server.runtime.verificationTokens(to: "ann@example.org").first)
            _ = keep(try await client.send(.post, "/v1/email-verifications/\(verification)", token: token))
            _ = keep(try await client.send(.post, "/v1/email-verifications/\(verification)", token: token))
            let loginKey = UUID().uuidString
            let login = keep(try await client.login("ann@example.org", password, key: loginKey))
            _ = keep(try await client.login("ann@example.org", "wrong password"))
            _ = keep(try await client.me(token))
            _ = keep(try await client.send(.get, "/v1/me/activity", token: token))
            // A body the generated code refuses before any handler runs.
            let plain = keep(try await client.send(.patch, "/v1/me", raw: "hello", token: token, contentType: "text/plain"))
            #expect(plain.status == .unsupportedMediaType && plain.code == "unsupported_media_type" && plain.isProblem)
            // Malformed JSON around a password.
            _ = keep(try await client.send(.post, "/v1/sessions", raw: #"{"email":"ann@example.org","password":"\#(password)""#))
            _ = keep(try await client.send(.put, "/v1/me/password", json: ["currentPassword": "wrong one", "newPassword": newPassword], token: token))
            _ = keep(try await client.send(.put, "/v1/me/password", json: ["currentPassword": password, "newPassword": newPassword], token: token))
            _ = keep(try await client.send(.post, "/v1/password-resets", json: ["email": "ann@example.org"]))
            let resetToken = try #require(try await server.outboxTokens(to: "ann@example.org").first)
            _ = keep(try await client.send(.post, "/v1/password-resets/\(resetToken)", json: ["newPassword": "short"]))
            _ = keep(try await client.send(.post, "/v1/password-resets/\(resetToken)", json: ["newPassword": newPassword + "!"]))
            _ = keep(try await client.send(.post, "/v1/password-resets/\(resetToken)", json: ["newPassword": newPassword + "!"]))
            let fresh = try #require(keep(try await client.login("ann@example.org", newPassword + "!")).json["token"] as? String)
            _ = keep(try await client.send(.delete, "/v1/sessions/current", token: fresh))
            _ = keep(try await client.send(.delete, "/v1/sessions/current", token: token))
            _ = keep(try await client.me(token))
            // A retried login whose session ended (409), and a guesser held back (429).
            #expect(keep(try await client.login("ann@example.org", password, key: loginKey)).status == .unauthorized)
            let guesser = try client.from(2)
            for _ in 1...11 { _ = keep(try await guesser.login("ann@example.org", password)) }
            #expect(replies.last?.status == .tooManyRequests)
            #expect(login.status == .created)
            return (replies, issued)
        }

        let events = try server.runtime.log.lmdb.readAll(from: 1, direction: .forward, limit: 1_000)
            .compactMap { (try? JSONSerialization.jsonObject(with: $0.data)) as? [String: Any] }
        let sealed = events.compactMap { $0["sealedToken"] as? String }
        let resetTokens = sealed.compactMap(SealedToken.init(base64:)).compactMap { server.runtime.auth.secrets.unseal($0) }
        let tokenHashes = events.compactMap { $0["tokenHash"] as? String }
        let passwordHashes = events.compactMap { $0["passwordHash"] as? String ?? $0["newPasswordHash"] as? String }
        // One reset link, one verification link.
        #expect(resetTokens.count == 2 && !tokenHashes.isEmpty && passwordHashes.count >= 3 && issued.count == 3)
        let secrets = [password, newPassword, "$2b$", "$2a$"] + passwordHashes + tokenHashes + resetTokens + sealed

        // The log was really written, at trace level, while the requests were served.
        let log = capture.all
        #expect(log.contains { $0.contains("Server started") })
        #expect(log.contains { $0.hasPrefix("trace") }, "\(log)")
        let texts = replies.map { "\($0.status) \($0.headers) \($0.text)" } + log
        for secret in secrets {
            for text in texts {
                #expect(!text.contains(secret), "\(text) holds a secret")
            }
        }
        // A bearer token is in the answer that issued it, and nowhere in the log.
        for token in issued {
            #expect(replies.count { $0.text.contains(token) } == 1, "only the answer that issued it")
            for line in log { #expect(!line.contains(token), "\(line) holds a token") }
        }
    }

    /// The generated code wraps a handler's failure in a `ServerError` whose description repeats
    /// the whole request, `Authorization` header and body included. The 500 is logged, by route
    /// and with the underlying error, and neither the token nor the password is in the line.
    @Test func aServerErrorIsLoggedWithoutTheRequestItCarries() async throws {
        struct StorageFault: Error, CustomStringConvertible {
            var description: String { "the disk is on fire" }
        }
        let capture = LogCapture()
        let token = AuthTokens.random()
        let password = "correct horse"
        let body = #"{"currentPassword":"\#(password)","newPassword":"battery staple"}"#
        let thrown = Counter()
        let router = Router()
        router.add(middleware: ProblemMiddleware(logger: capture.logger()))
        router.put("/v1/me/password") { request, _ -> Response in
            let error = ServerError(
                operationID: "changePassword",
                request: HTTPRequest(method: request.method, scheme: "http", authority: "localhost", path: request.uri.path,
                                     headerFields: request.headers),
                requestBody: HTTPBody(body), requestMetadata: .init(), operationInput: body,
                causeDescription: "Unknown", underlyingError: StorageFault())
            // What a careless log line would print.
            #expect("\(error)".contains(token))
            thrown.add()
            throw error
        }
        let app = Application(router: router, logger: capture.logger())
        try await app.test(.router) { client in
            let reply = try await client.send(.put, "/v1/me/password", raw: body, token: token)
            #expect(reply.status == .internalServerError && reply.isProblem && reply.code == "internal_error")
            #expect(!reply.text.contains(token) && !reply.text.contains(password))
        }
        #expect(thrown.value == 1)
        let failures = capture.all.filter { $0.contains("request failed") }
        #expect(failures.count == 1)
        #expect(failures.allSatisfy { $0.hasPrefix("error") && $0.contains("/v1/me/password") && $0.contains("the disk is on fire") })
        for line in capture.all {
            #expect(!line.contains(token) && !line.contains(password) && !line.contains("Bearer"), "\(line)")
        }
    }
}
