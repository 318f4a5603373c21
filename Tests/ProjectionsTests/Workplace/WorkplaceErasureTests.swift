import EventLog
import EventSourcing
import Foundation
import Testing
@testable import Workplace
@testable import Projections

/// Erasing a user (ADR 0004): their name and employee number as a member and as a requester, the
/// reviews they wrote and the texts said about them, the news they posted, all read as
/// placeholders at once and after a rebuild; ids, times, ratings and other people's data stay.
/// The read models keep all of it as the log stores it, sealed (ADR 0009).
@Suite("Workplace read models: erasure", .timeLimit(.minutes(3)))
struct WorkplaceErasureTests {
    private typealias H = WorkplaceHistory
    /// Eve's data, each piece unique so a byte scan finds only hers.
    private static let marker = "k9w4"
    private static let name = "Eve \(marker)"
    private static let number = "EMP-\(marker)"
    private static let answer = "answer-\(marker)"
    private static let remark = "remark-\(marker)"
    private static let title = "title-\(marker)"
    private static let text = "text-\(marker)"

    @Test func anErasedUserReadsAsDeletedUserAtOnceAndAfterARebuild() async throws {
        try await withKeyring { keyring, fixture in
            try await fixture.append(H.register("org-1", "Acme", locations: [("loc-1", "HQ")]))
            try await fixture.append(H.register("org-2", "Other", creator: "zed", creatorName: "Zed"))
            try await fixture.append(H.join("org-1", "eve", name: Self.name, number: Self.number) + H.join("org-1", "bob", name: "Bob", number: "B-1"))
            try await fixture.append(H.request("org-2", "eve", name: Self.name, number: Self.number))
            try await fixture.append(.memberChanged(.init(organisationId: "org-1", userId: "eve", locationId: "loc-1", admin: true, actorId: "ann")))
            // Ann reviews Eve (the text answer and remark are about Eve); Eve reviews Bob and posts news.
            try await fixture.append(H.review("org-1", "rev-eve", of: "eve", text: Self.answer, remark: Self.remark))
            try await fixture.append(H.review("org-1", "rev-bob", of: "bob", by: ("eve", Self.name), text: "Bob's answer", remark: "Bob's remark"))
            try await fixture.append(H.news("org-1", "news-1", title: Self.title, text: Self.text, author: ("eve", Self.name)))
            let queries = fixture.queries
            guard case .member(let before)? = try queries.membership(of: "eve", in: "org-1") else {
                Issue.record("Eve is a member")
                return
            }
            #expect(before.name == Self.name && before.employeeNumber == Self.number)
            guard case .pending(let asked)? = try queries.membership(of: "eve", in: "org-2") else {
                Issue.record("Eve asked to join org-2")
                return
            }
            #expect(asked.name == Self.name && asked.employeeNumber == Self.number)
            #expect(try queries.pendingRequests(of: "org-2").map(\.name) == [Self.name])
            #expect(try queries.members(of: "org-1").map(\.name) == ["Ann", "Bob", Self.name])
            let posted = try queries.news(in: "org-1", location: "loc-1", limit: nil, cursor: nil).items.first
            #expect(posted?.author.name == Self.name && posted?.title == Self.title && posted?.text == Self.text)
            #expect(try await queries.review(id: "rev-eve", in: "org-1")?.remark == Self.remark)
            let sealed = try RawReadModel(WorkplaceProjections.organisations, in: fixture.engine)
            #expect(sealed.count > 0 && !Self.holdsMarker(sealed), "Eve's data is in the read models only sealed")

            try keyring.erase("eve")
            try await expectErased(fixture.queries)
            try await fixture.engine.rebuild(WorkplaceProjections.organisations.name)
            try await expectErased(fixture.queries)

            let erased = try RawReadModel(WorkplaceProjections.organisations, in: fixture.engine)
            #expect(!Self.holdsMarker(erased), "no byte of the rebuilt read models holds Eve's data")
        }
    }

    /// What the read models answer about Eve, and the others, once her key is destroyed.
    private func expectErased(_ queries: WorkplaceQueries<LMDBEventStore>) async throws {
        let deleted = PersonalDataSeal.deletedUser
        guard case .member(let member)? = try queries.membership(of: "eve", in: "org-1"),
              case .pending(let request)? = try queries.membership(of: "eve", in: "org-2") else {
            Issue.record("Eve's membership and request stay, without her data")
            return
        }
        #expect(member.userId == "eve" && member.name == deleted && member.employeeNumber != Self.number && member.admin)
        #expect(request.name == deleted && request.employeeNumber != Self.number && request.requestedAt == WorkplaceFixture.start)
        #expect(try queries.members(of: "org-1").map(\.name).sorted() == ["Ann", "Bob", deleted])

        let aboutEve = try #require(try await queries.review(id: "rev-eve", in: "org-1"))
        #expect(aboutEve.reviewer == WorkplacePerson(userId: "ann", name: "Ann"), "the reviewer's own name is not Eve's")
        #expect(aboutEve.answers.map(\.value) == [.rating(4), .yes(true), .text("")] && aboutEve.remark != Self.remark)
        #expect(aboutEve.answers.map(\.question) == ["How punctual?", "Team player?", "What went well?"], "the questions are the organisation's")

        let byEve = try #require(try await queries.review(id: "rev-bob", in: "org-1"))
        #expect(byEve.reviewer == WorkplacePerson(userId: "eve", name: deleted))
        // What Eve wrote about Bob is hers as well as his (ADR 0010): it reads erased with her.
        #expect(byEve.answers.last?.value == .text("") && byEve.remark == "", "what Eve wrote about Bob goes with her")

        let news = try queries.news(in: "org-1", location: "loc-1", limit: nil, cursor: nil).items
        #expect(news.map(\.newsId) == ["news-1"])
        #expect(news.first?.author == WorkplacePerson(userId: "eve", name: deleted) && news.first?.title == "" && news.first?.text == "")
        #expect(try queries.pendingRequests(of: "org-2").map(\.name) == [deleted])
    }

    /// Reviews are kept as log positions and read from the log: what a review says is never in
    /// the read models, and an erasure shows in it at once, with no rebuild.
    @Test func aReviewsTextsAreNeverInTheReadModelsAndReadAsErasedAtOnce() async throws {
        try await withKeyring { keyring, fixture in
            try await fixture.append(H.register("org-1", "Acme", locations: [("loc-1", "HQ")]))
            try await fixture.append(H.join("org-1", "eve", name: "Eve", number: "E-1"))
            try await fixture.append(H.review("org-1", "rev-eve", of: "eve", text: Self.answer, remark: Self.remark))
            let queries = fixture.queries
            #expect(try await queries.review(id: "rev-eve", in: "org-1")?.remark == Self.remark)
            #expect(try await queries.reviews(in: "org-1", employee: "eve", limit: nil, cursor: nil).items.first?.answers.last?.value == .text(Self.answer))
            let model = try RawReadModel(WorkplaceProjections.organisations, in: fixture.engine)
            #expect(!model.holds(Self.answer) && !model.holds(Self.remark), "no review text in the read models")
            #expect(!model.holds("How punctual?"), "nor the review's questions")

            try keyring.erase("eve")
            let erased = try #require(try await queries.review(id: "rev-eve", in: "org-1"))
            #expect(erased.remark == "" && erased.answers.last?.value == .text(""), "no rebuild needed")
            let listed = try await queries.reviews(in: "org-1", employee: nil, limit: nil, cursor: nil).items
            #expect(listed == [erased])
        }
    }

    /// A key store in a directory of its own and a fixture whose engine opens with it.
    private func withKeyring(_ body: (PersonalDataKeyStore, WorkplaceFixture) async throws -> Void) async throws {
        let keys = try TemporaryKeyStore()
        defer { keys.remove() }
        let fixture = try await WorkplaceFixture(personalData: keys.keyring)
        defer { fixture.close() }
        try await body(keys.keyring, fixture)
    }

    private static func holdsMarker(_ model: RawReadModel) -> Bool {
        model.holds(marker)
    }
}
