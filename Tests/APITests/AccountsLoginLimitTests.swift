import Foundation
import HummingbirdTesting
import Synchronization
import Testing
@testable import API

/// SPEC §1 Accounts: failed logins are limited per (e-mail, client address) and per client
/// address; no anonymous client can lock the owner out. Each client address is real: the
/// requests come from distinct loopback addresses (`AddressedClient`).
@Suite("Accounts: login limits by e-mail and address", .timeLimit(.minutes(3)))
struct AccountsLoginLimitTests {
    @Test func tenFailuresForAnEmailFromOneAddressHoldItBackFromThereOnly() async throws {
        let clock = TestClock()
        let server = try TestServer(clock: clock)
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            let guesser = try client.from(2)
            for attempt in 1...10 {
                let reply = try await guesser.login("ann@example.org", "wrong password")
                #expect(reply.status == .unauthorized && reply.code == "invalid_credentials", "failure \(attempt)")
                clock.advance(by: 10)
            }
            let eleventh = try await guesser.login("ann@example.org", "wrong password")
            #expect(eleventh.status == .tooManyRequests && eleventh.code == "too_many_attempts" && eleventh.isProblem)
            #expect(eleventh.headers[.retryAfter] == String(15 * 60 - 100), "until the first failure is 15 minutes old")
            // From there even the right password waits...
            let locked = try await guesser.login("ann@example.org", "correct horse")
            #expect(locked.status == .tooManyRequests && locked.headers[.retryAfter] == String(15 * 60 - 100))
            // ...but not from an address that has not failed.
            #expect(try await client.from(3).login("ann@example.org", "correct horse").status == .created)
            #expect(try await client.login("ann@example.org", "correct horse").status == .created)

            clock.advance(by: 15 * 60 - 100)
            #expect(try await guesser.login("ann@example.org", "correct horse").status == .created, "the window passed")
        }
    }

    @Test func tenFailuresFromOneAddressHoldItBackForEveryEmailFromThereOnly() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            _ = try await client.register("bob@example.org")
            let guesser = try client.from(2)
            // One failure per e-mail: no (e-mail, address) pair reaches its limit, the address does.
            for attempt in 1...10 {
                #expect(try await guesser.login("guess\(attempt)@example.org", "password1").status == .unauthorized)
            }
            for email in ["ann@example.org", "bob@example.org", "guess11@example.org"] {
                let reply = try await guesser.login(email, email == "guess11@example.org" ? "password1" : "correct horse")
                #expect(reply.status == .tooManyRequests && reply.code == "too_many_attempts")
                #expect(reply.headers[.retryAfter].flatMap(Int.init).map { (1...900).contains($0) } == true)
            }
            let elsewhere = try client.from(3)
            #expect(try await elsewhere.login("ann@example.org", "correct horse").status == .created)
            #expect(try await elsewhere.login("guess1@example.org", "password1").status == .unauthorized, "counted from there, not here")
        }
    }

    /// The owner's own typos are forgiven by their login, also in the address's count; the
    /// address's failures for other e-mails are not.
    @Test func aLoginForgivesTheAddressItsFailuresForThatEmailOnly() async throws {
        let pauses = RecordedPauses()
        let server = try TestServer(pauses: pauses)
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            let home = try client.from(2)
            for _ in 1...9 { #expect(try await home.login("ann@example.org", "wrong password").status == .unauthorized) }
            #expect(try await home.login("ann@example.org", "correct horse").status == .created)
            for _ in 1...9 { #expect(try await home.login("ann@example.org", "wrong password").status == .unauthorized) }
            #expect(try await home.login("ann@example.org", "correct horse").status == .created)

            for attempt in 1...5 { #expect(try await home.login("other\(attempt)@example.org", "password1").status == .unauthorized) }
            for _ in 1...4 { #expect(try await home.login("ann@example.org", "wrong password").status == .unauthorized) }
            #expect(try await home.login("ann@example.org", "correct horse").status == .created)
            for _ in 1...5 { #expect(try await home.login("ann@example.org", "wrong password").status == .unauthorized) }
            let held = try await home.login("ann@example.org", "correct horse")
            #expect(held.status == .tooManyRequests, "5 failures for others stayed counted, 5 for ann were added: \(held.text)")
            #expect(pauses.durations.isEmpty, "her forgiven typos do not slow her down: never more than 9 counted")
        }
    }

    /// Many addresses each failing a little: the e-mail is slowed down, growing with its
    /// failures up to a cap, and its owner still gets in from an address that has not failed.
    @Test func anEmailFailingFromManyAddressesIsSlowedDownNeverHeldBack() async throws {
        let pauses = RecordedPauses()
        let server = try TestServer(pauses: pauses)
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            for host in 10..<40 {
                let reply = try await client.from(host).login("ann@example.org", "wrong password")
                #expect(reply.status == .unauthorized, "never held back: \(reply.text)")
            }
            // None after the first 10 failures, then 250 ms more per failure, at most 3 s.
            let expected = (11...29).map { min(Duration.seconds(3), .milliseconds(250) * ($0 - 10)) }
            #expect(pauses.durations == expected)

            let owner = try await client.from(50).login("ann@example.org", "correct horse")
            #expect(owner.status == .created)
            #expect(pauses.durations.last == .seconds(3))
            #expect(try await client.from(51).login("bob@example.org", "wrong password").status == .unauthorized)
            #expect(pauses.durations.count == 20, "other e-mails are not slowed down")
        }
    }

    /// A slowed-down login waits before it is answered, and while it waits other requests are
    /// answered.
    @Test func aSlowedDownLoginWaitsWithoutHoldingUpOthers() async throws {
        let pauses = RecordedPauses()
        let server = try TestServer(pauses: pauses)
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            _ = try await client.register("bob@example.org")
            for host in 10..<22 { _ = try await client.from(host).login("ann@example.org", "wrong password") }
            pauses.hold()
            let owner = try client.from(50)
            let annLogin = Task { try await owner.login("ann@example.org", "correct horse") }
            try await waitUntil(timeout: .seconds(10)) { pauses.heldCount == 1 }
            #expect(try await client.from(51).login("bob@example.org", "correct horse").status == .created)
            #expect(pauses.heldCount == 1, "ann's answer is still waiting")
            pauses.release()
            #expect(try await annLogin.value.status == .created)
            #expect(pauses.durations.last == .milliseconds(500))
        }
    }

    /// Simultaneous wrong attempts from one address: exactly the limit gets through to the
    /// password check. The admitted attempts are held in their pause (the e-mail is slowed
    /// down by failures from elsewhere), so all of them are in flight at once: a limiter that
    /// counted a failure only after the check would let every attempt through.
    @Test func simultaneousFailuresNeverExceedTheLimit() async throws {
        let pauses = RecordedPauses()
        let server = try TestServer(pauses: pauses)
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("ann@example.org")
            for host in 100..<111 { _ = try await client.from(host).login("ann@example.org", "wrong password") }
            pauses.hold()
            let guesser = try client.from(2)
            let attempts = 30
            let answered = Counter()
            let replies = try await withThrowingTaskGroup(of: Reply.self) { group in
                for _ in 0..<attempts {
                    group.addTask {
                        let reply = try await guesser.login("ann@example.org", "wrong password")
                        answered.add()
                        return reply
                    }
                }
                // The refusals come at once, while the admitted attempts wait in their pause.
                try await waitUntil(timeout: .seconds(20)) { answered.value + pauses.heldCount == attempts }
                #expect(pauses.heldCount == 10, "exactly 10 admitted, all in flight together")
                pauses.release()
                var replies: [Reply] = []
                for try await reply in group { replies.append(reply) }
                return replies
            }
            #expect(replies.count { $0.status == .unauthorized } == 10)
            #expect(replies.count { $0.status == .tooManyRequests && $0.headers[.retryAfter] != nil } == attempts - 10)
            #expect(try await guesser.login("ann@example.org", "correct horse").status == .tooManyRequests)
        }
    }
}

/// A count shared by concurrent tasks.
final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}
