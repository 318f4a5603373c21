import Crypto
import Foundation
import Testing

@testable import EventSourcing

/// A domain with every kind of personal data the sealing step handles: a sealed field, a personal
/// tag, tags in the data, and a subject made of a personal value.
private enum Club: CataloguedEvent {
    case invited(Invited)

    static let members = PersonalTag(prefix: "member:", purpose: "member")
    static let guests = PersonalTag(prefix: "guest_", purpose: "guest")
    static let domain = "club"
    static let catalogue = EventPayloadCatalogue<Club>([Invited.self])
    static var personalTags: [PersonalTag] { [members] }

    struct Invited: EventPayload, PersonalData {
        static let typeName = "club.invited"
        var event: Club { .invited(self) }
        var streamID: String { "club-\(clubId)" }
        var tags: [String] { ["club:\(clubId)", Club.members.plain(email)] }
        var clubId: String
        var email: String
        /// Whose the e-mail is: made of it.
        var guest: String
        /// Tags the invitation replaces.
        var replaces: [String]

        static let personalFields: [PersonalField<Invited>] = [
            .keyedName(\.guest, Club.guests, of: \.email), .text(\.email, of: \.guest, erased: ""), .tags(\.replaces, [Club.members]),
        ]
    }

    var eventPayload: any EventPayload<Club> {
        switch self { case .invited(let payload): payload }
    }
}

/// A keyring whose keys never change, with readable keyed tags.
private final class Keyring: PersonalDataKeyring, @unchecked Sendable {
    private let lock = NSLock()
    private var erased: Set<String> = []

    func dataKey(of subject: String, create: Bool) throws -> SymmetricKey? {
        lock.withLock { erased.contains(subject) ? nil : SymmetricKey(data: SHA256.hash(data: Data(subject.utf8))) }
    }

    func blindTag(_ purpose: String, _ value: String) -> String { "h(\(purpose),\(value))" }

    func erase(_ subject: String) { lock.withLock { _ = erased.insert(subject) } }
}

/// `EventSealer`: plain events and a keyring in, the stored tags and data out, and those open
/// again to what was decided; without a keyring, the events as decided.
@Suite("The sealing step")
struct EventSealerTests {
    private let invited = Club.invited(.init(clubId: "c1", email: "ann@x.org", guest: "guest_plain", replaces: ["member:bob@x.org", "club:c0"]))

    @Test func withoutAKeyringEventsAreStoredAsDecided() throws {
        #expect(EventSealer.plain.tags(of: invited) == ["club:c1", "member:ann@x.org"])
        #expect(try EventSealer.plain.data(of: invited) == invited.encodeData())
        let boundary = Boundary([.init(types: ["club.invited"], tags: ["member:ann@x.org"])])
        #expect(EventSealer.plain.boundary(boundary, of: Club.self) == boundary)
        #expect(EventSealer.plain.keyed(Club.guests, "ann@x.org") == nil)
    }

    @Test func personalTagsAreStoredKeyedAndOthersAsTheyAre() {
        let sealer = EventSealer(keyring: Keyring())
        #expect(sealer.tags(of: invited) == ["club:c1", "member:h(member,ann@x.org)"])
        #expect(sealer.keyed(Club.guests, "ann@x.org") == "guest_h(guest,ann@x.org)")
    }

    @Test func aBoundaryNamingAPersonalTagReadsItInBothForms() {
        let sealer = EventSealer(keyring: Keyring())
        let club = Boundary.Item(tags: ["club:c1"])
        let claims = Boundary.Item(types: ["club.invited"], tags: ["club:c1", "member:ann@x.org"])
        let read = sealer.boundary(Boundary([club, claims]), of: Club.self)
        #expect(read.items == [club, claims, .init(types: ["club.invited"], tags: ["club:c1", "member:h(member,ann@x.org)"])])
        #expect(sealer.boundary(Boundary([club]), of: Club.self).items == [club], "nothing personal, nothing added")
    }

    @Test func theDataIsSealedUnderTheKeyedSubjectAndOpensToTheKeyedNames() throws {
        let keyring = Keyring()
        let data = try EventSealer(keyring: keyring).data(of: invited)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["guest"] as? String == "guest_h(guest,ann@x.org)")
        #expect(json["replaces"] as? [String] == ["member:h(member,bob@x.org)", "club:c0"])
        #expect((json["email"] as? String)?.hasPrefix(PersonalDataSeal.prefix) == true)

        let opened = try Club.decode(typeName: "club.invited", schemaVersion: 1, data: data, opening: keyring)
        #expect(opened == .invited(.init(
            clubId: "c1", email: "ann@x.org", guest: "guest_h(guest,ann@x.org)", replaces: ["member:h(member,bob@x.org)", "club:c0"])))
        #expect(throws: PersonalDataError.noKeyring) { try Club.decode(typeName: "club.invited", schemaVersion: 1, data: data) }

        keyring.erase("guest_h(guest,ann@x.org)")
        guard case .invited(let erased)? = try Club.decode(typeName: "club.invited", schemaVersion: 1, data: data, opening: keyring) else {
            Issue.record("no invitation")
            return
        }
        #expect(erased.email == "" && erased.guest == "guest_h(guest,ann@x.org)", "the placeholder once its subject is erased")
    }
}
