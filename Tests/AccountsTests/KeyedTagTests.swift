import Accounts
import Crypto
import EventSourcing
import Foundation
import Testing

/// With the server's keyring in effect (ADR 0004), e-mail and username tags are keyed hashes,
/// personal fields are sealed, and accounts from before (plain tags, plain fields) still count.
@Suite("Account tags and sealing with a keyring")
struct KeyedTagTests {
    private let keys: PersonalDataKeyStore = {
        let directory = NSTemporaryDirectory() + "account-keys-" + UUID().uuidString
        return try! PersonalDataKeyStore(dataDirectory: directory, secret: SymmetricKey(size: .bits256))
    }()

    @Test func tagsHideTheEmailAndUsername() throws {
        try PersonalDataKeys.$current.withValue(keys) {
            let tags = Fixtures.annRegistered.tags
            #expect(tags.count == 3 && tags[0] == "user:ann")
            #expect(tags[1] == "email:" + keys.blindTag("email", "ann@example.org"))
            #expect(tags[2] == "username:" + keys.blindTag("username", "annb"))
            #expect(!tags.joined().contains("example") && !tags.joined().lowercased().contains("annb"))
            #expect(AccountNames.usernameTag("ANNB") == tags[2], "case-insensitive like the plain tag")
        }
    }

    @Test func aRegistrationReadsBothTheKeyedAndThePlainClaims() {
        PersonalDataKeys.$current.withValue(keys) {
            let boundary = AccountDecider.boundary(of: .register(Fixtures.register(email: "Cat@example.org", username: "Cats")))
            let tags = Set(boundary.items.flatMap(\.tags))
            #expect(tags.isSuperset(of: ["email:cat@example.org", "username:cats"]), "accounts registered before keyed tags")
            #expect(tags.contains("email:" + keys.blindTag("email", "cat@example.org")))
            #expect(tags.contains("username:" + keys.blindTag("username", "cats")))
        }
    }

    @Test func storedPersonalFieldsAreSealedAndOpenWithTheKey() throws {
        let data = try PersonalDataKeys.$current.withValue(keys) { try Fixtures.annRegistered.encodeData() }
        let json = String(decoding: data, as: UTF8.self)
        // Each value quoted, as a field stored plain would show it: a sealed value is base64 after
        // `sealed:v1:`, which by chance held "Bee" unquoted once in a thousand runs or so.
        for plain in ["ann@example.org", "Ann", "Bee", "AnnB", "1234AB"] {
            #expect(!json.contains("\"\(plain)\""), "\(plain) in \(json)")
        }
        #expect(json.contains("\"userId\":\"ann\"") && json.contains("$2b$12$"), "ids and the password hash stay as they were")
        let decoded = try PersonalDataKeys.$current.withValue(keys) {
            try AccountEvent.decode(typeName: "account.registered", schemaVersion: 1, data: data)
        }
        #expect(decoded == Fixtures.annRegistered)
        // Erased: names read "Deleted user", the rest empty or absent; the account id stays.
        try keys.erase("ann")
        let erased = try PersonalDataKeys.$current.withValue(keys) {
            try AccountEvent.decode(typeName: "account.registered", schemaVersion: 1, data: data)
        }
        guard case .registered(let r)? = erased else {
            Issue.record("not a registration: \(String(describing: erased))")
            return
        }
        #expect(r.userId == "ann" && r.email == "" && r.displayName == "Deleted user")
        #expect(r.firstName == nil && r.lastName == nil && r.username == nil && r.postcode == nil)
    }

    @Test func anEventWrittenBeforeSealingReadsAsItIs() throws {
        let plain = try Fixtures.annRegistered.encodeData()  // no keyring: as before issue 11
        #expect(String(decoding: plain, as: UTF8.self).contains("ann@example.org"))
        let decoded = try PersonalDataKeys.$current.withValue(keys) {
            try AccountEvent.decode(typeName: "account.registered", schemaVersion: 1, data: plain)
        }
        #expect(decoded == Fixtures.annRegistered)
    }
}
