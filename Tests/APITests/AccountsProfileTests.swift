import Foundation
import HummingbirdTesting
import Testing
@testable import API

@Suite("Accounts: profile and activity", .timeLimit(.minutes(3)))
struct AccountsProfileTests {
    @Test func patchChangesOnlyTheGivenFieldsAndAnswersTheProfile() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (userId, token) = try await client.register("ann@example.org", extra: ["firstName": "Ann", "postcode": "1234AB"])
            let reply = try await client.send(.patch, "/v1/me", json: [
                "displayName": "Annie", "username": "annie", "email": "Annie@Example.org", "firstName": "",
            ], token: token)
            #expect(reply.status == .ok)
            #expect(reply.json["userId"] as? String == userId)
            #expect(reply.json["displayName"] as? String == "Annie")
            #expect(reply.json["username"] as? String == "annie")
            #expect(reply.json["email"] as? String == "annie@example.org")
            #expect(reply.json["firstName"] == nil, "an empty first name removes it")
            #expect(reply.json["postcode"] as? String == "1234AB", "untouched")
            // Read-your-writes, and the new e-mail logs in while the old one does not.
            #expect(try await client.me(token).body == reply.body)
            #expect(try await client.login("annie@example.org", "correct horse").status == .created)
            #expect(try await client.login("ann@example.org", "correct horse").status == .unauthorized)
        }
    }

    @Test func patchWithNothingChangedAnswersTheProfileAndAppendsNothing() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, token) = try await client.register("ann@example.org", displayName: "Ann")
            let before = try await client.me(token)
            let head = try server.runtime.log.lmdb.headPosition()
            for body: [String: Any] in [[:], ["displayName": "Ann"], ["email": "ANN@example.org"]] {
                let reply = try await client.send(.patch, "/v1/me", json: body, token: token)
                #expect(reply.status == .ok && reply.body == before.body)
            }
            #expect(try server.runtime.log.lmdb.headPosition() == head)
        }
    }

    @Test func patchRefusesTakenAndInvalidValues() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            _ = try await client.register("bob@example.org", username: "bobby")
            let (_, token) = try await client.register("ann@example.org")
            let email = try await client.send(.patch, "/v1/me", json: ["email": "BOB@example.org"], token: token)
            #expect(email.status == .conflict && email.code == "email_taken")
            let username = try await client.send(.patch, "/v1/me", json: ["username": "Bobby"], token: token)
            #expect(username.status == .conflict && username.code == "username_taken")
            let invalid = try await client.send(.patch, "/v1/me", json: ["displayName": "", "postcode": "??"], token: token)
            #expect(invalid.status == .unprocessableContent && Set(invalid.fieldsInError) == ["displayName", "postcode"])
            let wrongType = try await client.send(.patch, "/v1/me", json: ["displayName": 7], token: token)
            #expect(wrongType.status == .badRequest && wrongType.code == "malformed_request")
            #expect(try await client.send(.patch, "/v1/me", json: ["displayName": "X"]).status == .unauthorized)
        }
    }

    @Test func activityListsTheCallersOwnEventsNewestFirstInPages() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (userId, token) = try await client.register("ann@example.org")
            _ = try await client.register("bob@example.org")  // not Ann's
            for name in ["A", "B", "C"] {
                #expect(try await client.send(.patch, "/v1/me", json: ["displayName": name], token: token).status == .ok)
            }
            var types: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let uri = "/v1/me/activity?limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.send(.get, uri, token: token)
                #expect(page.status == .ok)
                let items = try #require(page.json["items"] as? [[String: Any]])
                #expect(items.count <= 2)
                for item in items {
                    #expect(item["entity"] as? String == "account-\(userId)")
                    #expect(item["at"] is String && item["position"] is Int)
                }
                types += items.compactMap { $0["type"] as? String }
                cursor = page.json["next"] as? String
                pages += 1
            } while cursor != nil && pages < 10
            #expect(types == ["account.profileUpdated", "account.profileUpdated", "account.profileUpdated",
                              "account.sessionStarted", "account.emailVerificationRequested", "account.registered"])
            #expect(pages == 3)

            let all = try await client.send(.get, "/v1/me/activity", token: token)
            #expect((all.json["items"] as? [Any])?.count == 6 && all.json["next"] == nil)
        }
    }

    @Test func activityRefusesABadLimitOrCursor() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, token) = try await client.register("ann@example.org")
            for limit in ["0", "501"] {
                let reply = try await client.send(.get, "/v1/me/activity?limit=\(limit)", token: token)
                #expect(reply.status == .badRequest && reply.code == "invalid_limit", "\(reply.text)")
            }
            let cursor = try await client.send(.get, "/v1/me/activity?cursor=bm9wZQ", token: token)
            #expect(cursor.status == .badRequest && cursor.code == "invalid_cursor", "\(cursor.text)")
            let notANumber = try await client.send(.get, "/v1/me/activity?limit=many", token: token)
            #expect(notANumber.status == .badRequest && notANumber.isProblem, "\(notANumber.text)")
            #expect(try await client.send(.get, "/v1/me/activity").status == .unauthorized)
        }
    }
}
