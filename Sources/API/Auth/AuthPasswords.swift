import Accounts
import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix
import Synchronization

/// bcrypt for passwords, on NIO's blocking thread pool: a hash takes a quarter of a second at
/// cost 12, which would stall every request sharing a cooperative thread.
final class AuthPasswords: Sendable {
    /// bcrypt's cost factor (4 in tests).
    let cost: Int
    /// bcrypt reads at most this many bytes of its input.
    static let bcryptInputBytesMax = 72
    private let dummy = Mutex<PasswordHash?>(nil)

    init(cost: Int) {
        precondition((4...31).contains(cost), "bcrypt cost is 4...31")
        self.cost = cost
        // Made now, not at the first login for an unknown e-mail, which would otherwise take
        // twice as long as any other failed login and tell that the e-mail has no account.
        Task { [self] in _ = try? await dummyHash() }
    }

    /// A new salted hash of `password`.
    func hash(_ password: String) async throws -> PasswordHash {
        let input = Self.bcryptInput(password)
        let cost = UInt8(cost)
        let text = try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(input, cost: cost) }
        guard let hash = PasswordHash(bcrypt: text) else { preconditionFailure("bcrypt made a malformed hash") }
        return hash
    }

    /// Whether `password` is the one `hash` was made from.
    func verify(_ password: String, against hash: PasswordHash) async throws -> Bool {
        let input = Self.bcryptInput(password)
        let stored = hash.bcrypt
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(input, hash: stored) }
    }

    /// Verifies `password` against a hash no one knows the password of, at the same cost as a
    /// real check: a login for an unknown e-mail takes as long as one with a wrong password.
    func verifyAgainstDummy(_ password: String) async throws {
        _ = try await verify(password, against: try await dummyHash())
    }

    /// A hash of a random password at this cost, made once. Also what a registration with an
    /// invalid password carries: the decider refuses it for its length, with the other fields'
    /// problems, without the service spending a bcrypt on a password that is never stored.
    func dummyHash() async throws -> PasswordHash {
        if let known = dummy.withLock({ $0 }) { return known }
        let made = try await hash(AuthTokens.random())
        return dummy.withLock { stored in
            if let stored { return stored }
            stored = made
            return made
        }
    }

    /// What bcrypt is given for `password`. bcrypt ignores bytes after the 72nd and stops at a
    /// NUL byte (a C string), so two passwords agreeing in their first 72 bytes, or before a
    /// NUL, would be the same password. Such passwords are given as the base64 of their SHA-256
    /// instead: 44 characters, unique for the whole password.
    static func bcryptInput(_ password: String) -> String {
        let bytes = password.utf8
        guard bytes.count > bcryptInputBytesMax || bytes.contains(0) else { return password }
        return "sha256:" + Data(SHA256.hash(data: Data(bytes))).base64EncodedString()
    }
}
