import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import API

/// The workplace's membership routes through HTTP: asking to join, the admins' answers, the
/// member list and its changes; every refusal with its status and code.
@Suite("Workplace membership routes", .timeLimit(.minutes(3)))
struct WorkplaceMembershipRouteTests {
    @Test func adminsListAcceptWithCorrectionsAndRejectJoinRequests() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let acme = try await WorkplaceRouteFixture.make(client)
            let ann = acme.ann.token
            let pending = try await client.send(.get, acme.path("/join-requests"), token: ann)
            #expect(pending.status == .ok, "\(pending.text)")
            let dan = try #require(pending.items.first)
            #expect(pending.items.count == 1 && dan["userId"] as? String == acme.dan.userId && dan["name"] as? String == "Dan")
            #expect(dan["employeeNumber"] as? String == "E-4" && dan["locationId"] as? String == acme.amsterdam && dan["requestedAt"] is String)

            let accepted = try await client.send(.post, acme.path("/join-requests/\(acme.dan.userId)/accept"), json: [
                "name": "Daniel", "employeeNumber": "E-40", "locationId": acme.rotterdam,
            ], token: ann)
            #expect(accepted.status == .ok && accepted.json["events"] as? [String] == ["workplace.joinRequestAccepted"], "\(accepted.text)")
            #expect(try await client.send(.get, acme.path("/join-requests"), token: ann).items.isEmpty)
            let members = try await client.send(.get, acme.path("/members"), token: ann)
            #expect(members.items.map { $0["name"] as? String } == ["Ann", "Bob", "Cat", "Daniel"])
            let daniel = try #require(members.items.last)
            #expect(daniel["employeeNumber"] as? String == "E-40" && daniel["locationId"] as? String == acme.rotterdam && daniel["admin"] as? Bool == false)
            let danMe = try #require(try await client.send(.get, acme.path(), token: acme.dan.token).json["me"] as? [String: Any])
            #expect(danMe["accepted"] as? Bool == true && danMe["pendingRequest"] == nil && danMe["locationId"] as? String == acme.rotterdam)

            // Eve asks, is rejected, and may ask again.
            let join: [String: Any] = ["locationId": acme.amsterdam, "employeeNumber": "E-5", "name": "Eve"]
            let asked = try await client.send(.post, acme.path("/join-requests"), json: join, token: acme.eve.token)
            #expect(asked.status == .created && asked.json["events"] as? [String] == ["workplace.joinRequested"], "\(asked.text)")
            let again = try await client.send(.post, acme.path("/join-requests"), json: join, token: acme.eve.token)
            #expect(again.status == .conflict && again.code == "request_pending")
            #expect(try await client.send(.post, acme.path("/join-requests/\(acme.eve.userId)/reject"), token: ann).status == .noContent)
            let eveMe = try #require(try await client.send(.get, acme.path(), token: acme.eve.token).json["me"] as? [String: Any])
            #expect(eveMe["pendingRequest"] == nil && eveMe["accepted"] as? Bool == false)
            #expect(try await client.send(.post, acme.path("/join-requests"), json: join, token: acme.eve.token).status == .created)
        }
    }

    @Test func joinRequestsAndTheirAnswersAreRefusedWithStableCodes() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let acme = try await WorkplaceRouteFixture.make(client)
            let join: [String: Any] = ["locationId": acme.amsterdam, "employeeNumber": "E-9", "name": "Bob"]
            let member = try await client.send(.post, acme.path("/join-requests"), json: join, token: acme.bob.token)
            #expect(member.status == .conflict && member.code == "already_a_member")
            var elsewhere = join
            elsewhere["locationId"] = UUID().uuidString.lowercased()
            let noLocation = try await client.send(.post, acme.path("/join-requests"), json: elsewhere, token: acme.eve.token)
            #expect(noLocation.status == .notFound && noLocation.code == "location_not_found")
            let noOrganisation = try await client.send(.post, "/v1/organisations/\(UUID())/join-requests", json: join, token: acme.eve.token)
            #expect(noOrganisation.status == .notFound && noOrganisation.code == "organisation_not_found")
            var huge = join
            huge["employeeNumber"] = String(repeating: "9", count: 100_000)
            huge["name"] = " "
            let tooLong = try await client.send(.post, acme.path("/join-requests"), json: huge, token: acme.eve.token)
            #expect(tooLong.status == .unprocessableContent && Set(tooLong.fieldsInError) == ["employeeNumber", "name"], "\(tooLong.text)")
            var wrongType = join
            wrongType["employeeNumber"] = 9
            let malformed = try await client.send(.post, acme.path("/join-requests"), json: wrongType, token: acme.eve.token)
            #expect(malformed.status == .badRequest && malformed.code == "malformed_request")

            let noRequest = try await client.send(.post, acme.path("/join-requests/\(acme.eve.userId)/accept"), token: acme.ann.token)
            #expect(noRequest.status == .notFound && noRequest.code == "join_request_not_found")
            let noRequestReject = try await client.send(.post, acme.path("/join-requests/\(acme.eve.userId)/reject"), token: acme.ann.token)
            #expect(noRequestReject.status == .notFound && noRequestReject.code == "join_request_not_found")
            let badCorrection = try await client.send(.post, acme.path("/join-requests/\(acme.dan.userId)/accept"),
                                                      json: ["locationId": UUID().uuidString.lowercased()], token: acme.ann.token)
            #expect(badCorrection.status == .notFound && badCorrection.code == "location_not_found")
            let blankCorrection = try await client.send(.post, acme.path("/join-requests/\(acme.dan.userId)/accept"),
                                                        json: ["name": String(repeating: "x", count: 100_000)], token: acme.ann.token)
            #expect(blankCorrection.status == .unprocessableContent && blankCorrection.fieldsInError == ["name"])
            for (user, code) in [(acme.bob, "not_an_admin"), (acme.eve, "not_a_member"), (acme.dan, "not_a_member")] {
                let list = try await client.send(.get, acme.path("/join-requests"), token: user.token)
                #expect(list.status == .forbidden && list.code == code, "\(list.text)")
                let accept = try await client.send(.post, acme.path("/join-requests/\(acme.dan.userId)/accept"), token: user.token)
                #expect(accept.status == .forbidden && accept.code == code)
                let reject = try await client.send(.post, acme.path("/join-requests/\(acme.dan.userId)/reject"), token: user.token)
                #expect(reject.status == .forbidden && reject.code == code)
            }
            #expect(try await client.send(.get, acme.path("/join-requests"), token: acme.ann.token).items.count == 1, "Dan still waits")
        }
    }

    @Test func adminsChangeAndRemoveMembersButNeverTheLastAdmin() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let acme = try await WorkplaceRouteFixture.make(client)
            let ann = acme.ann.token
            func member(_ userId: String, as token: String) async throws -> [String: Any]? {
                try await client.send(.get, acme.path("/members"), token: token).items.first { $0["userId"] as? String == userId }
            }
            let lastAdmin = try await client.send(.patch, acme.path("/members/\(acme.ann.userId)"), json: ["admin": false], token: ann)
            #expect(lastAdmin.status == .conflict && lastAdmin.code == "last_admin" && lastAdmin.isProblem)
            let leaving = try await client.send(.delete, acme.path("/members/\(acme.ann.userId)"), token: ann)
            #expect(leaving.status == .conflict && leaving.code == "last_admin")

            let moved = try await client.send(.patch, acme.path("/members/\(acme.bob.userId)"), json: ["locationId": acme.rotterdam, "admin": true], token: ann)
            #expect(moved.status == .ok && moved.json["events"] as? [String] == ["workplace.memberChanged"], "\(moved.text)")
            let bob = try #require(try await member(acme.bob.userId, as: ann))
            #expect(bob["admin"] as? Bool == true && bob["locationId"] as? String == acme.rotterdam)
            // Now Bob is an admin too, Ann may step down, and Bob is then the last one.
            #expect(try await client.send(.patch, acme.path("/members/\(acme.ann.userId)"), json: ["admin": false], token: acme.bob.token).status == .ok)
            #expect(try await member(acme.ann.userId, as: acme.bob.token)?["admin"] as? Bool == false)
            #expect(try await client.send(.get, acme.path("/members"), token: ann).code == "not_an_admin")
            let bobLast = try await client.send(.patch, acme.path("/members/\(acme.bob.userId)"), json: ["admin": false], token: acme.bob.token)
            #expect(bobLast.status == .conflict && bobLast.code == "last_admin")

            let employee = try await client.send(.patch, acme.path("/members/\(acme.cat.userId)"), json: ["admin": true], token: ann)
            #expect(employee.status == .forbidden && employee.code == "not_an_admin")
            let removeOther = try await client.send(.delete, acme.path("/members/\(acme.cat.userId)"), token: ann)
            #expect(removeOther.status == .forbidden && removeOther.code == "not_an_admin")
            let unknown = try await client.send(.patch, acme.path("/members/\(UUID().uuidString.lowercased())"), json: ["admin": true], token: acme.bob.token)
            #expect(unknown.status == .notFound && unknown.code == "member_not_found")
            let pendingIsNoMember = try await client.send(.delete, acme.path("/members/\(acme.dan.userId)"), token: acme.bob.token)
            #expect(pendingIsNoMember.status == .notFound && pendingIsNoMember.code == "member_not_found")
            let nowhere = try await client.send(.patch, acme.path("/members/\(acme.cat.userId)"), json: ["locationId": UUID().uuidString.lowercased()], token: acme.bob.token)
            #expect(nowhere.status == .notFound && nowhere.code == "location_not_found")
            let wrongType = try await client.send(.patch, acme.path("/members/\(acme.cat.userId)"), json: ["admin": "yes"], token: acme.bob.token)
            #expect(wrongType.status == .badRequest && wrongType.code == "malformed_request")
            let outsider = try await client.send(.patch, acme.path("/members/\(acme.cat.userId)"), json: ["admin": true], token: acme.eve.token)
            #expect(outsider.status == .forbidden && outsider.code == "not_a_member")

            // An admin removes Cat; Ann, an employee now, leaves on her own.
            #expect(try await client.send(.delete, acme.path("/members/\(acme.cat.userId)"), token: acme.bob.token).status == .noContent)
            let catMe = try #require(try await client.send(.get, acme.path(), token: acme.cat.token).json["me"] as? [String: Any])
            #expect(catMe["accepted"] as? Bool == false)
            #expect(try await client.send(.get, acme.path("/news"), token: acme.cat.token).code == "not_a_member")
            #expect(try await client.send(.delete, acme.path("/members/\(acme.ann.userId)"), token: ann).status == .noContent)
            let remaining = try await client.send(.get, acme.path("/members"), token: acme.bob.token)
            #expect(remaining.items.map { $0["name"] as? String } == ["Bob"])
        }
    }
}
