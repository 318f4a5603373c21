import Accounts
import EventLog
import EventSourcing
import Foundation
import Testing
@testable import Projections

/// The accounts read models fed by the real account decider.
typealias AccountsFixture = DeciderFixture<AccountDecider>

extension DeciderFixture where D == AccountDecider {
    convenience init() async throws {
        try await self.init(projections: AccountProjections.all)
    }

    var queries: AccountQueries<LMDBEventStore> { AccountQueries(engine: engine) }

    /// Runs `command` as the account it is about.
    @discardableResult
    func run(_ command: AccountCommand, at now: Date = start) async throws -> UInt64 {
        try await run(command, by: command.userId, at: now)
    }
}

/// Readable values for commands.
enum Secrets {
    static func hash(_ seed: Character) -> PasswordHash {
        PasswordHash(bcrypt: "$2b$04$" + String(repeating: seed, count: 53))!
    }

    static func token(_ seed: Character) -> TokenHash {
        TokenHash(hex: String(repeating: seed, count: 64))!
    }

    static let sealed = SealedToken(base64: "c2VhbGVk")!
}

extension AccountsFixture {
    func register(_ userId: String, email: String, password: Character = "a") async throws {
        try await run(.register(.init(
            userId: userId, email: email, passwordHash: Secrets.hash(password), passwordLength: 12, displayName: userId.capitalized)))
    }
}
