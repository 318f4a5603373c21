import Crypto
import Foundation
import Testing
@testable import API

@Suite("Auth: secrets, tokens, passwords and limits", .timeLimit(.minutes(3)))
struct AuthSecretsTests {
    private func temporaryDirectory() -> String {
        NSTemporaryDirectory() + "auth-secrets-" + UUID().uuidString
    }

    @Test func aGeneratedKeyIsStoredOwnerOnlyAndReused() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try AuthSecrets.load(dataDirectory: directory, environment: [:])
        let path = directory + "/secret.key"
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let sealed = first.seal("a token")
        let second = try AuthSecrets.load(dataDirectory: directory, environment: [:])
        #expect(second.unseal(sealed) == "a token")

        chmod(path, 0o644)
        #expect(throws: AuthSecretsError.self) { try AuthSecrets.load(dataDirectory: directory, environment: [:]) }
    }

    @Test func theEnvironmentKeyWinsAndMustBe32Bytes() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let key = Data((0..<32).map { UInt8($0) }).base64EncodedString()
        let secrets = try AuthSecrets.load(dataDirectory: directory, environment: ["LOGBOOK_SECRET_KEY": key])
        let again = try AuthSecrets.load(dataDirectory: temporaryDirectory(), environment: ["LOGBOOK_SECRET_KEY": key])
        #expect(again.unseal(secrets.seal("t")) == "t")
        #expect(!FileManager.default.fileExists(atPath: directory + "/secret.key"))
        for bad in ["short", Data(count: 16).base64EncodedString()] {
            #expect(throws: AuthSecretsError.self) { try AuthSecrets.load(dataDirectory: directory, environment: ["LOGBOOK_SECRET_KEY": bad]) }
        }
    }

    @Test func sealedTokensOpenOnlyWithTheirKeyAndUnaltered() throws {
        let one = AuthSecrets(key: SymmetricKey(size: .bits256))
        let other = AuthSecrets(key: SymmetricKey(size: .bits256))
        let token = AuthTokens.random()
        let sealed = one.seal(token)
        #expect(!sealed.base64.contains(token))
        #expect(one.seal(token) != sealed, "a fresh nonce each time")
        #expect(one.unseal(sealed) == token)
        #expect(other.unseal(sealed) == nil)
        var bytes = try #require(Data(base64Encoded: sealed.base64))
        bytes[bytes.count - 1] ^= 1
        #expect(one.unseal(try #require(.init(base64: bytes.base64EncodedString()))) == nil)
    }

    @Test func derivedTokensDependOnEveryPartAndTheKey() {
        let secrets = AuthSecrets(key: SymmetricKey(size: .bits256))
        let token = secrets.derivedToken("login session", "key", "user")
        #expect(AuthTokens.isWellFormed(token))
        #expect(secrets.derivedToken("login session", "key", "user") == token)
        #expect(secrets.derivedToken("login session", "key", "other") != token)
        #expect(secrets.derivedToken("registration session", "key", "user") != token)
        #expect(AuthSecrets(key: SymmetricKey(size: .bits256)).derivedToken("login session", "key", "user") != token)
        #expect(secrets.derivedUUID("account id", "key") == secrets.derivedUUID("account id", "key"))
    }

    @Test func tokensAreRandomAndKnownOnlyByTheirHash() {
        let tokens = Set((0..<100).map { _ in AuthTokens.random() })
        #expect(tokens.count == 100 && tokens.allSatisfy(AuthTokens.isWellFormed))
        let token = tokens.first!
        #expect(AuthTokens.hash(token).hex.count == 64 && AuthTokens.hash(token) == AuthTokens.hash(token))
        #expect(!AuthTokens.isWellFormed(token + "="))
    }

    @Test func longPasswordsAndNULsDoNotCollideInBcrypt() async throws {
        let passwords = AuthPasswords(cost: 4)
        let long = String(repeating: "a", count: 72)
        let hash = try await passwords.hash(long + "tail one")
        #expect(try await passwords.verify(long + "tail one", against: hash))
        #expect(try await !passwords.verify(long + "tail two", against: hash))
        let withNUL = try await passwords.hash("ab\u{0}cdefghij")
        #expect(try await !passwords.verify("ab", against: withNUL))
        #expect(try await passwords.verify("ab\u{0}cdefghij", against: withNUL))
    }

    @Test func theLimiterCountsInAWindowAndStaysBounded() {
        let limiter = RateLimiter(eventsMax: 3, window: 60, keysMax: 80)
        let start = Date(timeIntervalSince1970: 0)
        for second in [0.0, 10, 20] { limiter.record(["k"], now: start.addingTimeInterval(second)) }
        #expect(limiter.retryAfter(["k", "other"], now: start.addingTimeInterval(30)) == 30)
        #expect(limiter.retryAfter(["k"], now: start.addingTimeInterval(60)) == nil)
        #expect(limiter.retryAfter(["other"], now: start) == nil)
        limiter.reset("k")
        #expect(limiter.retryAfter(["k"], now: start.addingTimeInterval(30)) == nil)

        for index in 0..<1_000 { limiter.record(["flood\(index)"], now: start.addingTimeInterval(Double(index) / 100)) }
        #expect(limiter.trackedKeys <= 80)
        limiter.record(["k", "k", "k"], now: start.addingTimeInterval(11))
        #expect(limiter.retryAfter(["k"], now: start.addingTimeInterval(11)) != nil, "the most recent keys stay")
    }

    @Test func aReservationCountsAtOnceAndIsGivenBackOnSuccess() {
        let limiter = RateLimiter(eventsMax: 3, window: 60, keysMax: 80)
        let start = Date(timeIntervalSince1970: 0)
        var held: [RateLimiter.Reservation] = []
        for _ in 1...3 {
            guard case .admitted(let reservation) = limiter.reserve(["pair", "address"], now: start) else {
                Issue.record("the first three are admitted")
                return
            }
            held.append(reservation)
        }
        // Three in flight fill the window: no fourth, before any of them is decided.
        #expect(limiter.reserve(["pair", "address"], now: start) == .heldBack(retryAfterSeconds: 60))
        #expect(limiter.reserve(["other pair", "address"], now: start) == .heldBack(retryAfterSeconds: 60))
        limiter.release(held[0])
        #expect(limiter.count("pair", now: start) == 2 && limiter.count("address", now: start) == 2)
        guard case .admitted = limiter.reserve(["other pair", "address"], now: start) else {
            Issue.record("a released slot is free again")
            return
        }
        #expect(limiter.count("address", now: start) == 3)
    }

    @Test func forgettingAKeyForgetsItsEventsElsewhereAndNothingElse() {
        let limiter = RateLimiter(eventsMax: 10, window: 60, keysMax: 80)
        let counter = RateLimiter(eventsMax: 10, window: 60, keysMax: 80)
        let start = Date(timeIntervalSince1970: 0)
        for _ in 1...4 {
            guard case .admitted(let reservation) = limiter.reserve(["ann here", "here"], now: start) else { return }
            counter.record(["ann"], now: start, as: reservation.id)
        }
        for _ in 1...3 { _ = limiter.reserve(["bob here", "here"], now: start) }
        counter.record(["ann"], now: start)
        let forgotten = limiter.reset("ann here", alsoFrom: ["here"])
        counter.forget(forgotten, from: ["ann"])
        #expect(forgotten.count == 4)
        #expect(limiter.count("ann here", now: start) == 0 && limiter.count("here", now: start) == 3)
        #expect(limiter.count("bob here", now: start) == 3)
        #expect(counter.count("ann", now: start) == 1, "the failure from elsewhere stays")
    }

    @Test func simultaneousReservationsNeverExceedTheLimit() async {
        let limiter = RateLimiter(eventsMax: 10, window: 60, keysMax: 80)
        let start = Date(timeIntervalSince1970: 0)
        let admitted = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    if case .admitted = limiter.reserve(["pair", "address"], now: start) { return true }
                    return false
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(admitted == 10)
    }

    @Test func theLoginDelayGrowsWithTheEmailsFailuresUpToItsCap() {
        #expect(LoginThrottle.delay(afterFailures: 0) == .zero)
        #expect(LoginThrottle.delay(afterFailures: 10) == .zero)
        #expect(LoginThrottle.delay(afterFailures: 11) == .milliseconds(250))
        #expect(LoginThrottle.delay(afterFailures: 14) == .seconds(1))
        #expect(LoginThrottle.delay(afterFailures: 22) == .seconds(3))
        #expect(LoginThrottle.delay(afterFailures: 1_000) == .seconds(3))
        // The e-mail's count stops where the delay stops growing: a bounded key.
        let throttle = LoginThrottle()
        #expect(throttle.emailFailures.eventsMax == 22)
    }
}
