@testable import Accounts
import EventSourcing
import Foundation

/// Shared values: a fixed clock, fake bcrypt hashes and token hashes, and ready-made events.
enum Fixtures {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let metadata = CommandMetadata(actor: "ann", now: now, commandID: UUID())
    static let hourLater = now.addingTimeInterval(3_600)
    static let hourEarlier = now.addingTimeInterval(-3_600)

    /// A syntactically valid bcrypt hash, different per `seed` (what a test "hashes" to).
    static func hash(_ seed: Character) -> PasswordHash {
        PasswordHash(bcrypt: "$2b$12$" + String(repeating: seed, count: 53))!
    }

    /// A token hash, different per `seed` (a hex digit).
    static func token(_ seed: Character) -> TokenHash {
        TokenHash(hex: String(repeating: seed, count: 64))!
    }

    static let sealed = SealedToken(base64: "c2VhbGVkLXRva2VuLWJ5dGVz")!

    /// Ann's registration: e-mail ann@example.org, username AnnB, postcode 1234AB.
    static let annRegistered = AccountEvent.registered(.init(
        userId: "ann", email: "ann@example.org", passwordHash: hash("a"), displayName: "Ann",
        firstName: "Ann", lastName: "Bee", username: "AnnB", postcode: "1234AB"
    ))

    /// Bob's registration: e-mail bob@example.org, username bob.
    static let bobRegistered = AccountEvent.registered(.init(
        userId: "bob", email: "bob@example.org", passwordHash: hash("b"), displayName: "Bob", username: "bob"
    ))

    static func sessionStarted(_ seed: Character, for userId: String = "ann", expiresAt: Date = hourLater) -> AccountEvent {
        .sessionStarted(.init(userId: userId, tokenHash: token(seed), expiresAt: expiresAt))
    }

    static func resetRequested(_ seed: Character, expiresAt: Date = hourLater) -> AccountEvent {
        .passwordResetRequested(.init(userId: "ann", tokenHash: token(seed), sealedToken: sealed, expiresAt: expiresAt, email: "ann@example.org"))
    }

    /// A verification token mailed for Ann's e-mail of the time (`email`).
    static func verificationRequested(_ seed: Character, email: String = "ann@example.org", expiresAt: Date = hourLater) -> AccountEvent {
        .emailVerificationRequested(.init(userId: "ann", tokenHash: token(seed), sealedToken: sealed, expiresAt: expiresAt, email: email))
    }

    /// A token for the outbox, different per `seed`.
    static func mailed(_ seed: Character, expiresAt: Date = hourLater) -> MailedToken {
        MailedToken(tokenHash: token(seed), sealedToken: sealed, expiresAt: expiresAt)
    }

    /// A valid registration command for `userId`; tests change what they are about.
    static func register(
        _ userId: String = "cat", email: String = "cat@example.org", passwordLength: Int = 12,
        displayName: String = "Cat", username: String? = nil, postcode: String? = nil
    ) -> AccountCommand.Register {
        .init(userId: userId, email: email, passwordHash: hash("c"), passwordLength: passwordLength,
              displayName: displayName, username: username, postcode: postcode)
    }
}
