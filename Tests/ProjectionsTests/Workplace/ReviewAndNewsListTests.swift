import EventLog
import EventSourcing
import Foundation
import Testing
@testable import Workplace
@testable import Projections

/// Reviews and news: newest first, paged by opaque cursors, per employee or location and for
/// the whole organisation; deleted news leaves both lists.
@Suite("Workplace read models: reviews and news", .timeLimit(.minutes(3)))
struct ReviewAndNewsListTests {
    private typealias H = WorkplaceHistory
    private let start = WorkplaceFixture.start

    private func organisation(_ fixture: WorkplaceFixture) async throws {
        try await fixture.append(H.register("org-1", "Acme", locations: [("loc-1", "HQ"), ("loc-2", "Depot")]))
        try await fixture.append(H.register("org-2", "Other", creator: "zed", creatorName: "Zed"))
        try await fixture.append(H.join("org-1", "bob", name: "Bob", number: "1") + H.join("org-1", "cara", name: "Cara", number: "2", location: "loc-2"))
    }

    @Test func aReviewIsStoredAsSubmittedAndSurvivesItsFormAndItsEmployee() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        try await organisation(fixture)
        try await fixture.append(H.form("org-1", "form-1", name: "Yearly", questions: [("q1", "How punctual?", .rating)]))
        try await fixture.append(H.review("org-1", "rev-1", of: "bob", at: start + 60))
        let expected = ReviewView(
            reviewId: "rev-1", employeeId: "bob", formId: "form-1", formName: "Yearly", reviewer: .init(userId: "ann", name: "Ann"),
            submittedAt: start + 60,
            answers: [
                .init(questionId: "q1", question: "How punctual?", kind: .rating, value: .rating(4)),
                .init(questionId: "q2", question: "Team player?", kind: .yesNo, value: .yes(true)),
                .init(questionId: "q3", question: "What went well?", kind: .text, value: .text("Helpful")),
            ],
            remark: "Keep it up")
        #expect(try await fixture.queries.review(id: "rev-1", in: "org-1") == expected)
        #expect(try await fixture.queries.review(id: "rev-1", in: "org-2") == nil, "another organisation's review")
        #expect(try await fixture.queries.review(id: "rev-2", in: "org-1") == nil)

        try await fixture.append(
            .formRenamed(.init(organisationId: "org-1", formId: "form-1", name: "Renamed", actorId: "ann")),
            .questionRemoved(.init(organisationId: "org-1", formId: "form-1", questionId: "q1", actorId: "ann")),
            .formDeleted(.init(organisationId: "org-1", formId: "form-1", actorId: "ann")),
            .memberRemoved(.init(organisationId: "org-1", userId: "bob", actorId: "ann")))
        #expect(try await fixture.queries.review(id: "rev-1", in: "org-1") == expected)
        #expect(try await fixture.queries.reviews(in: "org-1", employee: "bob", limit: nil, cursor: nil).items == [expected],
                "a former member's reviews stay")
        #expect(try fixture.queries.membership(of: "bob", in: "org-1") == nil)
    }

    @Test func reviewsAreNewestFirstPerEmployeeAndForTheOrganisation() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        try await organisation(fixture)
        for n in 0..<7 {
            try await fixture.append(H.review("org-1", "rev-\(n)", of: n % 2 == 0 ? "bob" : "cara", remark: n == 3 ? nil : "r\(n)", at: start + Double(n)))
        }
        try await fixture.append(H.review("org-2", "rev-x", of: "bob"))

        let bob = try await pages { limit, cursor throws(ListQueryError) in
            try await fixture.queries.reviews(in: "org-1", employee: "bob", limit: limit, cursor: cursor)
        }
        #expect(bob.map { $0.map(\.reviewId) } == [["rev-6", "rev-4"], ["rev-2", "rev-0"]], "the last page has no next")
        let all = try await pages { limit, cursor throws(ListQueryError) in
            try await fixture.queries.reviews(in: "org-1", employee: nil, limit: limit, cursor: cursor)
        }
        #expect(all.joined().map(\.reviewId) == (0..<7).reversed().map { "rev-\($0)" })
        #expect(all.joined().first { $0.reviewId == "rev-3" }?.remark == nil)
        #expect(try await fixture.queries.reviews(in: "org-1", employee: "dan", limit: nil, cursor: nil) == ItemPage(items: [], next: nil))
        #expect(try await fixture.queries.reviews(in: "org-2", employee: nil, limit: nil, cursor: nil).items.map(\.reviewId) == ["rev-x"])
    }

    /// A locator the log does not answer with a review (a read model out of step with its log, a
    /// fault of the service) is refused as undecodable, never read as some other event.
    @Test func aLocatorThatNamesNoReviewIsUndecodable() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        try await organisation(fixture)
        for (position, reason) in [(UInt64(1), "is not a review"), (10_000, "the log has none")] {
            let refusal = await #expect(throws: ReadModelError.self) {
                try await fixture.queries.review(at: ReviewLocator(position: position, employeeId: "bob"))
            }
            guard case .undecodable(let table, let key, let why)? = refusal else {
                Issue.record("position \(position): \(String(describing: refusal))")
                continue
            }
            #expect(table == "the log" && key == String(position) && why.contains(reason), "\(why)")
        }
    }

    /// A page larger than one read of the log (`positionsPerLogRead`) is read in chunks and
    /// comes back whole and in order, interleaved with another organisation's reviews.
    @Test func aPageOfMoreReviewsThanOneLogReadIsWholeAndNewestFirst() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        try await organisation(fixture)
        let count = ProjectionEngine<LMDBEventStore>.positionsPerLogRead * 2 + 7
        try await fixture.append((0..<count).flatMap { n in
            [H.review("org-1", "rev-\(n)", of: "bob", text: "t\(n)", at: start + Double(n)), H.review("org-2", "x-\(n)", of: "bob")]
        })
        let page = try await fixture.queries.reviews(in: "org-1", employee: nil, limit: count, cursor: nil)
        #expect(page.items.map(\.reviewId) == (0..<count).reversed().map { "rev-\($0)" })
        #expect(page.items.map { $0.answers[2].value } == (0..<count).reversed().map { .text("t\($0)") })
        #expect(page.next == nil)
    }

    @Test func newsIsNewestFirstPerLocationAndAllAndDeletedItemsLeaveBoth() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        try await organisation(fixture)
        for n in 0..<6 {
            try await fixture.append(H.news("org-1", "news-\(n)", location: n % 3 == 0 ? "loc-2" : "loc-1", title: "T\(n)",
                                            image: n == 1 ? "blob-1" : nil, at: start + Double(n)))
        }
        let first = try fixture.queries.news(in: "org-1", location: "loc-1", limit: 3, cursor: nil)
        #expect(first.items.map(\.newsId) == ["news-5", "news-4", "news-2"] && first.next != nil)
        let second = try fixture.queries.news(in: "org-1", location: "loc-1", limit: 3, cursor: first.next)
        #expect(second.items.map(\.newsId) == ["news-1"] && second.next == nil)
        #expect(second.items[0] == NewsItemView(
            newsId: "news-1", locationId: "loc-1", title: "T1", text: "Text", imageBlobId: "blob-1", postedAt: start + 1,
            author: .init(userId: "ann", name: "Ann"), position: second.items[0].position))
        #expect(try fixture.queries.news(in: "org-1", location: "loc-2", limit: nil, cursor: nil).items.map(\.newsId) == ["news-3", "news-0"])

        // The event names its location; the item is taken out of the lists it is in.
        try await fixture.append(
            .newsDeleted(.init(organisationId: "org-1", newsId: "news-4", locationId: "loc-1", actorId: "ann")),
            .newsDeleted(.init(organisationId: "org-1", newsId: "news-3", locationId: "loc-2", actorId: "ann")))
        #expect(try fixture.queries.news(in: "org-1", location: nil, limit: nil, cursor: nil).items.map(\.newsId)
                == ["news-5", "news-2", "news-1", "news-0"])
        #expect(try fixture.queries.news(in: "org-1", location: "loc-1", limit: nil, cursor: nil).items.map(\.newsId) == ["news-5", "news-2", "news-1"])
        #expect(try fixture.queries.news(in: "org-1", location: "loc-2", limit: nil, cursor: nil).items.map(\.newsId) == ["news-0"])
        #expect(try fixture.queries.news(in: "org-2", location: nil, limit: nil, cursor: nil).items.isEmpty)
        // Deleting again (the decider writes no such event) changes nothing.
        try await fixture.append(.newsDeleted(.init(organisationId: "org-1", newsId: "news-4", locationId: "loc-1", actorId: "ann")))
        #expect(try fixture.queries.news(in: "org-1", location: nil, limit: nil, cursor: nil).items.count == 4)
    }

    /// With the engine's keyring, an item opened for one reader is taken from `LogItemCache` by
    /// the next, in either list; a deletion still takes it off the page at once.
    @Test func openedNewsItemsAreKeptForTheNextReaderAndADeletedOneStillLeaves() async throws {
        let keys = try TemporaryKeyStore()
        defer { keys.remove() }
        let fixture = try await WorkplaceFixture(personalData: keys.keyring)
        defer { fixture.close() }
        try await organisation(fixture)
        for n in 0..<3 { try await fixture.append(H.news("org-1", "news-\(n)", title: "T\(n)", at: start + Double(n))) }
        let all = try fixture.queries.news(in: "org-1", location: nil, limit: nil, cursor: nil).items
        #expect(all.map(\.title) == ["T2", "T1", "T0"] && fixture.engine.logItemCache.count == 3)

        // What is kept is what the next reader gets: planted, it shows.
        let erasures = try #require(keys.keyring.knownErasures)
        var planted = all[1]
        planted.title = "kept"
        fixture.engine.logItemCache.keep([planted.position: planted], erasures: erasures)
        #expect(try fixture.queries.news(in: "org-1", location: "loc-1", limit: nil, cursor: nil).items.map(\.title) == ["T2", "kept", "T0"])

        try await fixture.append(.newsDeleted(.init(organisationId: "org-1", newsId: "news-1", locationId: "loc-1", actorId: "ann")))
        #expect(try fixture.queries.news(in: "org-1", location: nil, limit: nil, cursor: nil).items.map(\.newsId) == ["news-2", "news-0"])
    }

    /// Items posted between two page reads neither repeat nor skip one: the cursor is a key.
    @Test func aCursorSurvivesNewItems() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        try await organisation(fixture)
        for n in 0..<4 { try await fixture.append(H.news("org-1", "news-\(n)", at: start + Double(n))) }
        let first = try fixture.queries.news(in: "org-1", location: nil, limit: 2, cursor: nil)
        try await fixture.append(H.news("org-1", "news-new"))
        let second = try fixture.queries.news(in: "org-1", location: nil, limit: 2, cursor: first.next)
        #expect(first.items.map(\.newsId) + second.items.map(\.newsId) == ["news-3", "news-2", "news-1", "news-0"])
    }

    @Test func badLimitsAndCursorsAreRefused() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        try await organisation(fixture)
        for n in 0..<3 { try await fixture.append(H.review("org-1", "rev-\(n)", of: "bob"), H.news("org-1", "news-\(n)")) }
        let queries = fixture.queries
        for limit in [0, -1, 501, .max] {
            await #expect(throws: ListQueryError.limitOutOfRange(limit, allowed: 1...500)) {
                try await queries.reviews(in: "org-1", employee: nil, limit: limit, cursor: nil)
            }
            #expect(throws: ListQueryError.limitOutOfRange(limit, allowed: 1...500)) { try queries.news(in: "org-1", location: nil, limit: limit, cursor: nil) }
        }
        #expect(try queries.news(in: "org-1", location: nil, limit: 500, cursor: nil).items.count == 3)
        let reviewCursor = try #require(try await queries.reviews(in: "org-1", employee: "bob", limit: 1, cursor: nil).next)
        let orgReviewCursor = try #require(try await queries.reviews(in: "org-1", employee: nil, limit: 1, cursor: nil).next)
        for cursor in ["", "not a cursor!", "AAAA", String(repeating: "A", count: 10_000), reviewCursor] {
            #expect(throws: ListQueryError.malformedCursor, "\(cursor.prefix(20))") {
                try queries.news(in: "org-1", location: nil, limit: nil, cursor: cursor)
            }
        }
        // Another list's cursor, another employee's, another organisation's: refused, not followed.
        await #expect(throws: ListQueryError.malformedCursor) { try await queries.reviews(in: "org-1", employee: "cara", limit: nil, cursor: reviewCursor) }
        await #expect(throws: ListQueryError.malformedCursor) { try await queries.reviews(in: "org-2", employee: nil, limit: nil, cursor: orgReviewCursor) }
        #expect(try await queries.reviews(in: "org-1", employee: nil, limit: nil, cursor: orgReviewCursor).items.count == 2)
    }

    /// Every page of a list of `limit` 2, following `next` until there is none.
    private func pages<Item>(_ read: (Int?, String?) async throws(ListQueryError) -> ItemPage<Item>) async throws -> [[Item]] {
        var pages: [[Item]] = []
        var cursor: String?
        repeat {
            let page = try await read(2, cursor)
            pages.append(page.items)
            cursor = page.next
            try #require(pages.count < 100, "paging ends")
        } while cursor != nil
        return pages
    }
}
