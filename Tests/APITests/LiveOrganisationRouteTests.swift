import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// `organisation:ID` over SSE in process: each event reaches only the watchers who may read what
/// it is about (SPEC §1 "Live updates", issue 48 item 6), which `LiveAudienceTests` checks type
/// by type. A stream delivers in log order, so once a watcher has a later event they may read,
/// an earlier one they were not sent will not come: every "not received" below is asserted
/// after such a later event arrived.
@Suite("Live updates: an organisation's events to those who may read them", .timeLimit(.minutes(3)))
struct LiveOrganisationRouteTests {
    @Test func anEmployeeIsNotToldThatAColleagueWasReviewed() async throws {
        try await LiveTestServer.with { client, _ in
            // Ann is Acme's admin at Amsterdam, Bob an employee there, Cat one at Rotterdam.
            let acme = try await WorkplaceRouteFixture.make(client)
            let form = try await acme.createForm(client)
            let address = try LiveTestServer.address(client)
            let topic = "organisation:\(acme.organisationId)"
            let ann = try LiveStreamClient(address: address, query: "topics=\(topic)", token: acme.ann.token)
            let bob = try LiveStreamClient(address: address, query: "topics=\(topic)", token: acme.bob.token)
            let cat = try LiveStreamClient(address: address, query: "topics=\(topic)", token: acme.cat.token)
            for stream in [ann, bob, cat] { try await stream.waitUntilOpen() }

            let review = try await Self.position(of: client.send(.post, acme.path("/reviews"), json: [
                "employeeId": acme.cat.userId, "formId": form.formId, "answers": WorkplaceRouteFixture.answers(form.questionIds),
            ], token: acme.ann.token))
            let amsterdamNews = try await Self.postNews(client, acme, at: acme.amsterdam)
            let rotterdamNews = try await Self.postNews(client, acme, at: acme.rotterdam)

            // Bob has his location's news, after the review: he was not sent the review of Cat.
            let bobGot = try await bob.wait { $0.events.contains { $0.position == amsterdamNews } }
            #expect(!bobGot.events.contains { $0.type == "workplace.reviewSubmitted" }, "\(bobGot.events)")
            #expect(bobGot.events.map(\.position) == [amsterdamNews])
            // Cat has her review and her location's news, not Amsterdam's.
            let catGot = try await cat.wait { $0.events.contains { $0.position == rotterdamNews } }
            #expect(catGot.events.map(\.position) == [review, rotterdamNews], "\(catGot.events)")
            #expect(catGot.events.first == .init(id: review, type: "workplace.reviewSubmitted", topic: topic, position: review))
            // The admin has everything.
            let annGot = try await ann.wait { $0.events.contains { $0.position == rotterdamNews } }
            #expect(annGot.events.map(\.position) == [review, amsterdamNews, rotterdamNews], "\(annGot.events)")
        }
    }

    @Test func anEmployeeMadeAnAdminIsToldOfReviewsFromThenOn() async throws {
        try await LiveTestServer.with { client, _ in
            let acme = try await WorkplaceRouteFixture.make(client)
            let form = try await acme.createForm(client)
            let bob = try LiveStreamClient(
                address: try LiveTestServer.address(client), query: "topics=organisation:\(acme.organisationId)", token: acme.bob.token)
            try await bob.waitUntilOpen()
            func reviewOfCat() async throws -> UInt64 {
                try await Self.position(of: client.send(.post, acme.path("/reviews"), json: [
                    "employeeId": acme.cat.userId, "formId": form.formId, "answers": WorkplaceRouteFixture.answers(form.questionIds),
                ], token: acme.ann.token))
            }

            let before = try await reviewOfCat()
            // Bob's own membership changes: his stream checks his standing again at that event.
            let promoted = try await Self.position(of: client.send(
                .patch, acme.path("/members/\(acme.bob.userId)"), json: ["admin": true], token: acme.ann.token))
            let after = try await reviewOfCat()

            let got = try await bob.wait { $0.events.contains { $0.position == after } }
            #expect(got.events.map(\.position) == [promoted, after], "not the review made while he was an employee: \(got.events)")
            #expect(got.events.first?.type == "workplace.memberChanged")
            #expect(before < promoted)
        }
    }

    /// The log position a command's answer names; fails unless it succeeded.
    static func position(of reply: Reply) throws -> UInt64 {
        try #require(reply.status.code < 300, "\(reply.text)")
        return try #require((reply.json["position"] as? NSNumber)?.uint64Value, "\(reply.text)")
    }

    /// Ann posts news to `location`; its position.
    static func postNews(_ client: any TestClientProtocol, _ acme: WorkplaceRouteFixture, at location: String) async throws -> UInt64 {
        try await position(of: client.send(.post, acme.path("/news"), json: [
            "locationId": location, "title": "Hello", "text": "Welcome",
        ], token: acme.ann.token))
    }
}
