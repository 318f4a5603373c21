import Accounts
import Foundation
@testable import Household
import Neighbourhood
@testable import Quiz
import Testing
import Workplace
@testable import Projections

/// One stored value with its bytes, for the round-trip, truncation and trailing-bytes tests.
///
/// Every field of every sample differs from its type's default and from its neighbours of the
/// same type, so a field left out, or two fields read in swapped order, changes the decoded value.
struct ValueSample: Sendable, CustomTestStringConvertible {
    let testDescription: String
    /// The value as stored.
    let bytes: [UInt8]
    /// Decodes bytes as the value's type and expects the value back.
    let expectValue: @Sendable ([UInt8]) throws -> Void

    init<T: ReadModelValue & Equatable & Sendable>(_ name: String, _ value: T) {
        testDescription = name
        bytes = value.encodedBytes()
        expectValue = { bytes throws in
            let decoded = try T.decode(from: bytes)
            #expect(decoded == value)
        }
    }
}

/// Dates with fractional seconds, before and after the reference date.
enum SampleDates {
    static let first = Date(timeIntervalSinceReferenceDate: 721_692_345.678_901_2)
    static let second = Date(timeIntervalSinceReferenceDate: -12_345.000_001)
}

extension ValueSample {
    static let all = accounts + household + neighbourhood + quiz + workplace + albums + blobs

    static let accounts: [ValueSample] = [
        ValueSample("PasswordHash", Secrets.hash("Z")),
        ValueSample("SealedToken", SealedToken(base64: "c2VhbGVk-_+/=")!),
        ValueSample("AccountCredentials", AccountCredentials(userId: "user-1", email: "ånn@example.org", passwordHash: Secrets.hash("q"))),
        ValueSample("AccountProfile, every field", AccountProfile(
            userId: "user-1", email: "ann@example.org", displayName: "Ann 👩🏽‍🚀", firstName: "Ann", lastName: "Ångström",
            username: "ann_x", postcode: "1011 AB", avatarBlobId: "blob-9")),
        ValueSample("AccountProfile, no optionals", AccountProfile(
            userId: "user-2", email: "bo@example.org", displayName: "", firstName: nil, lastName: nil,
            username: nil, postcode: nil, avatarBlobId: nil)),
        ValueSample("AccountSession, ended", AccountSession(userId: "user-1", expiresAt: SampleDates.first, ended: true)),
        ValueSample("AccountSession, active", AccountSession(userId: "user-2", expiresAt: SampleDates.second, ended: false)),
        ValueSample("StoredPasswordReset", StoredPasswordReset(
            userId: "user-1", expiresAt: SampleDates.second, used: true, sealedToken: SealedToken(base64: "dG9rZW4=")!)),
        ValueSample("OutboxMail", OutboxMail(
            to: "ann@example.org", sealedToken: Secrets.sealed, requestedAt: SampleDates.first, expiresAt: SampleDates.second,
            userId: "user-1", position: 1 << 40)),
    ]

    static let member = MemberView(userId: "user-1", displayName: "Zoë 🧹")
    static let house = HouseView(
        houseId: "house-1", name: "De Pijp", joinCode: "K7Q2", isClosed: true,
        members: [member, MemberView(userId: "user-2", displayName: "")],
        rooms: [RoomView(roomId: "room-1", name: "Küche"), RoomView(roomId: "room-2", name: "Bath")])

    static let household: [ValueSample] = [
        ValueSample("MemberView", member),
        ValueSample("RoomView", RoomView(roomId: "room-1", name: "家")),
        ValueSample("HouseView, full", house),
        ValueSample("HouseView, empty lists", HouseView(houseId: "h", name: "", joinCode: "J", isClosed: false, members: [], rooms: [])),
        ValueSample("StoredHouse", { () -> StoredHouse in
            var stored = StoredHouse(.init(houseId: "x", name: "x", joinCode: "x", creatorId: "x", creatorDisplayName: "x"))
            stored.view = house
            return stored
        }()),
        ValueSample("StoredTask", StoredTask(taskId: "task-1", roomId: "room-1", name: "Hoover 🧽", frequencyDays: 7, points: -3)),
        ValueSample("StoredTask, extremes", StoredTask(taskId: "task-2", roomId: "room-2", name: "", frequencyDays: .max, points: .min)),
        ValueSample("TaskLastDone", TaskLastDone(at: SampleDates.first, by: member)),
        ValueSample("TaskLastDone, unnamed", TaskLastDone(at: SampleDates.second, by: MemberView(userId: "", displayName: ""))),
    ]

    static let author = NeighbourView(userId: "user-1", displayName: "Émile 🐈")

    static let neighbourhood: [ValueSample] = [
        ValueSample("ReportCategory", ReportCategory.complaint),
        ValueSample("NeighbourView", author),
        ValueSample("StoredReport", StoredReport(
            reportId: "report-1", neighbourhood: "1011", title: "Lost cat 🐈‍⬛", description: "Black, white paws.\nAnswers to “Mo”.",
            category: .attention, latitude: 52.370_216_8, longitude: -4.895_167_9, createdAt: SampleDates.first,
            author: author, position: 77)),
        ValueSample("ReportActivity", ReportActivity(position: .max - 1, replyCount: 12, followers: ["ann", "bob", "Ünal"])),
        ValueSample("ReplyView", ReplyView(replyId: "reply-1", author: author, message: "Seen her 👀", createdAt: SampleDates.second)),
        ValueSample("StoredReply", StoredReply(
            view: ReplyView(replyId: "reply-2", author: author, message: "", createdAt: SampleDates.second), recipients: ["ann", "bob"])),
        ValueSample("ReportPin", ReportPin(reportId: "report-2", authorId: "ann", title: "Noise", category: .event, latitude: -33.9, longitude: 151.2)),
    ]

    static let created = QuizEvent.GameCreated(
        gameId: "game-1",
        players: [QuizPlayer(userId: "user-1", username: "ann"), QuizPlayer(userId: "user-2", username: "bø")],
        questions: [
            GameQuestion(questionId: "q1", text: "2 + 2?", answers: ["4", "5", "22"], correctAnswer: "4"),
            GameQuestion(questionId: "q2", text: "", answers: [], correctAnswer: "—"),
        ],
        answerOrders: [[[2, 0, 1], []], [[1, 2, 0], [0]]], createdAt: SampleDates.first)

    static let finished: GameProgress = {
        var progress = GameProgress(created)
        progress.results = [.init(userId: "user-1", points: 2, outcome: .won), .init(userId: "user-2", points: 0, outcome: .lost)]
        progress.finishedAt = SampleDates.second
        progress.resultSeen = [false, true]
        return progress
    }()

    static let quiz: [ValueSample] = [
        ValueSample("QuizOutcome", QuizOutcome.draw),
        ValueSample("QuizPlayer", QuizPlayer(userId: "user-1", username: "ánn")),
        ValueSample("GameQuestion", created.questions[0]),
        ValueSample("GameFinished.Result", QuizEvent.GameFinished.Result(userId: "user-2", points: 7, outcome: .lost)),
        ValueSample("StoredQuestion, with category", StoredQuestion(
            questionId: "q1", text: "Capital of 🇳🇱?", answers: ["Amsterdam", "Utrecht"], correctAnswer: "Amsterdam", category: "geo")),
        ValueSample("StoredQuestion, no category", StoredQuestion(questionId: "q2", text: "", answers: [], correctAnswer: "x", category: nil)),
        ValueSample("PlayerStats", PlayerStats(userId: "user-1", username: "Ann", played: 10, won: 5, lost: 3, drawn: 2, poolIndex: 42)),
        ValueSample("GameSetup", GameSetup(created)),
        ValueSample("GameProgress, running", GameProgress(created)),
        ValueSample("GameProgress, finished", finished),
        ValueSample("GivenAnswer", GivenAnswer(userId: "user-1", correct: true, points: -5)),
        ValueSample("GivenAnswer, wrong", GivenAnswer(userId: "", correct: false, points: .max)),
    ]

    static let colleague = WorkplacePerson(userId: "user-3", name: "Åsa 🧑‍🔧")
    static let workplace: [ValueSample] = [
        ValueSample("QuestionKind", QuestionKind.yesNo),
        ValueSample("WorkplacePerson", colleague),
        ValueSample("OrganisationLocation", OrganisationLocation(locationId: "loc-1", name: "Utrecht Centraal")),
        ValueSample("OrganisationView", OrganisationView(organisationId: "org-1", name: "Bakkerij Ö", locations: [
            OrganisationLocation(locationId: "loc-1", name: "Oven"), OrganisationLocation(locationId: "loc-2", name: "")])),
        ValueSample("OrganisationView, no locations", OrganisationView(organisationId: "org-2", name: "", locations: [])),
        ValueSample("OrganisationDirectoryEntry", OrganisationDirectoryEntry(organisationId: "org-1", name: "ＡＣＭＥ", folded: "acme")),
        ValueSample("OrganisationMember, employee", OrganisationMember(
            userId: "user-2", name: "Bo", employeeNumber: "E-042", locationId: "loc-2", admin: false)),
        ValueSample("OrganisationMember, creator", OrganisationMember(userId: "user-1", name: "Ann", employeeNumber: nil, locationId: "loc-1", admin: true)),
        ValueSample("JoinRequestView", JoinRequestView(
            userId: "user-4", name: "Cees", employeeNumber: "0007", locationId: "loc-3", requestedAt: SampleDates.second)),
        ValueSample("ReviewFormQuestion", ReviewFormQuestion(questionId: "q1", text: "How punctual?", kind: .rating)),
        ValueSample("ReviewFormView", ReviewFormView(formId: "form-1", name: "Yearly", questions: [
            ReviewFormQuestion(questionId: "q1", text: "How punctual?", kind: .rating), ReviewFormQuestion(questionId: "q2", text: "", kind: .text)])),
        ValueSample("ReviewLocator", ReviewLocator(position: 1 << 40, employeeId: "user-2")),
        ValueSample("ReviewLocator, first position", ReviewLocator(position: 1, employeeId: "")),
        ValueSample("NewsItemView, with image", NewsItemView(
            newsId: "news-1", locationId: "loc-1", title: "Nieuwe oven", text: "Vanaf maandag.\nTot dan!", imageBlobId: "blob-7",
            postedAt: SampleDates.first, author: colleague, position: 1 << 50)),
        ValueSample("NewsItemView, no image", NewsItemView(
            newsId: "news-2", locationId: "loc-2", title: "", text: "x", imageBlobId: nil, postedAt: SampleDates.second,
            author: WorkplacePerson(userId: "user-9", name: "Dee"), position: 3)),
    ]
}
