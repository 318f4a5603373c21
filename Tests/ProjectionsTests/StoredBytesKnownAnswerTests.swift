@testable import Accounts
import Albums
import Crypto
import EventSourcing
import Foundation
@testable import Household
@testable import Neighbourhood
@testable import Quiz
import Testing
@testable import Workplace

/// The log's bytes did not change when deciders became pure (issue 50, item 3): the same events,
/// decided and then sealed by `EventSealer`, are stored as they were when `EventJSON.encode`
/// sealed under a task-local keyring and the deciders keyed their tags themselves. The known
/// answers below were written by that code, before the change, with the keyring here.
///
/// A sealed field's nonce is random, so a sealed field's bytes differ at every sealing, then as
/// now: they are compared by their length and by what they open to; every other byte is compared
/// as it is. The old bytes must also read as they did, so a data directory written before the
/// change reads the same.
@Suite("Stored event bytes: known answers from before the sealing step")
struct StoredBytesKnownAnswerTests {
    /// Keys that are the same in every run: a data key per subject, and the tag key.
    private final class FixedKeyring: PersonalDataKeyring {
        func dataKey(of subject: String, create: Bool) throws -> SymmetricKey? {
            SymmetricKey(data: SHA256.hash(data: Data(("known-answer data key of " + subject).utf8)))
        }

        func blindTag(_ purpose: String, _ value: String) -> String {
            let key = SymmetricKey(data: SHA256.hash(data: Data("known-answer tag key".utf8)))
            return HMAC<SHA256>.authenticationCode(for: Data((purpose + "\u{0}" + value).utf8), using: key)
                .map { String(format: "%02x", $0) }.joined()
        }
    }

    struct KnownAnswer {
        var type: String
        var tags: [String]
        var data: String
        init(_ type: String, tags: [String], data: String) {
            self.type = type
            self.tags = tags
            self.data = data
        }
    }

    /// One event of each kind that holds personal data in a name, a tag or a subject, decided
    /// where a decider makes it (its tags and subjects are the decider's), with `sealer`'s names
    /// where the API's edge names them (the subject an erasure also destroys).
    private static func decided(_ sealer: EventSealer) throws -> [any DomainEvent] {
        let now = Date(timeIntervalSince1970: 1_800_000_000.25)
        let metadata = CommandMetadata(actor: "ann", now: now, commandID: UUID())
        let hash = PasswordHash(bcrypt: "$2b$12$" + String(repeating: "a", count: 53))!
        let registered = try AccountDecider.decide(.register(.init(
            userId: "ann", email: " Ann@Example.org", passwordHash: hash, passwordLength: 12, displayName: "Ann", username: "AnnB",
            postcode: "1234 ab")), state: AccountDecider.initialState, metadata: metadata)
        let erase = AccountCommand.erase(.init(userId: "ann", alsoErasing: [AlbumsNames.inviteeSubject(email: "ann@example.org", sealedBy: sealer)]))
        let erased = try AccountDecider.decide(erase, state: AccountDecider.fold(registered), metadata: metadata)
        let accounts: [AccountEvent] = registered + [
            .emailChanged(.init(userId: "ann", oldEmail: "ann@example.org", newEmail: "ann@example.net")),
            .usernameChanged(.init(userId: "ann", oldUsername: "AnnB", newUsername: "annb")),
        ] + erased
        let others: [any DomainEvent] = [
            AlbumsEvent.memberInvited(.init(
                groupId: "g1", email: "bob@example.org", emailSubject: AlbumsNames.inviteeSubject(email: "Bob@Example.org"), inviterId: "ann",
                invitedAt: now)),
            AlbumsEvent.photoAdded(.init(
                groupId: "g1", photoId: "p1", blobId: String(repeating: "b", count: 64), description: "At the lake", addedBy: "ann",
                addedByName: "Ann", addedAt: now)),
            HouseholdEvent.taskCompleted(.init(
                houseId: "h1", taskId: "t1", taskName: "Dishes", roomId: "r1", roomName: "Kitchen", userId: "ann", displayName: "Ann",
                points: 5, completedAt: now)),
            NeighbourhoodEvent.reportPosted(.init(
                reportId: "r1", neighbourhood: "1234", authorId: "ann", authorDisplayName: "Ann", title: "Lost cat",
                description: "Grey, answers to Tom", category: .attention, latitude: 52.1, longitude: 4.3, postedAt: now)),
            QuizEvent.gameCreated(.init(
                gameId: "q1", players: [.init(userId: "ann", username: "AnnB"), .init(userId: "bob", username: "bob")], questions: [],
                answerOrders: [], createdAt: now)),
            WorkplaceEvent.reviewSubmitted(.init(
                organisationId: "o1", reviewId: "rv1", employeeId: "bob", reviewerId: "ann", reviewerName: "Ann Admin", formId: "f1",
                formName: "Yearly",
                answers: [.init(questionId: "q1", question: "How well?", kind: .rating, rating: 4),
                          .init(questionId: "q2", question: "What went well?", kind: .text, text: "Helpful")],
                remark: "Keep it up", submittedAt: now)),
        ]
        return accounts + others
    }

    @Test func withoutAKeyringEventsAreStoredAsBeforeByteForByte() throws {
        let events = try Self.decided(.plain)
        #expect(events.count == Self.plain.count)
        for (event, known) in zip(events, Self.plain) {
            #expect(event.typeName == known.type)
            #expect(EventSealer.plain.tags(of: event) == known.tags, "\(known.type)")
            #expect(String(decoding: try EventSealer.plain.data(of: event), as: UTF8.self) == known.data, "\(known.type)")
        }
    }

    @Test func withAKeyringEventsAreStoredAsBeforeButForTheNonces() throws {
        let keyring = FixedKeyring()
        let sealer = EventSealer(keyring: keyring)
        let events = try Self.decided(sealer)
        #expect(events.count == Self.keyed.count)
        for (event, known) in zip(events, Self.keyed) {
            #expect(event.typeName == known.type)
            #expect(sealer.tags(of: event) == known.tags, "\(known.type)")
            let data = try sealer.data(of: event)
            #expect(Self.nonceFree(data) == Self.nonceFree(Data(known.data.utf8)), "\(known.type)")
            // Both open to the same event: the new bytes, and the old as a data directory holds them.
            let now = try Self.opened(event, data, keyring), before = try Self.opened(event, Data(known.data.utf8), keyring)
            #expect(now == before, "\(known.type)")
        }
    }

    /// `data` with every sealed value's base64 replaced by its length: what stays the same from
    /// one sealing to the next.
    private static func nonceFree(_ data: Data) -> String {
        let text = String(decoding: data, as: UTF8.self)
        let sealed = /sealed:v1:([A-Za-z0-9+\/=]+)/
        return text.replacing(sealed) { "sealed:v1:<\($0.output.1.count) bytes>" }
    }

    /// `data` decoded as `event`'s domain, opened with `keyring`, and encoded plain again: a value
    /// every domain's events can be compared by.
    private static func opened<E: DomainEvent>(_ event: E, _ data: Data, _ keyring: any PersonalDataKeyring) throws -> String {
        let decoded = try #require(try E.decode(typeName: event.typeName, schemaVersion: event.schemaVersion, data: data, opening: keyring))
        return String(decoding: try decoded.encodeData(), as: UTF8.self)
    }

    /// Written without a keyring, before the change.
    static let plain: [KnownAnswer] = [
        KnownAnswer(
            "account.registered", tags: ["user:ann", "email:ann@example.org", "username:annb"],
            data: #"{"displayName":"Ann","email":"ann@example.org","passwordHash":"$2b$12$aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","postcode":"1234AB","userId":"ann","username":"AnnB"}"#),
        KnownAnswer(
            "account.emailChanged", tags: ["user:ann", "email:ann@example.org", "email:ann@example.net"],
            data: #"{"newEmail":"ann@example.net","oldEmail":"ann@example.org","userId":"ann"}"#),
        KnownAnswer(
            "account.usernameChanged", tags: ["user:ann", "username:annb"],
            data: #"{"newUsername":"annb","oldUsername":"AnnB","userId":"ann"}"#),
        KnownAnswer(
            "account.erased", tags: ["user:ann", "email:ann@example.org", "username:annb"],
            data: #"{"erasedSubjects":["invitee_438c4c7afe600cdf1e455c369bec76dc970fc8ca463447c7b387a347f3c79331"],"releasedTags":["email:ann@example.org","username:annb"],"userId":"ann"}"#),
        KnownAnswer(
            "albums.memberInvited", tags: ["group:g1"],
            data: #"{"email":"bob@example.org","emailSubject":"invitee_686b5e4cf4f963adf8f51468a48028ef8d15bd02fa335f821279a3d1678c9615","groupId":"g1","invitedAt":"2027-01-15T08:00:00.250Z","inviterId":"ann"}"#),
        KnownAnswer(
            "albums.photoAdded", tags: ["group:g1", "photo:p1"],
            data: #"{"addedAt":"2027-01-15T08:00:00.250Z","addedBy":"ann","addedByName":"Ann","blobId":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","description":"At the lake","groupId":"g1","photoId":"p1"}"#),
        KnownAnswer(
            "household.taskCompleted", tags: ["house:h1", "room:r1", "task:t1"],
            data: #"{"completedAt":"2027-01-15T08:00:00.250Z","displayName":"Ann","houseId":"h1","points":5,"roomId":"r1","roomName":"Kitchen","taskId":"t1","taskName":"Dishes","userId":"ann"}"#),
        KnownAnswer(
            "neighbourhood.reportPosted", tags: ["report:r1", "neighbourhood:1234", "user:ann"],
            data: #"{"authorDisplayName":"Ann","authorId":"ann","category":"attention","description":"Grey, answers to Tom","latitude":52.1,"longitude":4.3,"neighbourhood":"1234","postedAt":"2027-01-15T08:00:00.250Z","reportId":"r1","title":"Lost cat"}"#),
        KnownAnswer(
            "quiz.gameCreated", tags: ["game:q1", "user:ann", "user:bob"],
            data: #"{"answerOrders":[],"createdAt":"2027-01-15T08:00:00.250Z","gameId":"q1","players":[{"userId":"ann","username":"AnnB"},{"userId":"bob","username":"bob"}],"questions":[]}"#),
        KnownAnswer(
            "workplace.reviewSubmitted", tags: ["organisation:o1", "user:bob", "review:rv1", "form:f1"],
            data: #"{"answers":[{"kind":"rating","question":"How well?","questionId":"q1","rating":4},{"kind":"text","question":"What went well?","questionId":"q2","text":"Helpful"}],"employeeId":"bob","formId":"f1","formName":"Yearly","organisationId":"o1","remark":"Keep it up","reviewId":"rv1","reviewerId":"ann","reviewerName":"Ann Admin","submittedAt":"2027-01-15T08:00:00.250Z"}"#),
    ]

    /// Written with `FixedKeyring` in effect, before the change.
    static let keyed: [KnownAnswer] = [
        KnownAnswer(
            "account.registered", tags: ["user:ann", "email:556403c210588a202feee8919f9b381226d5edf566c946c1f587533b7be4fb08", "username:8a8f1c94af47f858bf5e09685ad0d45be5fd6a69eada05b8361fc0b3ab9c0de8"],
            data: #"{"displayName":"sealed:v1:89SvD15W9JxOkJhF/E6ah/FfaHXtdO3QAahPKqWb9Q==","email":"sealed:v1:9dRZpJt9sPeJPfV9n8ggLNuzB5ecl1G8kui7xVBClOujNmuxra6nfgUV9g==","passwordHash":"$2b$12$aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","postcode":"sealed:v1:cUC+KdSMuzTaNWqeW5DbuNZAtHU+OQ+yUq66Bui6vDMbNQ==","userId":"ann","username":"sealed:v1:Dy3GYCAChqig4SrvxtX+Va/h8xRt513NsDDj4/cmBrM="}"#),
        KnownAnswer(
            "account.emailChanged", tags: ["user:ann", "email:556403c210588a202feee8919f9b381226d5edf566c946c1f587533b7be4fb08", "email:aa56dea084d74ee2202591282c383bcb192bccee180dfa4f7cd37cc000516ee1"],
            data: #"{"newEmail":"sealed:v1:7Yo5BNbmNuS18lVg7zeAqn45meSyzDVErvgFkuDr6cJO/fyBJEVyIAtIRg==","oldEmail":"sealed:v1:/Hh+nIAXCz/lHc0ovvX05buxqku+vuVp4yoNCTmsPfldQL6IGsDq3dM19A==","userId":"ann"}"#),
        KnownAnswer(
            "account.usernameChanged", tags: ["user:ann", "username:8a8f1c94af47f858bf5e09685ad0d45be5fd6a69eada05b8361fc0b3ab9c0de8"],
            data: #"{"newUsername":"sealed:v1:0Cwm3dKwEfAMndJs5Xv5e+V2XGjwLs1jcr7gxZNMU4I=","oldUsername":"sealed:v1:YKFbPrqn9AFKT9vr6NFOacs4DyxPGCgXY+ftf9eoths=","userId":"ann"}"#),
        KnownAnswer(
            "account.erased", tags: ["user:ann", "email:556403c210588a202feee8919f9b381226d5edf566c946c1f587533b7be4fb08", "username:8a8f1c94af47f858bf5e09685ad0d45be5fd6a69eada05b8361fc0b3ab9c0de8"],
            data: #"{"erasedSubjects":["invitee_528ee342178f97d92b4f81b4a94b1cb3ca9fe2402edde9c238a1455b2682964b"],"releasedTags":["email:556403c210588a202feee8919f9b381226d5edf566c946c1f587533b7be4fb08","username:8a8f1c94af47f858bf5e09685ad0d45be5fd6a69eada05b8361fc0b3ab9c0de8"],"userId":"ann"}"#),
        KnownAnswer(
            "albums.memberInvited", tags: ["group:g1"],
            data: #"{"email":"sealed:v1:V8e8XUqKs4y5rkB53DQwZyiUEYQBDocNxKI+ZYmCOlXTsdJK1PSR8Cb2Vg==","emailSubject":"invitee_1aa3f7ac67b4b5e075c53ddd7f1735b84c70b9ed5275bd96ba1e60155c0d4c70","groupId":"g1","invitedAt":"2027-01-15T08:00:00.250Z","inviterId":"ann"}"#),
        KnownAnswer(
            "albums.photoAdded", tags: ["group:g1", "photo:p1"],
            data: #"{"addedAt":"2027-01-15T08:00:00.250Z","addedBy":"ann","addedByName":"sealed:v1:ADH1joDWmKq+YXZ0CofA+0QgBjyMIDmTVhkzHhXrzg==","blobId":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","description":"sealed:v1:c/1yfknjEn+1+EAlHqb5HT154NVsPQx6yJAKtU7lFOqIkRbVAnts","groupId":"g1","photoId":"p1"}"#),
        KnownAnswer(
            "household.taskCompleted", tags: ["house:h1", "room:r1", "task:t1"],
            data: #"{"completedAt":"2027-01-15T08:00:00.250Z","displayName":"sealed:v1:cwAQ+MH8VMaCtJrlyokRZa2e72fimeWSnnZnGGZMrg==","houseId":"h1","points":5,"roomId":"r1","roomName":"Kitchen","taskId":"t1","taskName":"Dishes","userId":"ann"}"#),
        KnownAnswer(
            "neighbourhood.reportPosted", tags: ["report:r1", "neighbourhood:1234", "user:ann"],
            data: #"{"authorDisplayName":"sealed:v1:hhJAljJYoDr8Ky2+u4MQN2FiEEmJjXsV6NUPdL3NiQ==","authorId":"ann","category":"attention","description":"sealed:v1:f/rejNPbr1HG+tJmThaMqlR4F3W5PcTPwL/TYRPNSxVaTW91mGCK3nqeKAvxNUns","latitude":52.1,"longitude":4.3,"neighbourhood":"1234","postedAt":"2027-01-15T08:00:00.250Z","reportId":"r1","title":"sealed:v1:cV1rVvS2R83jekG5oaznmykRGfkwmotmt4FKJ2DR7vTO1cC8"}"#),
        KnownAnswer(
            "quiz.gameCreated", tags: ["game:q1", "user:ann", "user:bob"],
            data: #"{"answerOrders":[],"createdAt":"2027-01-15T08:00:00.250Z","gameId":"q1","players":[{"userId":"ann","username":"sealed:v1:SvfY2fjY7m//eTd82bkKvCPFAW/jyakXTh232WlOhlA="},{"userId":"bob","username":"sealed:v1:oiVliQQAxlgze2s11VBacXWHP7zklbPsfCsNJtLJyQ=="}],"questions":[]}"#),
        KnownAnswer(
            "workplace.reviewSubmitted", tags: ["organisation:o1", "user:bob", "review:rv1", "form:f1"],
            data: #"{"answers":[{"kind":"rating","question":"How well?","questionId":"q1","rating":4},{"kind":"text","question":"What went well?","questionId":"q2","text":"sealed:v1:/u5Y+9wKe13/y7enXrcoQbMhfa/6POJoGdevHJBObzqOjDyDbSlPebwJstPUCHM3C6bsWELDoZI12qohNkNJO6jL/zHk0gxsjY59mD/O605GBTqaNJY="}],"employeeId":"bob","formId":"f1","formName":"Yearly","organisationId":"o1","remark":"sealed:v1:Jf1NLaqM6juebQcI1keE0RczdGd39J2NIcoE9aZwAZdFIIrdyrIq1RafC7kLYX0UgFlxTuRO+wjw7S9H03XbcpnpQprBOueF570vxdP3if2v1e0bym+MiM8U","reviewId":"rv1","reviewerId":"ann","reviewerName":"sealed:v1:F6sgC1qvucdRGcwRoNYxwRtxe0eWiuj+l41b7/sF0rBVJ4HQiA==","submittedAt":"2027-01-15T08:00:00.250Z"}"#),
    ]
}
