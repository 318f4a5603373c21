import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// SPEC §4 household: guessing join codes is limited per user and per client address, and a
/// right code is always accepted, so no one behind a shared address is blocked. Each client
/// address is real: the requests come from distinct loopback addresses (`AddressedClient`).
@Suite("Household: join-code limits by user and address", .timeLimit(.minutes(3)))
struct HouseholdJoinLimitTests {
    /// Ann's house; its join code.
    private func house(_ client: any TestClientProtocol) async throws -> String {
        let ann = try await client.register("ann@example.org", displayName: "Ann")
        let created = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann.token)
        try #require(created.status == .created, "\(created.text)")
        return try #require(created.json["joinCode"] as? String)
    }

    private func join(_ from: AddressedClient, _ code: String, _ token: String) async throws -> Reply {
        try await from.send(.post, "/v1/houses/join", json: ["joinCode": code], token: token)
    }

    private func guess(_ attempt: Int) -> String { "guess-\(attempt)-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" }

    /// The attack: ten wrong codes from one address, then a housemate from the same address
    /// with the right code joins; the guesser's next wrong code there is 429 with Retry-After.
    @Test func aRightCodeJoinsFromAnAddressThatGuessed() async throws {
        let clock = TestClock()
        let pauses = RecordedPauses()
        let server = try TestServer(clock: clock, pauses: pauses)
        defer { server.remove() }
        try await server.test { client in
            let code = try await house(client)
            let eve = try await client.register("eve@example.org", displayName: "Eve").token
            let bob = try await client.register("bob@example.org", displayName: "Bob").token
            let flat = try client.from(2)
            for attempt in 1...10 {
                let reply = try await join(flat, guess(attempt), eve)
                #expect(reply.status == .notFound && reply.code == "wrong_join_code", "failure \(attempt): \(reply.text)")
                clock.advance(by: 10)
            }
            #expect(pauses.durations.isEmpty, "below the limit nothing waits")
            let refused = try await join(flat, guess(11), eve)
            #expect(refused.status == .tooManyRequests && refused.code == "too_many_attempts" && refused.isProblem)
            #expect(refused.headers[.retryAfter] == String(15 * 60 - 100), "until the first failure is 15 minutes old")

            let housemate = try await join(flat, code, bob)
            #expect(housemate.status == .ok, "the right code from the same address joins: \(housemate.text)")
            #expect(pauses.durations == [.seconds(3), .seconds(3)], "over the limit each attempt waits before its check")
        }
    }

    /// The user's limit holds from every address; a right code still joins.
    @Test func aUsersLimitFollowsThemToOtherAddresses() async throws {
        let pauses = RecordedPauses()
        let server = try TestServer(pauses: pauses)
        defer { server.remove() }
        try await server.test { client in
            let code = try await house(client)
            let eve = try await client.register("eve@example.org", displayName: "Eve").token
            for attempt in 1...10 { #expect(try await join(try client.from(2), guess(attempt), eve).status == .notFound) }
            let elsewhere = try client.from(3)
            let refused = try await join(elsewhere, guess(11), eve)
            #expect(refused.status == .tooManyRequests && refused.code == "too_many_attempts")
            #expect(refused.headers[.retryAfter].flatMap(Int.init).map { (1...900).contains($0) } == true)
            #expect(try await join(try client.from(4), guess(12), eve).status == .tooManyRequests)
            // A fresh user from there is not held back by Eve's guessing.
            let dan = try await client.register("dan@example.org", displayName: "Dan").token
            #expect(try await join(elsewhere, guess(13), dan).status == .notFound)
            #expect(try await join(elsewhere, code, eve).status == .ok, "her own right code is accepted too")
        }
    }

    /// One wrong code each from many users: no user reaches the limit, the address does; the
    /// same users elsewhere are not held back.
    @Test func anAddressLimitCountsEveryUserFromThere() async throws {
        let server = try TestServer(pauses: RecordedPauses())
        defer { server.remove() }
        try await server.test { client in
            _ = try await house(client)
            var tokens: [String] = []
            for user in 1...11 { tokens.append(try await client.register("user\(user)@example.org", displayName: "User \(user)").token) }
            let campus = try client.from(2)
            for user in 0..<10 { #expect(try await join(campus, guess(user), tokens[user]).status == .notFound) }
            let refused = try await join(campus, guess(10), tokens[10])
            #expect(refused.status == .tooManyRequests && refused.code == "too_many_attempts")
            #expect(refused.headers[.retryAfter].flatMap(Int.init).map { (1...900).contains($0) } == true)
            let elsewhere = try client.from(3)
            #expect(try await join(elsewhere, guess(11), tokens[10]).status == .notFound, "not counted against the user")
            #expect(try await join(elsewhere, guess(12), tokens[0]).status == .notFound)
        }
    }

    /// Over the limit a user has one attempt in flight at most: the guesser cannot buy more
    /// attempts with more connections, while a housemate's attempt waits beside it and joins.
    @Test func overTheLimitAUserHasOneAttemptInFlight() async throws {
        let pauses = RecordedPauses()
        let server = try TestServer(pauses: pauses)
        defer { server.remove() }
        try await server.test { client in
            let code = try await house(client)
            let eve = try await client.register("eve@example.org", displayName: "Eve").token
            let bob = try await client.register("bob@example.org", displayName: "Bob").token
            let flat = try client.from(2)
            for attempt in 1...10 { #expect(try await join(flat, guess(attempt), eve).status == .notFound) }
            pauses.hold()
            defer { pauses.release() }  // a failed wait below must not leave a request held
            let first = Task { try await join(flat, guess(11), eve) }
            try await waitUntil(timeout: .seconds(10)) { pauses.heldCount == 1 }
            let answered = Counter()
            let secondAttempt = Task {
                defer { answered.add() }
                return try await join(try client.from(3), code, eve)
            }
            // Answered at once, not held in a pause of its own.
            try await waitUntil(timeout: .seconds(10)) { answered.value == 1 }
            let second = try await secondAttempt.value
            #expect(second.status == .tooManyRequests && second.headers[.retryAfter] != nil, "refused unchecked while her first waits")
            #expect(pauses.heldCount == 1)
            let housemate = Task { try await join(flat, code, bob) }
            try await waitUntil(timeout: .seconds(10)) { pauses.heldCount == 2 }
            pauses.release()
            #expect(try await first.value.status == .tooManyRequests)
            #expect(try await housemate.value.status == .ok)
            #expect(try await join(flat, code, eve).status == .ok, "alone again, her right code joins")
        }
    }
}
