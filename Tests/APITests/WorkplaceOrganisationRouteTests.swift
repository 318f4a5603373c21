import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import API

/// The workplace's organisation routes through HTTP: registering, the public directory, one
/// organisation as members and outsiders see it, and its locations; every refusal with its
/// status and code.
@Suite("Workplace organisation routes", .timeLimit(.minutes(3)))
struct WorkplaceOrganisationRouteTests {
    @Test func theCreatorIsAnAcceptedAdminAtTheFirstLocation() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org", displayName: "Ann")
            let registered = try await client.send(.post, "/v1/organisations", json: [
                "name": "  Acme  ", "locations": [["name": "Amsterdam"], ["name": "Rotterdam"]],
            ], token: ann.token)
            #expect(registered.status == .created, "\(registered.text)")
            #expect(registered.json["events"] as? [String] == ["workplace.organisationRegistered"])
            #expect((registered.json["position"] as? Int ?? 0) > 0)
            let organisationId = try #require(registered.json["organisationId"] as? String)
            let locations = try #require(registered.json["locations"] as? [[String: Any]])
            #expect(locations.map { $0["name"] as? String } == ["Amsterdam", "Rotterdam"])
            let amsterdam = try #require(locations.first?["locationId"] as? String)

            // Read-your-writes: the organisation, its directory entry and its members at once.
            let organisation = try await client.send(.get, "/v1/organisations/\(organisationId)", token: ann.token)
            #expect(organisation.status == .ok && organisation.json["name"] as? String == "Acme", "\(organisation.text)")
            #expect((organisation.json["locations"] as? [[String: Any]])?.count == 2)
            let me = try #require(organisation.json["me"] as? [String: Any])
            #expect(me["accepted"] as? Bool == true && me["admin"] as? Bool == true)
            #expect(me["locationId"] as? String == amsterdam && me["name"] as? String == "Ann" && me["pendingRequest"] == nil)
            let directory = try await client.send(.get, "/v1/organisations")
            #expect(directory.items.map { $0["organisationId"] as? String } == [organisationId])
            let members = try await client.send(.get, "/v1/organisations/\(organisationId)/members", token: ann.token)
            #expect(members.items.count == 1 && members.items.first?["admin"] as? Bool == true && members.items.first?["employeeNumber"] == nil)
        }
    }

    @Test func theDirectoryNeedsNoTokenAndSearchesAndPages() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            for name in ["Zeta Works", "acme bakery", "Acme"] {
                let made = try await client.send(.post, "/v1/organisations", json: ["name": name, "locations": [["name": "HQ"]]], token: ann)
                #expect(made.status == .created, "\(made.text)")
            }
            let all = try await client.send(.get, "/v1/organisations")
            #expect(all.status == .ok && all.json["next"] == nil, "\(all.text)")
            #expect(all.items.map { $0["name"] as? String } == ["Acme", "acme bakery", "Zeta Works"])
            let found = try await client.send(.get, "/v1/organisations?query=ACME")
            #expect(found.items.map { $0["name"] as? String } == ["Acme", "acme bakery"])
            #expect(try await client.send(.get, "/v1/organisations?query=nothing").items.isEmpty)

            let first = try await client.send(.get, "/v1/organisations?limit=2")
            #expect(first.items.count == 2)
            let next = try #require(first.json["next"] as? String)
            let second = try await client.send(.get, "/v1/organisations?limit=2&cursor=\(next)")
            #expect(second.items.map { $0["name"] as? String } == ["Zeta Works"] && second.json["next"] == nil)

            let badLimit = try await client.send(.get, "/v1/organisations?limit=0")
            #expect(badLimit.status == .badRequest && badLimit.code == "invalid_limit")
            let badCursor = try await client.send(.get, "/v1/organisations?cursor=bogus")
            #expect(badCursor.status == .badRequest && badCursor.code == "invalid_cursor")
        }
    }

    @Test func registeringRefusesTakenNamesAndBadInput() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            let bob = try await client.register("bob@example.org").token
            #expect(try await client.send(.post, "/v1/organisations", json: ["name": "Acme", "locations": [["name": "HQ"]]], token: ann).status == .created)

            let taken = try await client.send(.post, "/v1/organisations", json: ["name": " ACME ", "locations": [["name": "HQ"]]], token: bob)
            #expect(taken.status == .conflict && taken.code == "organisation_name_taken" && taken.isProblem, "\(taken.text)")
            let twice = try await client.send(.post, "/v1/organisations", json: [
                "name": "Other", "locations": [["name": "HQ"], ["name": "hq"]],
            ], token: bob)
            #expect(twice.status == .unprocessableContent && twice.fieldsInError == ["locations[1].name"], "\(twice.text)")
            let none = try await client.send(.post, "/v1/organisations", json: ["name": "Other", "locations": []], token: bob)
            #expect(none.status == .unprocessableContent && none.fieldsInError.contains("locations"), "\(none.text)")
            let huge = try await client.send(.post, "/v1/organisations", json: [
                "name": String(repeating: "x", count: 100_000), "locations": [["name": String(repeating: "y", count: 100_000)]],
            ], token: bob)
            #expect(huge.status == .unprocessableContent && huge.code == "validation_failed", "\(huge.text)")
            #expect(Set(huge.fieldsInError) == ["name", "locations[0].name"])

            let wrongType = try await client.send(.post, "/v1/organisations", json: ["name": 5, "locations": [["name": "HQ"]]], token: bob)
            #expect(wrongType.status == .badRequest && wrongType.code == "malformed_request", "\(wrongType.text)")
            let missing = try await client.send(.post, "/v1/organisations", json: ["name": "Other"], token: bob)
            #expect(missing.status == .badRequest && missing.code == "malformed_request")
            let anonymous = try await client.send(.post, "/v1/organisations", json: ["name": "Other", "locations": [["name": "HQ"]]])
            #expect(anonymous.status == .unauthorized && anonymous.code == "unauthorized")
            #expect(try await client.send(.get, "/v1/organisations").items.count == 1, "nothing refused was registered")
        }
    }

    /// Users who are not accepted members see the organisation's name and locations (to pick
    /// one to ask to join at) and their own request, and nothing else of it.
    @Test func outsidersAndPendingUsersSeeOnlyTheFaceAndTheirOwnRequest() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let acme = try await WorkplaceRouteFixture.make(client)
            let eve = try await client.send(.get, acme.path(), token: acme.eve.token)
            #expect(eve.status == .ok && (eve.json["locations"] as? [[String: Any]])?.count == 2, "\(eve.text)")
            let eveMe = try #require(eve.json["me"] as? [String: Any])
            #expect(eveMe["accepted"] as? Bool == false && eveMe["admin"] as? Bool == false && eveMe["pendingRequest"] == nil)
            #expect(eveMe["locationId"] == nil && eveMe["employeeNumber"] == nil)
            let dan = try await client.send(.get, acme.path(), token: acme.dan.token)
            let danMe = try #require(dan.json["me"] as? [String: Any])
            let pending = try #require(danMe["pendingRequest"] as? [String: Any], "\(dan.text)")
            #expect(danMe["accepted"] as? Bool == false && pending["locationId"] as? String == acme.amsterdam)
            #expect(pending["employeeNumber"] as? String == "E-4" && pending["name"] as? String == "Dan" && pending["requestedAt"] is String)

            let insides = ["/members", "/join-requests", "/forms", "/reviews", "/news", "/reviews/\(UUID())", "/forms/\(UUID())"]
            for user in [acme.eve, acme.dan] {
                for inside in insides {
                    let reply = try await client.send(.get, acme.path(inside), token: user.token)
                    #expect(reply.status == .forbidden && reply.code == "not_a_member" && reply.isProblem, "\(inside): \(reply.text)")
                }
            }
            let unknown = "/v1/organisations/\(UUID().uuidString.lowercased())"
            for inside in [""] + insides {
                let reply = try await client.send(.get, unknown + inside, token: acme.ann.token)
                #expect(reply.status == .notFound && reply.code == "organisation_not_found", "\(inside): \(reply.text)")
            }
            #expect(try await client.send(.get, acme.path()).status == .unauthorized)
        }
    }

    @Test func adminsAddRenameAndRemoveLocations() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let acme = try await WorkplaceRouteFixture.make(client)
            let ann = acme.ann.token
            let added = try await client.send(.post, acme.path("/locations"), json: ["name": "Utrecht"], token: ann)
            #expect(added.status == .created && added.json["events"] as? [String] == ["workplace.locationAdded"], "\(added.text)")
            let utrecht = try #require(added.json["locationId"] as? String)
            func names() async throws -> [String] {
                let organisation = try await client.send(.get, acme.path(), token: ann)
                return (organisation.json["locations"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            }
            #expect(try await names() == ["Amsterdam", "Rotterdam", "Utrecht"])
            let renamed = try await client.send(.patch, acme.path("/locations/\(utrecht)"), json: ["name": "Utrecht CS"], token: ann)
            #expect(renamed.status == .ok && renamed.json["events"] as? [String] == ["workplace.locationRenamed"], "\(renamed.text)")
            #expect(try await names() == ["Amsterdam", "Rotterdam", "Utrecht CS"])

            let taken = try await client.send(.patch, acme.path("/locations/\(utrecht)"), json: ["name": "ROTTERDAM"], token: ann)
            #expect(taken.status == .conflict && taken.code == "location_name_taken")
            let takenNew = try await client.send(.post, acme.path("/locations"), json: ["name": "amsterdam"], token: ann)
            #expect(takenNew.status == .conflict && takenNew.code == "location_name_taken")
            let inUse = try await client.send(.delete, acme.path("/locations/\(acme.rotterdam)"), token: ann)
            #expect(inUse.status == .conflict && inUse.code == "location_in_use", "Cat works there")
            let pendingThere = try await client.send(.delete, acme.path("/locations/\(acme.amsterdam)"), token: ann)
            #expect(pendingThere.status == .conflict && pendingThere.code == "location_in_use")
            #expect(try await client.send(.delete, acme.path("/locations/\(utrecht)"), token: ann).status == .noContent)
            #expect(try await names() == ["Amsterdam", "Rotterdam"])
            let gone = try await client.send(.delete, acme.path("/locations/\(utrecht)"), token: ann)
            #expect(gone.status == .notFound && gone.code == "location_not_found")
            let unknown = try await client.send(.patch, acme.path("/locations/\(UUID())"), json: ["name": "X"], token: ann)
            #expect(unknown.status == .notFound && unknown.code == "location_not_found")
            let huge = try await client.send(.post, acme.path("/locations"), json: ["name": String(repeating: "x", count: 100_000)], token: ann)
            #expect(huge.status == .unprocessableContent && huge.fieldsInError == ["name"])
            let wrongType = try await client.send(.post, acme.path("/locations"), json: ["name": ["x"]], token: ann)
            #expect(wrongType.status == .badRequest && wrongType.code == "malformed_request")

            let employee = try await client.send(.post, acme.path("/locations"), json: ["name": "Delft"], token: acme.bob.token)
            #expect(employee.status == .forbidden && employee.code == "not_an_admin")
            for outsider in [acme.eve.token, acme.dan.token] {
                let refused = try await client.send(.patch, acme.path("/locations/\(acme.amsterdam)"), json: ["name": "X"], token: outsider)
                #expect(refused.status == .forbidden && refused.code == "not_a_member")
            }
            let noOrganisation = try await client.send(.post, "/v1/organisations/\(UUID())/locations", json: ["name": "X"], token: ann)
            #expect(noOrganisation.status == .notFound && noOrganisation.code == "organisation_not_found")

            let solo = try await client.send(.post, "/v1/organisations", json: ["name": "Solo", "locations": [["name": "Home"]]], token: ann)
            let soloId = try #require(solo.json["organisationId"] as? String)
            let home = try #require((solo.json["locations"] as? [[String: Any]])?.first?["locationId"] as? String)
            let last = try await client.send(.delete, "/v1/organisations/\(soloId)/locations/\(home)", token: ann)
            #expect(last.status == .conflict && last.code == "last_location", "\(last.text)")
        }
    }

    @Test func aRetryWithTheSameIdempotencyKeyAnswersTheFirstOutcome() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            let key = UUID().uuidString
            let body: [String: Any] = ["name": "Acme", "locations": [["name": "HQ"]]]
            let first = try await client.send(.post, "/v1/organisations", json: body, token: ann, key: key)
            let retry = try await client.send(.post, "/v1/organisations", json: body, token: ann, key: key)
            #expect(first.status == .created && retry.status == .created, "\(retry.text)")
            #expect(retry.json["organisationId"] as? String == first.json["organisationId"] as? String)
            #expect(retry.json["position"] as? Int == first.json["position"] as? Int)
            #expect((retry.json["locations"] as? [[String: Any]])?.first?["locationId"] as? String
                == (first.json["locations"] as? [[String: Any]])?.first?["locationId"] as? String)
            #expect(try await client.send(.get, "/v1/organisations").items.count == 1)
            let organisationId = try #require(first.json["organisationId"] as? String)

            let locationKey = UUID().uuidString
            let added = try await client.send(.post, "/v1/organisations/\(organisationId)/locations", json: ["name": "Annex"], token: ann, key: locationKey)
            let again = try await client.send(.post, "/v1/organisations/\(organisationId)/locations", json: ["name": "Annex"], token: ann, key: locationKey)
            #expect(added.status == .created && again.status == .created && again.json["locationId"] as? String == added.json["locationId"] as? String)
            let reused = try await client.send(.post, "/v1/organisations/\(organisationId)/locations", json: ["name": "Other"], token: ann, key: locationKey)
            #expect(reused.status == .unprocessableContent && reused.code == "idempotency_key_reused")
        }
    }
}
