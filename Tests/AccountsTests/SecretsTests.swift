import Accounts
import EventSourcing
import Foundation
import Testing

/// Passwords and tokens never reach the domain in plain text, so they cannot reach the log.
@Suite("Secrets")
struct SecretsTests {
    private let metadata = Fixtures.metadata
    private let password = "correct horse battery staple"
    private let newPassword = "Tr0ub4dor&3-but-longer"
    private let token = "k3x9QmZrT7vYp2LwN8sHd4JfGc6BnA1e"

    /// The only way to hand a password in is a `PasswordHash`, and text that is not a bcrypt
    /// hash does not make one; likewise for tokens and `TokenHash`.
    @Test func plaintextCannotPassAsAHash() {
        #expect(PasswordHash(bcrypt: password) == nil)
        #expect(PasswordHash(bcrypt: "$2b$12$" + password) == nil)
        #expect(PasswordHash(bcrypt: "$2b$99$" + String(repeating: "a", count: 53)) == nil, "cost out of range")
        #expect(PasswordHash(bcrypt: "$2x$12$" + String(repeating: "a", count: 53)) == nil)
        #expect(PasswordHash(bcrypt: "$2y$04$" + String(repeating: "Z", count: 53)) != nil)
        #expect(TokenHash(hex: token) == nil)
        #expect(TokenHash(hex: String(repeating: "A", count: 64))?.hex == String(repeating: "a", count: 64))
        #expect(TokenHash(hex: String(repeating: "g", count: 64)) == nil)
        #expect(SealedToken(base64: "") == nil)
        #expect(SealedToken(base64: "has spaces") == nil)
    }

    @Test func descriptionsDoNotPrintWholeHashes() {
        #expect(Fixtures.hash("a").description == "PasswordHash($2b$12$…)")
        #expect(Fixtures.token("1").description == "TokenHash(11111111…)")
    }

    /// A whole account life with plaintexts the test "hashes": none of them is in any event.
    @Test func noEventHoldsAPlaintextGivenToTheTest() throws {
        let hashOfPassword = Fixtures.hash("p"), hashOfNew = Fixtures.hash("q")
        let tokenHash = TokenHash(hex: String(repeating: "e", count: 64))!
        let sealed = SealedToken(base64: Data("sealed:\(token.reversed())".utf8).base64EncodedString())!
        let commands: [AccountCommand] = [
            .register(.init(userId: "cat", email: "cat@example.org", passwordHash: hashOfPassword, passwordLength: password.count, displayName: "Cat")),
            .startSession(.init(userId: "cat", tokenHash: tokenHash, expiresAt: Fixtures.hourLater)),
            .changePassword(.init(userId: "cat", newPasswordHash: hashOfNew, newPasswordLength: newPassword.count)),
            .requestPasswordReset(.init(userId: "cat", tokenHash: Fixtures.token("f"), sealedToken: sealed, expiresAt: Fixtures.hourLater)),
            .redeemPasswordReset(.init(userId: "cat", tokenHash: Fixtures.token("f"), newPasswordHash: hashOfPassword, newPasswordLength: password.count)),
        ]
        var state = AccountDecider.initialState
        var all: [AccountEvent] = []
        for command in commands {
            let events = try AccountDecider.decide(command, state: state, metadata: metadata)
            state = AccountDecider.fold(events, from: state)
            all += events
        }
        #expect(all.count == 7)
        for event in all {
            let json = String(decoding: try event.encodeData(), as: UTF8.self)
            for secret in [password, newPassword, token] {
                #expect(!json.contains(secret), "\(event.typeName) holds a plaintext")
            }
        }
    }

    @Test func aDigestBecomesLowercaseHexByteByByte() {
        // SHA-256("abc"), FIPS 180-2 appendix B.1.
        let digest: [UInt8] = [
            0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
            0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad,
        ]
        let hash = TokenHash(digest: digest)
        #expect(hash.hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hash == TokenHash(hex: hash.hex))
    }
}
