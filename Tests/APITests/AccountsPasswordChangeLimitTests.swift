import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// SPEC §1 Accounts: a password change is limited only by the signed-in user's own failed attempts.
@Suite("Accounts: password change limits", .timeLimit(.minutes(3)))
struct AccountsPasswordChangeLimitTests {
    @Test func othersLoginFailuresDoNotBlockTheOwnersPasswordChange() async throws {
        let pauses = RecordedPauses()
        let server = try TestServer(pauses: pauses)
        defer { server.remove() }
        try await server.test { client in
            let (_, token) = try await client.register("ann@example.org")
            // Held back at one address, slowed down everywhere.
            let guesser = try client.from(2)
            for _ in 1...11 { _ = try await guesser.login("ann@example.org", "wrong password") }
            #expect(try await guesser.login("ann@example.org", "correct horse").status == .tooManyRequests)
            for host in 10..<20 { #expect(try await client.from(host).login("ann@example.org", "wrong password").status == .unauthorized) }

            let change = ["currentPassword": "correct horse", "newPassword": "battery staple"]
            #expect(try await client.send(.put, "/v1/me/password", json: change, token: token).status == .noContent)
            // Even from the address held back for her e-mail: it is her session, not a guess.
            let back = ["currentPassword": "battery staple", "newPassword": "correct horse"]
            #expect(try await guesser.send(.put, "/v1/me/password", json: back, token: token).status == .noContent)
        }
    }

    @Test func theUsersOwnWrongCurrentPasswordsLimitTheChange() async throws {
        let clock = TestClock()
        let server = try TestServer(clock: clock)
        defer { server.remove() }
        try await server.test { client in
            let (_, token) = try await client.register("ann@example.org")
            let (_, bobToken) = try await client.register("bob@example.org")
            let wrong = ["currentPassword": "wrong password", "newPassword": "battery staple"]
            for attempt in 1...10 {
                let reply = try await client.send(.put, "/v1/me/password", json: wrong, token: token)
                #expect(reply.status == .forbidden && reply.code == "invalid_credentials", "attempt \(attempt)")
                clock.advance(by: 10)
            }
            let right = ["currentPassword": "correct horse", "newPassword": "battery staple"]
            let held = try await client.send(.put, "/v1/me/password", json: right, token: token)
            #expect(held.status == .tooManyRequests && held.code == "too_many_attempts" && held.isProblem)
            #expect(held.headers[.retryAfter] == String(15 * 60 - 100))
            // Her limit is hers: her login and Bob's change are not affected, from the same address.
            #expect(try await client.login("ann@example.org", "correct horse").status == .created)
            let bobChange = ["currentPassword": "correct horse", "newPassword": "bobs new one"]
            #expect(try await client.send(.put, "/v1/me/password", json: bobChange, token: bobToken).status == .noContent)
            // Another address or another session of hers does not help a stolen token.
            #expect(try await client.from(3).send(.put, "/v1/me/password", json: right, token: token).status == .tooManyRequests)

            clock.advance(by: 15 * 60 - 100)
            #expect(try await client.send(.put, "/v1/me/password", json: right, token: token).status == .noContent)
        }
    }

    /// Simultaneous wrong current passwords of one user: exactly 10 are checked.
    @Test func simultaneousWrongCurrentPasswordsNeverExceedTheLimit() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, token) = try await client.register("ann@example.org")
            let wrong = ["currentPassword": "wrong password", "newPassword": "battery staple"]
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for host in 10..<40 {
                    let from = try client.from(host)
                    group.addTask { try await from.send(.put, "/v1/me/password", json: wrong, token: token).status.code }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.count { $0 == 403 } == 10)
            #expect(statuses.count { $0 == 429 } == 20)
        }
    }
}
