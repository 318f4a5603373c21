import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import API

/// One organisation as the workplace route tests need it, made through HTTP: Acme with the
/// locations Amsterdam and Rotterdam; Ann registered it (admin at Amsterdam), Bob is an
/// employee at Amsterdam, Cat one at Rotterdam, Dan asked to join at Amsterdam and waits, and
/// Eve has nothing to do with Acme.
struct WorkplaceRouteFixture {
    struct User {
        var userId: String
        var token: String
    }

    var ann: User, bob: User, cat: User, dan: User, eve: User
    var organisationId: String
    var amsterdam: String, rotterdam: String

    /// `/v1/organisations/<organisationId>` followed by `path`.
    func path(_ path: String = "") -> String { "/v1/organisations/\(organisationId)\(path)" }

    static func make(_ client: any TestClientProtocol) async throws -> WorkplaceRouteFixture {
        func user(_ name: String) async throws -> User {
            let (userId, token) = try await client.register("\(name.lowercased())@example.org", displayName: name)
            return User(userId: userId, token: token)
        }
        let ann = try await user("Ann"), bob = try await user("Bob"), cat = try await user("Cat")
        let dan = try await user("Dan"), eve = try await user("Eve")
        let registered = try await client.send(.post, "/v1/organisations", json: [
            "name": "Acme", "locations": [["name": "Amsterdam"], ["name": "Rotterdam"]],
        ], token: ann.token)
        try #require(registered.status == .created, "\(registered.text)")
        let organisationId = try #require(registered.json["organisationId"] as? String)
        let locations = try #require(registered.json["locations"] as? [[String: Any]])
        let amsterdam = try #require(locations.first?["locationId"] as? String)
        let rotterdam = try #require(locations.last?["locationId"] as? String)
        let fixture = WorkplaceRouteFixture(
            ann: ann, bob: bob, cat: cat, dan: dan, eve: eve, organisationId: organisationId, amsterdam: amsterdam, rotterdam: rotterdam)
        for (member, location, number) in [(bob, amsterdam, "E-2"), (cat, rotterdam, "E-3"), (dan, amsterdam, "E-4")] {
            let name = member.userId == bob.userId ? "Bob" : member.userId == cat.userId ? "Cat" : "Dan"
            let asked = try await client.send(.post, fixture.path("/join-requests"), json: [
                "locationId": location, "employeeNumber": number, "name": name,
            ], token: member.token)
            try #require(asked.status == .created, "\(asked.text)")
        }
        for member in [bob, cat] {
            let accepted = try await client.send(.post, fixture.path("/join-requests/\(member.userId)/accept"), token: ann.token)
            try #require(accepted.status == .ok, "\(accepted.text)")
        }
        return fixture
    }

    /// A form with one question of each kind: its id and its question ids in order.
    func createForm(_ client: any TestClientProtocol, name: String = "Yearly") async throws -> (formId: String, questionIds: [String]) {
        let created = try await client.send(.post, path("/forms"), json: [
            "name": name, "questions": [
                ["text": "How well do they work?", "kind": "rating"],
                ["text": "Would you work with them again?", "kind": "yesNo"],
                ["text": "What went well?", "kind": "text"],
            ],
        ], token: ann.token)
        try #require(created.status == .created, "\(created.text)")
        let questions = try #require(created.json["questions"] as? [[String: Any]])
        return (try #require(created.json["formId"] as? String), questions.compactMap { $0["questionId"] as? String })
    }

    /// Answers to the form of `createForm`: a rating, a yes and a text.
    static func answers(_ questionIds: [String], rating: Any = 4, yes: Any = true, text: Any = "Good work") -> [[String: Any]] {
        [["questionId": questionIds[0], "rating": rating], ["questionId": questionIds[1], "yes": yes],
         ["questionId": questionIds[2], "text": text]]
    }
}

extension Reply {
    /// The `items` of a list reply.
    var items: [[String: Any]] { json["items"] as? [[String: Any]] ?? [] }
}

extension WorkplaceRouteFixture {
    /// A small organisation of `admin`'s with one of everything to show: `employee` a member,
    /// a form, a review of the employee and a news item. Its id, the form's and the review's.
    static func organisationWithAReview(
        _ client: any TestClientProtocol, admin: String, employee: String
    ) async throws -> (organisation: String, form: String, review: String) {
        let registered = try await client.send(.post, "/v1/organisations", json: ["name": "Acme", "locations": [["name": "HQ"]]], token: admin)
        let organisationId = try #require(registered.json["organisationId"] as? String, "\(registered.text)")
        let locationId = try #require((registered.json["locations"] as? [[String: Any]])?.first?["locationId"] as? String)
        let organisation = "/v1/organisations/\(organisationId)"
        let employeeId = try #require(try await client.me(employee).json["userId"] as? String)
        let asked = try await client.send(.post, "\(organisation)/join-requests", json: [
            "locationId": locationId, "employeeNumber": "E-1", "name": "Bob",
        ], token: employee)
        try #require(asked.status == .created, "\(asked.text)")
        try #require(try await client.send(.post, "\(organisation)/join-requests/\(employeeId)/accept", token: admin).status == .ok)
        let form = try await client.send(.post, "\(organisation)/forms", json: [
            "name": "Yearly", "questions": [["text": "How well?", "kind": "rating"]],
        ], token: admin)
        let formId = try #require(form.json["formId"] as? String, "\(form.text)")
        let questionId = try #require((form.json["questions"] as? [[String: Any]])?.first?["questionId"] as? String)
        let review = try await client.send(.post, "\(organisation)/reviews", json: [
            "employeeId": employeeId, "formId": formId, "answers": [["questionId": questionId, "rating": 5]],
        ], token: admin)
        let reviewId = try #require(review.json["reviewId"] as? String, "\(review.text)")
        let news = try await client.send(.post, "\(organisation)/news", json: ["locationId": locationId, "title": "Hello", "text": "World"], token: admin)
        try #require(news.status == .created, "\(news.text)")
        return (organisationId, formId, reviewId)
    }
}
