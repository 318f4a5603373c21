import EventSourcing
import Foundation
import Projections
import Testing
@testable import API
import Workplace

/// The demo data's organisation, as `logbook serve --demo` seeds it (issue 12 item 5): two
/// locations, Ann its admin, Bob an accepted employee, a form with one question of each kind, a
/// review of Bob and news at Bob's location, all made by the real commands.
@Suite("Workplace demo", .timeLimit(.minutes(3)))
struct DemoWorkplaceTests {
    @Test func theDemoOrganisationHasAnAdminAnEmployeeAFormAReviewAndNews() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let summary = try #require(try await prepareFirstStart(runtime: server.runtime, demo: true)?.demo)
        let work = summary.workplace
        let ann = summary.accounts[0].userId, bob = summary.accounts[1].userId
        #expect(work.organisationName == "Comcom Demo")

        // The log: exactly the commands a user would have sent, in order, decided by the rules.
        let recorded = try server.runtime.log.lmdb.readTag(WorkplaceEvent.organisationTag(work.organisationId), limit: 100)
        let events = try recorded.map {
            try #require(try WorkplaceEvent.decode(typeName: $0.type, schemaVersion: $0.schemaVersion, data: $0.data, opening: server.runtime.personalData))
        }
        #expect(events.map(\.typeName) == [
            "workplace.organisationRegistered", "workplace.joinRequested", "workplace.joinRequestAccepted", "workplace.formCreated",
            "workplace.reviewSubmitted", "workplace.newsPosted",
        ])
        #expect(recorded.map(\.actor) == [ann, bob, ann, ann, ann, ann])
        let state = try #require(WorkplaceDecider.fold(events).organisations[work.organisationId])
        #expect(Set(state.locations.values.map(\.name)) == ["Amsterdam", "Utrecht"])
        #expect(state.members[ann]?.isAdmin == true && state.members[ann]?.locationId == work.headOfficeId)
        #expect(state.members[bob]?.isAdmin == false && state.members[bob]?.locationId == work.branchId)
        #expect(state.requests.isEmpty)
        #expect(state.liveForm(work.formId)?.questions.map(\.kind) == [.rating, .yesNo, .text])
        #expect(state.liveNews(work.newsId)?.locationId == work.branchId)
        guard case .reviewSubmitted(let review) = events[4] else { Issue.record("no review: \(events[4])"); return }
        #expect(review.reviewId == work.reviewId && review.employeeId == bob && review.reviewerId == ann && review.formId == work.formId)
        #expect(review.answers.map(\.kind) == [.rating, .yesNo, .text])
        #expect(review.answers[0].rating == 4 && review.answers[1].yes == true && review.answers[2].text?.isEmpty == false)

        // The read models include all of it (the seed waited for them).
        let queries = server.runtime.workplace
        #expect(try queries.organisation(id: work.organisationId)?.locations.map(\.locationId) == [work.headOfficeId, work.branchId])
        guard case .member(let member)? = try queries.membership(of: bob, in: work.organisationId) else {
            Issue.record("Bob is not a member in the read model")
            return
        }
        #expect(member.locationId == work.branchId && !member.admin)
        #expect(try await queries.reviews(in: work.organisationId, employee: bob, limit: nil, cursor: nil).items.map(\.reviewId) == [work.reviewId])
        #expect(try queries.news(in: work.organisationId, location: work.branchId, limit: nil, cursor: nil).items.map(\.newsId) == [work.newsId])
        #expect(try queries.news(in: work.organisationId, location: work.headOfficeId, limit: nil, cursor: nil).items.isEmpty)

        // And over HTTP, as the README walks through it: Bob sees his review and his location's
        // news; Ann is the admin.
        try await server.test { client in
            let bobToken = try #require(try await client.login("bob@example.org", DemoSeed.password).json["token"] as? String)
            let annToken = try #require(try await client.login("ann@example.org", DemoSeed.password).json["token"] as? String)
            let organisation = "/v1/organisations/\(work.organisationId)"
            let reviews = try await client.send(.get, "\(organisation)/reviews", token: bobToken)
            #expect(reviews.status == .ok && ids(reviews.json, "reviewId") == [work.reviewId], "\(reviews.text)")
            let news = try await client.send(.get, "\(organisation)/news", token: bobToken)
            #expect(news.status == .ok && ids(news.json, "newsId") == [work.newsId], "\(news.text)")
            let seenByAnn = try await client.send(.get, organisation, token: annToken)
            #expect((seenByAnn.json["me"] as? [String: Any])?["admin"] as? Bool == true, "\(seenByAnn.text)")
        }

        // Like every part of the demo, it is seeded once: a second start on the log adds nothing.
        let head = try server.runtime.log.lmdb.headPosition()
        #expect(try await prepareFirstStart(runtime: server.runtime, demo: true) == nil)
        #expect(try server.runtime.log.lmdb.headPosition() == head)
    }
}

/// The `key` of every item of a list response.
private func ids(_ json: [String: Any], _ key: String) -> [String] {
    (json["items"] as? [[String: Any]] ?? []).compactMap { $0[key] as? String }
}
