@testable import Accounts
import Crypto
import EventSourcing
import Foundation
import Testing

/// The sealing step with the server's keyring (ADR 0004): e-mail and username tags are stored
/// as keyed hashes, personal fields sealed, and accounts from before (plain tags, plain fields)
/// still count. The decider itself names them plain and holds no key.
@Suite("Account tags and sealing with a keyring")
struct KeyedTagTests {
    private let keys: PersonalDataKeyStore = {
        let directory = NSTemporaryDirectory() + "account-keys-" + UUID().uuidString
        return try! PersonalDataKeyStore(dataDirectory: directory, secret: SymmetricKey(size: .bits256))
    }()
    private var sealer: EventSealer { EventSealer(keyring: keys) }

    @Test func theDeciderNamesTagsPlainAndTheSealingStepStoresThemKeyed() throws {
        #expect(Fixtures.annRegistered.tags == ["user:ann", "email:ann@example.org", "username:annb"])
        let tags = sealer.tags(of: Fixtures.annRegistered)
        #expect(tags.count == 3 && tags[0] == "user:ann")
        #expect(tags[1] == "email:" + keys.blindTag("email", "ann@example.org"))
        #expect(tags[2] == "username:" + keys.blindTag("username", "annb"))
        #expect(!tags.joined().contains("example") && !tags.joined().lowercased().contains("annb"))
        let renamed = AccountEvent.usernameChanged(.init(userId: "ann", oldUsername: "AnnB", newUsername: "ANNB"))
        #expect(sealer.tags(of: renamed) == ["user:ann", tags[2]], "case-insensitive like the plain tag, and named once")
    }

    @Test func aRegistrationReadsBothTheKeyedAndThePlainClaims() {
        let decided = AccountDecider.boundary(of: .register(Fixtures.register(email: "Cat@example.org", username: "Cats")))
        let plain = Set(decided.items.flatMap(\.tags))
        #expect(plain == ["user:cat", "email:cat@example.org", "username:cats"], "the decider holds no key")
        let tags = Set(sealer.boundary(decided, of: AccountEvent.self).items.flatMap(\.tags))
        #expect(tags.isSuperset(of: plain), "accounts registered before keyed tags")
        #expect(tags.contains("email:" + keys.blindTag("email", "cat@example.org")))
        #expect(tags.contains("username:" + keys.blindTag("username", "cats")))
        #expect(tags.count == 5)
    }

    @Test func anErasureReleasesItsTagsKeyedInItsDataAndTags() throws {
        let state = AccountDecider.fold([Fixtures.annRegistered])
        let events = try AccountDecider.decide(.erase(.init(userId: "ann", alsoErasing: [])), state: state, metadata: Fixtures.metadata)
        guard case .erased(let erased)? = events.last else { Issue.record("no erasure: \(events)"); return }
        #expect(erased.releasedTags == ["email:ann@example.org", "username:annb"])
        let keyed = ["email:" + keys.blindTag("email", "ann@example.org"), "username:" + keys.blindTag("username", "annb")]
        #expect(sealer.tags(of: events.last!) == ["user:ann"] + keyed)
        let stored = try #require(try AccountEvent.decode(
            typeName: "account.erased", schemaVersion: 1, data: sealer.data(of: events.last!), opening: keys))
        #expect(stored == .erased(.init(userId: "ann", releasedTags: keyed)))
    }

    @Test func storedPersonalFieldsAreSealedAndOpenWithTheKey() throws {
        let data = try sealer.data(of: Fixtures.annRegistered)
        let json = String(decoding: data, as: UTF8.self)
        // Each value quoted, as a field stored plain would show it: a sealed value is base64 after
        // `sealed:v1:`, which by chance held "Bee" unquoted once in a thousand runs or so.
        for plain in ["ann@example.org", "Ann", "Bee", "AnnB", "1234AB"] {
            #expect(!json.contains("\"\(plain)\""), "\(plain) in \(json)")
        }
        #expect(json.contains("\"userId\":\"ann\"") && json.contains("$2b$12$"), "ids and the password hash stay as they were")
        let decoded = try AccountEvent.decode(typeName: "account.registered", schemaVersion: 1, data: data, opening: keys)
        #expect(decoded == Fixtures.annRegistered)
        #expect(throws: PersonalDataError.noKeyring) {
            try AccountEvent.decode(typeName: "account.registered", schemaVersion: 1, data: data)
        }
        // Erased: names read "Deleted user", the rest empty or absent; the account id stays.
        try keys.erase("ann")
        let erased = try AccountEvent.decode(typeName: "account.registered", schemaVersion: 1, data: data, opening: keys)
        guard case .registered(let r)? = erased else {
            Issue.record("not a registration: \(String(describing: erased))")
            return
        }
        #expect(r.userId == "ann" && r.email == "" && r.displayName == "Deleted user")
        #expect(r.firstName == nil && r.lastName == nil && r.username == nil && r.postcode == nil)
    }

    @Test func anEventWrittenBeforeSealingReadsAsItIs() throws {
        let plain = try EventSealer.plain.data(of: Fixtures.annRegistered)  // as before issue 11
        #expect(plain == (try Fixtures.annRegistered.encodeData()))
        #expect(String(decoding: plain, as: UTF8.self).contains("ann@example.org"))
        #expect(EventSealer.plain.tags(of: Fixtures.annRegistered) == Fixtures.annRegistered.tags)
        let decoded = try AccountEvent.decode(typeName: "account.registered", schemaVersion: 1, data: plain, opening: keys)
        #expect(decoded == Fixtures.annRegistered)
    }
}
