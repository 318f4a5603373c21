import Accounts
import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// Issue 10 item 2: a client's input that would make an empty or over-long storage key (LMDB
/// keys are 1 to 511 bytes) is answered like any other unknown or invalid input, never 500.
@Suite("Storage keys from client input", .timeLimit(.minutes(3)))
struct StorageKeyRouteTests {
    /// 600 characters: over LMDB's 511-byte key limit on its own.
    static let long = String(repeating: "x", count: 600)

    private func expect(_ reply: Reply, _ status: Int, _ code: String, _ what: String) {
        #expect(reply.status.code == status && reply.code == code && reply.isProblem, "\(what): \(reply.status) \(reply.text)")
    }

    @Test func loginAndPasswordResetWithABlankOrOverlongEmailAreAnsweredAsForAnUnknownOne() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            for email in ["", "   ", Self.long, Self.long + "@example.org"] {
                let login = try await client.login(email, "correct horse")
                // The accounts routes answer an e-mail no account can have as a wrong one.
                #expect(login.isProblem && login.status.code < 500, "\(email.prefix(8)): \(login.status) \(login.text)")
                #expect((login.status.code == 401 && login.code == "invalid_credentials")
                    || (login.status.code == 422 && login.code == "validation_failed"), "\(login.status) \(login.text)")
                let reset = try await client.send(.post, "/v1/password-resets", json: ["email": email])
                #expect(reset.status == .accepted, "password resets always answer 202: \(reset.status) \(reset.text)")
            }
            #expect(try await client.login("ann@example.org", "correct horse").status == .created, "the server still works")
        }
    }

    @Test func registeringWithAnOverlongEmailOrUsernameIsAValidationProblem() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            // The decider's boundary queries the e-mail's and the username's tags before it checks them.
            let email = try await client.send(.post, "/v1/accounts", json: ["email": Self.long + "@example.org", "password": "correct horse",
                                                                           "displayName": "Ann"])
            expect(email, 422, "validation_failed", "long e-mail")
            #expect(email.fieldsInError == ["email"])
            let username = try await client.send(.post, "/v1/accounts", json: ["email": "ann@example.org", "password": "correct horse",
                                                                              "displayName": "Ann", "username": Self.long])
            expect(username, 422, "validation_failed", "long username")
            #expect(username.fieldsInError == ["username"])
        }
    }

    /// The field checks bound every key a client's input becomes, well under LMDB's limit: the
    /// longest allowed e-mail and username are stored and found again.
    @Test func theLongestAllowedEmailAndUsernameAreStoredAndFound() async throws {
        let server = try TestServer()
        defer { server.remove() }
        _ = try await prepareFirstStart(runtime: server.runtime, demo: false)  // the starter questions
        try await server.test { client in
            let domain = "@example.org"
            let email = String(repeating: "a", count: AccountRules.emailBytesMax - domain.utf8.count) + domain
            let username = String(repeating: "u", count: 30)
            _ = try await client.register(email, username: username)
            #expect(try await client.login(email.uppercased(), "correct horse").status == .created)
            let bob = try await client.register("bob@example.org", username: "bob").token
            let game = try await client.send(.post, "/v1/quiz/games", json: ["opponentUsername": username.uppercased()], token: bob)
            #expect(game.status == .created, "\(game.text)")
            let tooLong = try await client.send(.post, "/v1/accounts", json: ["email": "a" + email, "password": "correct horse",
                                                                             "displayName": "Ann"])
            expect(tooLong, 422, "validation_failed", "one byte over the e-mail limit")
        }
    }

    @Test func joiningWithAnEmptyOrOverlongCodeIsAWrongCode() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            for code in ["", Self.long, String(repeating: "é", count: 300)] {
                expect(try await client.send(.post, "/v1/houses/join", json: ["joinCode": code], token: ann), 404, "wrong_join_code",
                       "join code of \(code.utf8.count) bytes")
            }
        }
    }

    @Test func challengingAnEmptyOrOverlongUsernameFindsNoPlayer() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org", username: "ann").token
            for username in ["", Self.long] {
                expect(try await client.send(.post, "/v1/quiz/games", json: ["opponentUsername": username], token: ann), 404,
                       "player_not_found", "username of \(username.count) characters")
            }
        }
    }

    @Test func overlongIdsInPathsAreUnknown() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org", displayName: "Ann", extra: ["postcode": "1012AB"]).token
            let id = Self.long
            let cases: [(Reply, Int, String)] = [
                (try await client.send(.get, "/v1/houses/\(id)", token: ann), 404, "house_not_found"),
                (try await client.send(.get, "/v1/houses/\(id)/scoreboard", token: ann), 404, "house_not_found"),
                (try await client.send(.get, "/v1/houses/\(id)/rooms/\(id)/tasks", token: ann), 404, "house_not_found"),
                (try await client.send(.post, "/v1/houses/\(id)/rooms", json: ["name": "Hall"], token: ann), 404, "house_not_found"),
                (try await client.send(.get, "/v1/neighbourhood/reports/\(id)", token: ann), 404, "report_not_found"),
                (try await client.send(.put, "/v1/neighbourhood/reports/\(id)/follow", token: ann), 404, "report_not_found"),
                (try await client.send(.get, "/v1/quiz/games/\(id)", token: ann), 404, "game_not_found"),
            ]
            for (reply, status, code) in cases { expect(reply, status, code, "id of 600 characters") }
        }
    }
}
