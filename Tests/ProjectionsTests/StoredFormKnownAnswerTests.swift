@testable import Accounts
@testable import Albums
@testable import Blobs
import EventSourcing
import Foundation
@testable import Household
@testable import Neighbourhood
@testable import Quiz
import Testing
@testable import Workplace

/// Every event type of every domain as the log stores it: its type name, schema version,
/// stream, tags and JSON (personal fields plain, as a log without a keyring holds them). The
/// known answers were written by the code before the codecs were declared (issue 50, item 4),
/// when each domain said its streams and tags in switches over its cases; the registrations and
/// payload protocols that replaced them must store every event byte for byte as they did.
@Suite("Stored event forms: known answers from before the codecs were declared")
struct StoredFormKnownAnswerTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000.25)
    static let hash = PasswordHash(bcrypt: "$2b$12$" + String(repeating: "a", count: 53))!
    static let token = TokenHash(hex: String(repeating: "1", count: 64))!
    static let sealed = SealedToken(base64: "c2VhbGVkLXRva2VuLWJ5dGVz")!
    static let blob = String(repeating: "b", count: 64)

    static let household: [HouseholdEvent] = [
        .houseCreated(.init(houseId: "h1", name: "Canal House", joinCode: "code-1", creatorId: "ann", creatorDisplayName: "Ann")),
        .memberJoined(.init(houseId: "h1", userId: "bob", displayName: "Bob")),
        .memberLeft(.init(houseId: "h1", userId: "bob")),
        .houseClosed(.init(houseId: "h1")),
        .joinCodeRotated(.init(houseId: "h1", joinCode: "code-2")),
        .roomAdded(.init(houseId: "h1", roomId: "r1", name: "Kitchen")),
        .roomRenamed(.init(houseId: "h1", roomId: "r1", name: "Galley")),
        .roomRemoved(.init(houseId: "h1", roomId: "r1")),
        .taskAdded(.init(houseId: "h1", roomId: "r1", taskId: "t1", name: "Dishes", frequencyDays: 1, points: 5)),
        .taskEdited(.init(houseId: "h1", roomId: "r1", taskId: "t1", name: "Wash up", frequencyDays: 2, points: 3)),
        .taskRemoved(.init(houseId: "h1", roomId: "r1", taskId: "t1")),
        .taskCompleted(.init(
            houseId: "h1", taskId: "t1", taskName: "Dishes", roomId: "r1", roomName: "Kitchen", userId: "ann", displayName: "Ann",
            points: 5, completedAt: now)),
    ]

    static let workplace: [WorkplaceEvent] = [
        .organisationRegistered(.init(
            organisationId: "o1", name: "Acme", locations: [.init(locationId: "l1", name: "HQ")], creatorId: "ann", creatorName: "Ann",
            registeredAt: now)),
        .locationAdded(.init(organisationId: "o1", location: .init(locationId: "l2", name: "Depot"), actorId: "ann")),
        .locationRenamed(.init(organisationId: "o1", location: .init(locationId: "l2", name: "Store"), actorId: "ann")),
        .locationRemoved(.init(organisationId: "o1", locationId: "l2", actorId: "ann")),
        .joinRequested(.init(organisationId: "o1", userId: "bob", locationId: "l1", employeeNumber: "E1", name: "Bob", requestedAt: now)),
        .joinRequestAccepted(.init(
            organisationId: "o1", userId: "bob", locationId: "l1", employeeNumber: "E2", name: "Bob B", actorId: "ann", acceptedAt: now)),
        .joinRequestRejected(.init(organisationId: "o1", userId: "cat", actorId: "ann")),
        .memberChanged(.init(organisationId: "o1", userId: "bob", locationId: "l1", admin: true, actorId: "ann")),
        .memberRemoved(.init(organisationId: "o1", userId: "bob", actorId: "bob")),
        .formCreated(.init(
            organisationId: "o1", formId: "f1", name: "Yearly", questions: [.init(questionId: "q1", text: "How?", kind: .rating)],
            actorId: "ann")),
        .formRenamed(.init(organisationId: "o1", formId: "f1", name: "Annual", actorId: "ann")),
        .questionAdded(.init(organisationId: "o1", formId: "f1", question: .init(questionId: "q2", text: "Ok?", kind: .yesNo), actorId: "ann")),
        .questionRemoved(.init(organisationId: "o1", formId: "f1", questionId: "q2", actorId: "ann")),
        .questionsReordered(.init(organisationId: "o1", formId: "f1", questionIds: ["q1"], actorId: "ann")),
        .formDeleted(.init(organisationId: "o1", formId: "f1", actorId: "ann")),
        .reviewSubmitted(.init(
            organisationId: "o1", reviewId: "rv1", employeeId: "bob", reviewerId: "ann", reviewerName: "Ann", formId: "f1", formName: "Yearly",
            answers: [.init(questionId: "q1", question: "How?", kind: .rating, rating: 4), .init(questionId: "q3", question: "What?", kind: .text, text: "Fine")],
            remark: "Keep it up", submittedAt: now)),
        .newsPosted(.init(
            organisationId: "o1", newsId: "n1", locationId: "l1", title: "Hello", text: "News", imageBlobId: blob, authorId: "ann",
            authorName: "Ann", postedAt: now)),
        .newsDeleted(.init(organisationId: "o1", newsId: "n1", locationId: "l1", actorId: "ann")),
    ]

    static let albums: [AlbumsEvent] = [
        .groupCreated(.init(groupId: "g1", name: "Summer", ownerId: "ann", ownerEmail: "ann@example.org", createdAt: now)),
        .memberInvited(.init(groupId: "g1", email: "bob@example.org", emailSubject: "invitee_0a1b", inviterId: "ann", invitedAt: now)),
        .invitationClaimed(.init(groupId: "g1", email: "bob@example.org", userId: "bob", claimedAt: now)),
        .photoAdded(.init(groupId: "g1", photoId: "p1", blobId: blob, description: "Beach", addedBy: "ann", addedByName: "Ann", addedAt: now)),
        .photoDeleted(.init(groupId: "g1", photoId: "p1", blobId: blob, actorId: "ann")),
        .messagePosted(.init(groupId: "g1", messageId: "m1", text: "Hi", authorId: "bob", authorName: "Bob", postedAt: now)),
        .memberLeft(.init(groupId: "g1", email: "bob@example.org", userId: "bob", leftAt: now)),
        .groupDeleted(.init(groupId: "g1", name: "Summer", ownerId: "ann", blobIds: [blob], deletedAt: now)),
    ]

    static let accounts: [AccountEvent] = [
        .registered(.init(
            userId: "ann", email: "ann@example.org", passwordHash: hash, displayName: "Ann", firstName: "Ann", lastName: "Bee",
            username: "AnnB", postcode: "1234AB")),
        .profileUpdated(.init(userId: "ann", displayName: "Annie", firstName: "Ann", lastName: nil, postcode: "1234AB")),
        .emailChanged(.init(userId: "ann", oldEmail: "ann@example.org", newEmail: "ann@example.net")),
        .usernameChanged(.init(userId: "ann", oldUsername: "AnnB", newUsername: "annb")),
        .passwordChanged(.init(userId: "ann", passwordHash: hash)),
        .sessionStarted(.init(userId: "ann", tokenHash: token, expiresAt: now)),
        .sessionEnded(.init(userId: "ann", tokenHash: token)),
        .passwordResetRequested(.init(userId: "ann", tokenHash: token, sealedToken: sealed, expiresAt: now, email: "ann@example.net")),
        .passwordResetRedeemed(.init(userId: "ann", tokenHash: token)),
        .avatarChanged(.init(userId: "ann", blobId: blob)),
        .erased(.init(userId: "ann", releasedTags: ["email:ann@example.net", "username:annb"], erasedSubjects: ["invitee_0a1b"])),
        .emailVerificationRequested(.init(userId: "bob", tokenHash: token, sealedToken: sealed, expiresAt: now, email: "bob@example.org")),
        .emailVerified(.init(userId: "bob", email: "bob@example.org")),
    ]

    static let neighbourhood: [NeighbourhoodEvent] = [
        .reportPosted(.init(
            reportId: "r1", neighbourhood: "1234AB", authorId: "ann", authorDisplayName: "Ann", title: "Lost cat", description: "Grey",
            category: .attention, latitude: 52.1, longitude: 4.3, postedAt: now)),
        .reportDeleted(.init(reportId: "r1", neighbourhood: "1234AB", authorId: "ann")),
        .replyPosted(.init(
            reportId: "r1", neighbourhood: "1234AB", replyId: "y1", authorId: "bob", authorDisplayName: "Bob", message: "Seen her",
            postedAt: now)),
        .reportFollowed(.init(reportId: "r1", neighbourhood: "1234AB", userId: "bob")),
        .reportUnfollowed(.init(reportId: "r1", neighbourhood: "1234AB", userId: "bob")),
    ]

    static let quiz: [QuizEvent] = [
        .questionAdded(.init(questionId: "q1", text: "Two and two?", answers: ["3", "4"], correctAnswer: "4", category: "Sums")),
        .gameCreated(.init(
            gameId: "g1", players: [.init(userId: "ann", username: "AnnB"), .init(userId: "bob", username: "bob")],
            questions: [.init(questionId: "q1", text: "Two and two?", answers: ["3", "4"], correctAnswer: "4")],
            answerOrders: [[[1, 0]], [[0, 1]]], createdAt: now)),
        .answerGiven(.init(gameId: "g1", userId: "ann", index: 0, answer: "4", correct: true, correctAnswer: "4", points: 1, answeredAt: now)),
        .gameFinished(.init(
            gameId: "g1", results: [.init(userId: "ann", points: 1, outcome: .won), .init(userId: "bob", points: 0, outcome: .lost)],
            finishedAt: now)),
        .resultSeen(.init(gameId: "g1", userId: "bob")),
    ]

    static let blobs: [BlobEvent] = [
        .uploaded(.init(blobId: blob, contentType: "image/png", bytes: 1_234, uploaderId: "ann", uploadedAt: now)),
    ]

    static var everyEvent: [any DomainEvent] { household + workplace + albums + accounts + neighbourhood + quiz + blobs }

    /// `type vN stream [tags] json`.
    static func storedForm(_ event: any DomainEvent) throws -> String {
        "\(event.typeName) v\(event.schemaVersion) \(event.streamID) \(event.tags) \(String(decoding: try event.encodeData(), as: UTF8.self))"
    }

    @Test func theSampleHoldsEveryTypeOfEveryDomainOnce() {
        let catalogued = HouseholdEvent.typeNames + WorkplaceEvent.typeNames + AlbumsEvent.typeNames + AccountEvent.typeNames
            + NeighbourhoodEvent.typeNames + QuizEvent.typeNames + BlobEvent.typeNames
        #expect(Self.everyEvent.count == catalogued.count)
        #expect(Set(Self.everyEvent.map(\.typeName)) == Set(catalogued))
    }

    @Test func everyEventIsStoredAsBefore() throws {
        let forms = try Self.everyEvent.map(Self.storedForm)
        #expect(forms.count == Self.knownAnswers.count)
        for (form, known) in zip(forms, Self.knownAnswers) { #expect(form == known) }
    }

    @Test func everyStoredFormReadsBackAsItsEvent() throws {
        func readsBack<Event: DomainEvent>(_ event: Event) throws -> Bool {
            try Event.decode(typeName: event.typeName, schemaVersion: event.schemaVersion, data: event.encodeData()) == event
        }
        for event in Self.everyEvent { #expect(try readsBack(event), "\(event.typeName)") }
    }

    static let knownAnswers: [String] = [
        #"household.houseCreated v1 house-h1 ["house:h1", "user:ann"] {"creatorDisplayName":"Ann","creatorId":"ann","houseId":"h1","joinCode":"code-1","name":"Canal House"}"#,
        #"household.memberJoined v1 house-h1 ["house:h1", "user:bob"] {"displayName":"Bob","houseId":"h1","userId":"bob"}"#,
        #"household.memberLeft v1 house-h1 ["house:h1", "user:bob"] {"houseId":"h1","userId":"bob"}"#,
        #"household.houseClosed v1 house-h1 ["house:h1"] {"houseId":"h1"}"#,
        #"household.joinCodeRotated v1 house-h1 ["house:h1"] {"houseId":"h1","joinCode":"code-2"}"#,
        #"household.roomAdded v1 house-h1 ["house:h1", "room:r1"] {"houseId":"h1","name":"Kitchen","roomId":"r1"}"#,
        #"household.roomRenamed v1 house-h1 ["house:h1", "room:r1"] {"houseId":"h1","name":"Galley","roomId":"r1"}"#,
        #"household.roomRemoved v1 house-h1 ["house:h1", "room:r1"] {"houseId":"h1","roomId":"r1"}"#,
        #"household.taskAdded v1 house-h1 ["house:h1", "room:r1", "task:t1"] {"frequencyDays":1,"houseId":"h1","name":"Dishes","points":5,"roomId":"r1","taskId":"t1"}"#,
        #"household.taskEdited v1 house-h1 ["house:h1", "room:r1", "task:t1"] {"frequencyDays":2,"houseId":"h1","name":"Wash up","points":3,"roomId":"r1","taskId":"t1"}"#,
        #"household.taskRemoved v1 house-h1 ["house:h1", "room:r1", "task:t1"] {"houseId":"h1","roomId":"r1","taskId":"t1"}"#,
        #"household.taskCompleted v1 house-h1 ["house:h1", "room:r1", "task:t1"] {"completedAt":"2027-01-15T08:00:00.250Z","displayName":"Ann","houseId":"h1","points":5,"roomId":"r1","roomName":"Kitchen","taskId":"t1","taskName":"Dishes","userId":"ann"}"#,
        #"workplace.organisationRegistered v1 organisation-o1 ["organisation:o1", "organisationName:822b33ad87c148a0a20a5ba7cd5ebcaa68d36a18e7aad165554903f52ca82757", "user:ann"] {"creatorId":"ann","creatorName":"Ann","locations":[{"locationId":"l1","name":"HQ"}],"name":"Acme","organisationId":"o1","registeredAt":"2027-01-15T08:00:00.250Z"}"#,
        #"workplace.locationAdded v1 organisation-o1 ["organisation:o1", "location:l2"] {"actorId":"ann","location":{"locationId":"l2","name":"Depot"},"organisationId":"o1"}"#,
        #"workplace.locationRenamed v1 organisation-o1 ["organisation:o1", "location:l2"] {"actorId":"ann","location":{"locationId":"l2","name":"Store"},"organisationId":"o1"}"#,
        #"workplace.locationRemoved v1 organisation-o1 ["organisation:o1", "location:l2"] {"actorId":"ann","locationId":"l2","organisationId":"o1"}"#,
        #"workplace.joinRequested v1 organisation-o1 ["organisation:o1", "user:bob", "location:l1"] {"employeeNumber":"E1","locationId":"l1","name":"Bob","organisationId":"o1","requestedAt":"2027-01-15T08:00:00.250Z","userId":"bob"}"#,
        #"workplace.joinRequestAccepted v1 organisation-o1 ["organisation:o1", "user:bob", "location:l1"] {"acceptedAt":"2027-01-15T08:00:00.250Z","actorId":"ann","employeeNumber":"E2","locationId":"l1","name":"Bob B","organisationId":"o1","userId":"bob"}"#,
        #"workplace.joinRequestRejected v1 organisation-o1 ["organisation:o1", "user:cat"] {"actorId":"ann","organisationId":"o1","userId":"cat"}"#,
        #"workplace.memberChanged v1 organisation-o1 ["organisation:o1", "user:bob", "location:l1"] {"actorId":"ann","admin":true,"locationId":"l1","organisationId":"o1","userId":"bob"}"#,
        #"workplace.memberRemoved v1 organisation-o1 ["organisation:o1", "user:bob"] {"actorId":"bob","organisationId":"o1","userId":"bob"}"#,
        #"workplace.formCreated v1 organisation-o1 ["organisation:o1", "form:f1"] {"actorId":"ann","formId":"f1","name":"Yearly","organisationId":"o1","questions":[{"kind":"rating","questionId":"q1","text":"How?"}]}"#,
        #"workplace.formRenamed v1 organisation-o1 ["organisation:o1", "form:f1"] {"actorId":"ann","formId":"f1","name":"Annual","organisationId":"o1"}"#,
        #"workplace.questionAdded v1 organisation-o1 ["organisation:o1", "form:f1"] {"actorId":"ann","formId":"f1","organisationId":"o1","question":{"kind":"yesNo","questionId":"q2","text":"Ok?"}}"#,
        #"workplace.questionRemoved v1 organisation-o1 ["organisation:o1", "form:f1"] {"actorId":"ann","formId":"f1","organisationId":"o1","questionId":"q2"}"#,
        #"workplace.questionsReordered v1 organisation-o1 ["organisation:o1", "form:f1"] {"actorId":"ann","formId":"f1","organisationId":"o1","questionIds":["q1"]}"#,
        #"workplace.formDeleted v1 organisation-o1 ["organisation:o1", "form:f1"] {"actorId":"ann","formId":"f1","organisationId":"o1"}"#,
        #"workplace.reviewSubmitted v1 organisation-o1 ["organisation:o1", "user:bob", "review:rv1", "form:f1"] {"answers":[{"kind":"rating","question":"How?","questionId":"q1","rating":4},{"kind":"text","question":"What?","questionId":"q3","text":"Fine"}],"employeeId":"bob","formId":"f1","formName":"Yearly","organisationId":"o1","remark":"Keep it up","reviewId":"rv1","reviewerId":"ann","reviewerName":"Ann","submittedAt":"2027-01-15T08:00:00.250Z"}"#,
        #"workplace.newsPosted v1 organisation-o1 ["organisation:o1", "news:n1", "location:l1"] {"authorId":"ann","authorName":"Ann","imageBlobId":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","locationId":"l1","newsId":"n1","organisationId":"o1","postedAt":"2027-01-15T08:00:00.250Z","text":"News","title":"Hello"}"#,
        #"workplace.newsDeleted v1 organisation-o1 ["organisation:o1", "news:n1", "location:l1"] {"actorId":"ann","locationId":"l1","newsId":"n1","organisationId":"o1"}"#,
        #"albums.groupCreated v1 group-g1 ["group:g1", "groupName:ann:e83664255c6963e962bb20f9fcfaad1b570ddf5da69f5444ed37e5260f3ef689"] {"createdAt":"2027-01-15T08:00:00.250Z","groupId":"g1","name":"Summer","ownerEmail":"ann@example.org","ownerId":"ann"}"#,
        #"albums.memberInvited v1 group-g1 ["group:g1"] {"email":"bob@example.org","emailSubject":"invitee_0a1b","groupId":"g1","invitedAt":"2027-01-15T08:00:00.250Z","inviterId":"ann"}"#,
        #"albums.invitationClaimed v1 group-g1 ["group:g1"] {"claimedAt":"2027-01-15T08:00:00.250Z","email":"bob@example.org","groupId":"g1","userId":"bob"}"#,
        #"albums.photoAdded v1 group-g1 ["group:g1", "photo:p1"] {"addedAt":"2027-01-15T08:00:00.250Z","addedBy":"ann","addedByName":"Ann","blobId":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","description":"Beach","groupId":"g1","photoId":"p1"}"#,
        #"albums.photoDeleted v1 group-g1 ["group:g1", "photo:p1"] {"actorId":"ann","blobId":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","groupId":"g1","photoId":"p1"}"#,
        #"albums.messagePosted v1 group-g1 ["group:g1", "message:m1"] {"authorId":"bob","authorName":"Bob","groupId":"g1","messageId":"m1","postedAt":"2027-01-15T08:00:00.250Z","text":"Hi"}"#,
        #"albums.memberLeft v1 group-g1 ["group:g1"] {"email":"bob@example.org","groupId":"g1","leftAt":"2027-01-15T08:00:00.250Z","userId":"bob"}"#,
        #"albums.groupDeleted v1 group-g1 ["group:g1", "groupName:ann:e83664255c6963e962bb20f9fcfaad1b570ddf5da69f5444ed37e5260f3ef689"] {"blobIds":["bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"],"deletedAt":"2027-01-15T08:00:00.250Z","groupId":"g1","name":"Summer","ownerId":"ann"}"#,
        #"account.registered v1 account-ann ["user:ann", "email:ann@example.org", "username:annb"] {"displayName":"Ann","email":"ann@example.org","firstName":"Ann","lastName":"Bee","passwordHash":"$2b$12$aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","postcode":"1234AB","userId":"ann","username":"AnnB"}"#,
        #"account.profileUpdated v1 account-ann ["user:ann"] {"displayName":"Annie","firstName":"Ann","postcode":"1234AB","userId":"ann"}"#,
        #"account.emailChanged v1 account-ann ["user:ann", "email:ann@example.org", "email:ann@example.net"] {"newEmail":"ann@example.net","oldEmail":"ann@example.org","userId":"ann"}"#,
        #"account.usernameChanged v1 account-ann ["user:ann", "username:annb"] {"newUsername":"annb","oldUsername":"AnnB","userId":"ann"}"#,
        #"account.passwordChanged v1 account-ann ["user:ann"] {"passwordHash":"$2b$12$aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","userId":"ann"}"#,
        #"account.sessionStarted v1 account-ann ["user:ann"] {"expiresAt":"2027-01-15T08:00:00.250Z","tokenHash":"1111111111111111111111111111111111111111111111111111111111111111","userId":"ann"}"#,
        #"account.sessionEnded v1 account-ann ["user:ann"] {"tokenHash":"1111111111111111111111111111111111111111111111111111111111111111","userId":"ann"}"#,
        #"account.passwordResetRequested v1 account-ann ["user:ann"] {"email":"ann@example.net","expiresAt":"2027-01-15T08:00:00.250Z","sealedToken":"c2VhbGVkLXRva2VuLWJ5dGVz","tokenHash":"1111111111111111111111111111111111111111111111111111111111111111","userId":"ann"}"#,
        #"account.passwordResetRedeemed v1 account-ann ["user:ann"] {"tokenHash":"1111111111111111111111111111111111111111111111111111111111111111","userId":"ann"}"#,
        #"account.avatarChanged v1 account-ann ["user:ann"] {"blobId":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","userId":"ann"}"#,
        #"account.erased v1 account-ann ["user:ann", "email:ann@example.net", "username:annb"] {"erasedSubjects":["invitee_0a1b"],"releasedTags":["email:ann@example.net","username:annb"],"userId":"ann"}"#,
        #"account.emailVerificationRequested v1 account-bob ["user:bob"] {"email":"bob@example.org","expiresAt":"2027-01-15T08:00:00.250Z","sealedToken":"c2VhbGVkLXRva2VuLWJ5dGVz","tokenHash":"1111111111111111111111111111111111111111111111111111111111111111","userId":"bob"}"#,
        #"account.emailVerified v1 account-bob ["user:bob"] {"email":"bob@example.org","userId":"bob"}"#,
        #"neighbourhood.reportPosted v1 report-r1 ["report:r1", "neighbourhood:1234AB", "user:ann"] {"authorDisplayName":"Ann","authorId":"ann","category":"attention","description":"Grey","latitude":52.1,"longitude":4.3,"neighbourhood":"1234AB","postedAt":"2027-01-15T08:00:00.250Z","reportId":"r1","title":"Lost cat"}"#,
        #"neighbourhood.reportDeleted v1 report-r1 ["report:r1", "neighbourhood:1234AB", "user:ann"] {"authorId":"ann","neighbourhood":"1234AB","reportId":"r1"}"#,
        #"neighbourhood.replyPosted v1 report-r1 ["report:r1", "neighbourhood:1234AB", "user:bob"] {"authorDisplayName":"Bob","authorId":"bob","message":"Seen her","neighbourhood":"1234AB","postedAt":"2027-01-15T08:00:00.250Z","replyId":"y1","reportId":"r1"}"#,
        #"neighbourhood.reportFollowed v1 report-r1 ["report:r1", "neighbourhood:1234AB", "user:bob"] {"neighbourhood":"1234AB","reportId":"r1","userId":"bob"}"#,
        #"neighbourhood.reportUnfollowed v1 report-r1 ["report:r1", "neighbourhood:1234AB", "user:bob"] {"neighbourhood":"1234AB","reportId":"r1","userId":"bob"}"#,
        #"quiz.questionAdded v1 question-q1 ["question:q1", "question-text:41f9726d704ad103"] {"answers":["3","4"],"category":"Sums","correctAnswer":"4","questionId":"q1","text":"Two and two?"}"#,
        #"quiz.gameCreated v1 game-g1 ["game:g1", "user:ann", "user:bob"] {"answerOrders":[[[1,0]],[[0,1]]],"createdAt":"2027-01-15T08:00:00.250Z","gameId":"g1","players":[{"userId":"ann","username":"AnnB"},{"userId":"bob","username":"bob"}],"questions":[{"answers":["3","4"],"correctAnswer":"4","questionId":"q1","text":"Two and two?"}]}"#,
        #"quiz.answerGiven v1 game-g1 ["game:g1"] {"answer":"4","answeredAt":"2027-01-15T08:00:00.250Z","correct":true,"correctAnswer":"4","gameId":"g1","index":0,"points":1,"userId":"ann"}"#,
        #"quiz.gameFinished v1 game-g1 ["game:g1"] {"finishedAt":"2027-01-15T08:00:00.250Z","gameId":"g1","results":[{"outcome":"won","points":1,"userId":"ann"},{"outcome":"lost","points":0,"userId":"bob"}]}"#,
        #"quiz.resultSeen v1 game-g1 ["game:g1"] {"gameId":"g1","userId":"bob"}"#,
        #"blob.uploaded v1 blob-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb ["blob:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "user:ann"] {"blobId":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","bytes":1234,"contentType":"image/png","uploadedAt":"2027-01-15T08:00:00.250Z","uploaderId":"ann"}"#,
    ]
}
