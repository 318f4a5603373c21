import Foundation
@testable import Workplace
@testable import Projections

/// The workplace's part of the all-apps log: two organisations with members, requests (one
/// still pending, one rejected), location edits, forms edited and deleted, reviews and news
/// (one deleted), a member changed and one removed, in several appends between the other
/// apps' commands.
extension RebuildEqualsLiveTests {
    private typealias H = WorkplaceHistory

    func workplace(_ fixture: AllAppsFixture) async throws {
        let start = AllAppsFixture.start
        try await append(fixture, [H.register("acme", "Acme", locations: [("hq", "Head office"), ("depot", "Depot")], at: start)], by: "ann")
        try await append(fixture, [H.register("bakery", "Bakery Bros", creator: "dan", creatorName: "Dan", at: start + 10)], by: "dan")
        try await append(fixture, H.join("acme", "bob", name: "Bob", number: "E-2", location: "depot"), by: "ann")
        try await append(fixture, [H.request("acme", "cara", name: "Cara", number: "E-3", at: start + 60)], by: "cara")
        try await append(fixture, [H.request("bakery", "bob", name: "Bob", number: "B-1", at: start + 70)], by: "bob")
        try await append(fixture, [
            .locationAdded(.init(organisationId: "acme", location: .init(locationId: "shop", name: "Shop"), actorId: "ann")),
            .locationRenamed(.init(organisationId: "acme", location: .init(locationId: "hq", name: "HQ"), actorId: "ann")),
        ], by: "ann")
        try await append(fixture, [
            H.form("acme", "form-1", name: "Yearly", questions: [("q1", "How punctual?", .rating), ("q2", "Team player?", .yesNo), ("q3", "What went well?", .text)]),
            H.form("acme", "form-2", name: "Probation", questions: [("q4", "Stay?", .yesNo)]),
        ], by: "ann")
        for n in 0..<4 {
            try await append(fixture, [H.review("acme", "rev-\(n)", of: n % 2 == 0 ? "bob" : "ann", remark: n == 1 ? nil : "Remark \(n)", at: start + Double(n) * 3_600)], by: "ann")
            try await append(fixture, [H.news("acme", "news-\(n)", location: n % 2 == 0 ? "hq" : "depot", title: "News \(n)",
                                             image: n == 2 ? "blob-2" : nil, at: start + Double(n) * 3_600)], by: "ann")
        }
    }

    func workplaceLater(_ fixture: AllAppsFixture) async throws {
        try await append(fixture, [
            .questionAdded(.init(organisationId: "acme", formId: "form-1", question: .init(questionId: "q5", text: "Anything else?", kind: .text), actorId: "ann")),
            .questionRemoved(.init(organisationId: "acme", formId: "form-1", questionId: "q2", actorId: "ann")),
            .questionsReordered(.init(organisationId: "acme", formId: "form-1", questionIds: ["q5", "q3", "q1"], actorId: "ann")),
            .formRenamed(.init(organisationId: "acme", formId: "form-1", name: "Annual", actorId: "ann")),
            .formDeleted(.init(organisationId: "acme", formId: "form-2", actorId: "ann")),
        ], by: "ann")
        try await append(fixture, [.joinRequestRejected(.init(organisationId: "bakery", userId: "bob", actorId: "dan"))], by: "dan")
        try await append(fixture, H.join("bakery", "cara", name: "Cara", number: "B-2"), by: "dan")
        try await append(fixture, [.memberChanged(.init(organisationId: "acme", userId: "bob", locationId: "hq", admin: true, actorId: "ann"))], by: "ann")
        try await append(fixture, [.newsDeleted(.init(organisationId: "acme", newsId: "news-1", locationId: "depot", actorId: "ann"))], by: "ann")
        try await append(fixture, [.memberRemoved(.init(organisationId: "bakery", userId: "cara", actorId: "cara"))], by: "cara")
        try await append(fixture, [.locationRemoved(.init(organisationId: "acme", locationId: "shop", actorId: "ann"))], by: "ann")
    }

    private func append(_ fixture: AllAppsFixture, _ events: [WorkplaceEvent], by actor: String) async throws {
        try await fixture.append(events, by: actor)
    }
}
