import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import API

/// `GET /v1/live` in process: what it refuses before a stream starts, its limits, keep-alives
/// and the topics of the other apps.
@Suite("Live updates: refusals, limits and topics", .timeLimit(.minutes(3)))
struct LiveRefusalTests {
    @Test func malformedAndUnknownTopicsAreRefusedWithInvalidTopic() async throws {
        try await LiveTestServer.with { client, _ in
            let ann = try await client.register("ann@example.org")
            for topics in ["", ",", "house", "house:", "me:\(ann.userId)", "neighbourhood:1012AB", "weather", "house:a.b",
                           "house:" + String(repeating: "a", count: 65), "HOUSE:x", "me,,me"] {
                let reply = try await client.send(.get, "/v1/live?topics=\(topics)", token: ann.token)
                #expect(reply.status == .badRequest && reply.code == "invalid_topic" && reply.isProblem, "\(topics): \(reply.text)")
            }
            let seventeen = (0...16).map { "house:h\($0)" }.joined(separator: ",")
            let tooMany = try await client.send(.get, "/v1/live?topics=\(seventeen)", token: ann.token)
            #expect(tooMany.status == .badRequest && tooMany.code == "too_many_topics", "\(tooMany.text)")
            let missing = try await client.send(.get, "/v1/live", token: ann.token)
            #expect(missing.status == .badRequest && missing.isProblem, "\(missing.text)")
            let anonymous = try await client.send(.get, "/v1/live?topics=me")
            #expect(anonymous.status == .unauthorized && anonymous.code == "unauthorized")
            let badToken = try await client.send(.get, "/v1/live?topics=me", token: "not-a-token")
            #expect(badToken.status == .unauthorized)
        }
    }

    @Test func aLastEventIDThatIsNoPositionOfTheLogIsRefused() async throws {
        try await LiveTestServer.with { client, runtime in
            let ann = try await client.register("ann@example.org")
            let head = try runtime.log.lmdb.headPosition()
            for id in ["abc", "-1", "1.5", String(head + 1), "99999999999999999999999"] {
                var headers: HTTPFields = [.authorization: "Bearer \(ann.token)"]
                headers[HTTPField.Name("Last-Event-ID")!] = id
                let reply = try await client.execute(uri: "/v1/live?topics=me", method: .get, headers: headers)
                let code = (try? JSONSerialization.jsonObject(with: Data(buffer: reply.body))) as? [String: Any]
                #expect(reply.status == .badRequest && code?["code"] as? String == "invalid_last_event_id", "\(id)")
            }
            let query = try await client.send(.get, "/v1/live?topics=me&lastEventId=\(head + 5)", token: ann.token)
            #expect(query.status == .badRequest && query.code == "invalid_last_event_id")
        }
    }

    @Test func eachAppRefusesItsTopicAsItsRoutesRefuse() async throws {
        try await LiveTestServer.with { client, _ in
            let ann = try await client.register("ann@example.org")
            let unknown = UUID().uuidString.lowercased()
            let expected: [(String, HTTPResponse.Status, String)] = [
                ("house:\(unknown)", .notFound, "house_not_found"),
                ("game:\(unknown)", .notFound, "game_not_found"),
                ("group:\(unknown)", .notFound, "group_not_found"),
                ("organisation:\(unknown)", .notFound, "organisation_not_found"),
                ("neighbourhood", .conflict, "no_neighbourhood"),
            ]
            for (topic, status, code) in expected {
                let reply = try await client.send(.get, "/v1/live?topics=\(topic)", token: ann.token)
                #expect(reply.status == status && reply.code == code && reply.isProblem, "\(topic): \(reply.text)")
            }
        }
    }

    @Test func streamsPerUserAreLimitedAndAClosedOneFreesItsPlace() async throws {
        try await LiveTestServer.with(["LOGBOOK_LIVE_STREAMS_PER_USER_MAX": "2", "LOGBOOK_LIVE_KEEPALIVE_SECONDS": "1"]) { client, runtime in
            let ann = try await client.register("ann@example.org")
            let bob = try await client.register("bob@example.org", displayName: "Bob")
            let address = try LiveTestServer.address(client)
            let first = try LiveStreamClient(address: address, query: "topics=me", token: ann.token)
            let second = try LiveStreamClient(address: address, query: "topics=me", token: ann.token)
            try await first.waitUntilOpen()
            try await second.waitUntilOpen()
            let third = try await client.send(.get, "/v1/live?topics=me", token: ann.token)
            #expect(third.status == .tooManyRequests && third.code == "too_many_streams" && third.isProblem, "\(third.text)")
            // Another user's limit is their own.
            let bobs = try LiveStreamClient(address: address, query: "topics=me", token: bob.token)
            try await bobs.waitUntilOpen()
            #expect(runtime.live.openStreams == 3)

            // A stream whose client went away is noticed at its next write (a keep-alive at most).
            first.disconnect()
            let deadline = ContinuousClock.now + .seconds(10)
            while runtime.live.openStreams > 2 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            #expect(runtime.live.openStreams == 2)
            let again = try LiveStreamClient(address: address, query: "topics=me", token: ann.token)
            try await again.waitUntilOpen()
        }
    }

    @Test func anIdleStreamGetsKeepAliveComments() async throws {
        try await LiveTestServer.with(["LOGBOOK_LIVE_KEEPALIVE_SECONDS": "1"]) { client, _ in
            let ann = try await client.register("ann@example.org")
            let stream = try LiveStreamClient(address: try LiveTestServer.address(client), query: "topics=me", token: ann.token)
            try await stream.waitUntilOpen()
            let idle = try await stream.wait(timeout: .seconds(10)) { $0.comments.filter { $0 == "keep-alive" }.count >= 2 }
            #expect(idle.events.isEmpty)
        }
    }

    @Test func meCarriesTheCallersOwnAccountEventsAndNoOneElses() async throws {
        try await LiveTestServer.with { client, _ in
            let ann = try await client.register("ann@example.org")
            let bob = try await client.register("bob@example.org", displayName: "Bob")
            let stream = try LiveStreamClient(address: try LiveTestServer.address(client), query: "topics=me", token: ann.token)
            try await stream.waitUntilOpen()
            #expect(try await client.send(.patch, "/v1/me", json: ["displayName": "Bob B"], token: bob.token).status == .ok)
            let changed = try await client.send(.patch, "/v1/me", json: ["displayName": "Ann A"], token: ann.token)
            #expect(changed.status == .ok, "\(changed.text)")
            // Nothing else is appended meanwhile: the log's head is Ann's change.
            let health = try await client.send(.get, "/health")
            let position = try #require((health.json["logPosition"] as? NSNumber)?.uint64Value)
            let got = try await stream.wait { $0.events.contains { $0.position == position } }
            #expect(got.events.map(\.type) == ["account.profileUpdated"], "only Ann's own: \(got.events)")
            #expect(got.events.first?.topic == "me")
        }
    }

    @Test func meCarriesRepliesOnReportsTheCallerFollowsOnly() async throws {
        try await LiveTestServer.with { client, _ in
            let neighbours = ["postcode": "1012AB"]
            let ann = try await client.register("ann@example.org", extra: neighbours)
            let bob = try await client.register("bob@example.org", displayName: "Bob", extra: neighbours)
            let cat = try await client.register("cat@example.org", displayName: "Cat", extra: neighbours)
            let posted = try await client.send(.post, "/v1/neighbourhood/reports", json: [
                "title": "Lost cat", "description": "Grey.", "category": "attention",
                "location": ["latitude": 52.373, "longitude": 4.892],
            ], token: ann.token)
            let reportId = try #require(posted.json["reportId"] as? String, "\(posted.text)")
            #expect(try await client.send(.put, "/v1/neighbourhood/reports/\(reportId)/follow", token: bob.token).status.code < 300)
            let address = try LiveTestServer.address(client)
            let bobs = try LiveStreamClient(address: address, query: "topics=me", token: bob.token)
            let cats = try LiveStreamClient(address: address, query: "topics=me,neighbourhood", token: cat.token)
            try await bobs.waitUntilOpen()
            try await cats.waitUntilOpen()

            let reply = try await client.send(.post, "/v1/neighbourhood/reports/\(reportId)/replies", json: ["message": "Seen her"], token: ann.token)
            #expect(reply.status == .created, "\(reply.text)")
            let position = try #require((reply.json["position"] as? NSNumber)?.uint64Value)
            let bobGot = try await bobs.wait { $0.events.contains { $0.position == position } }
            #expect(bobGot.events.map(\.type) == ["neighbourhood.replyPosted"] && bobGot.events.first?.topic == "me")
            // Cat follows nothing: the reply reaches her as her neighbourhood's, not as hers.
            let catGot = try await cats.wait { $0.events.contains { $0.position == position } }
            #expect(catGot.events.filter { $0.position == position }.map(\.topic) == ["neighbourhood"])
        }
    }

    @Test func aGroupMemberWhoLeavesStopsReceivingTheGroupsEvents() async throws {
        try await LiveTestServer.with { client, runtime in
            let ann = try await client.register("ann@example.org")
            let bob = try await client.register("bob@example.org", displayName: "Bob")
            try await runtime.verifyEmail("bob@example.org", token: bob.token, with: client)
            let created = try await client.send(.post, "/v1/groups", json: ["name": "Weekend"], token: ann.token)
            let groupId = try #require(created.json["groupId"] as? String, "\(created.text)")
            #expect(try await client.send(.post, "/v1/groups/\(groupId)/members", json: ["email": "bob@example.org"], token: ann.token).status == .created)
            let address = try LiveTestServer.address(client)
            let anns = try LiveStreamClient(address: address, query: "topics=group:\(groupId)", token: ann.token)
            let bobs = try LiveStreamClient(address: address, query: "topics=me,group:\(groupId)", token: bob.token)
            try await anns.waitUntilOpen()
            try await bobs.waitUntilOpen()

            let first = try await client.send(.post, "/v1/groups/\(groupId)/messages", json: ["text": "Hi"], token: ann.token)
            let firstPosition = try #require((first.json["position"] as? NSNumber)?.uint64Value, "\(first.text)")
            try await bobs.wait { $0.events.contains { $0.position == firstPosition && $0.topic == "group:\(groupId)" } }
            #expect(try await client.send(.post, "/v1/groups/\(groupId)/leave", token: bob.token).status.code < 300)
            let second = try await client.send(.post, "/v1/groups/\(groupId)/messages", json: ["text": "Bye"], token: ann.token)
            let secondPosition = try #require((second.json["position"] as? NSNumber)?.uint64Value, "\(second.text)")

            try await anns.wait { $0.events.contains { $0.position == secondPosition } }
            // A later event of Bob's own: a stream delivers in log order, so once it is there,
            // the group's message would be too.
            #expect(try await client.send(.patch, "/v1/me", json: ["displayName": "Bob B"], token: bob.token).status == .ok)
            let bobSaw = try await bobs.wait { $0.events.contains { $0.type == "account.profileUpdated" } }
            // Bob keeps his stream (`me` is still his) without the group's later events.
            #expect(!bobSaw.ended)
            #expect(!bobSaw.events.contains { $0.topic == "group:\(groupId)" && $0.position >= secondPosition }, "\(bobSaw.events)")
        }
    }

    @Test func aHeadRequestLeavesNoStreamBehind() async throws {
        try await LiveTestServer.with { client, runtime in
            let ann = try await client.register("ann@example.org")
            let head = try await client.execute(uri: "/v1/live?topics=me", method: .head, headers: [.authorization: "Bearer \(ann.token)"])
            #expect(head.status == .ok)
            let deadline = ContinuousClock.now + .seconds(10)
            while runtime.live.openStreams > 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(runtime.live.openStreams == 0)
        }
    }

    @Test func aStreamEndsWhenItsSessionEnds() async throws {
        try await LiveTestServer.with { client, _ in
            let ann = try await client.register("ann@example.org")
            let stream = try LiveStreamClient(address: try LiveTestServer.address(client), query: "topics=me", token: ann.token)
            try await stream.waitUntilOpen()
            let loggedOut = try await client.send(.delete, "/v1/sessions/current", token: ann.token)
            #expect(loggedOut.status == .noContent, "\(loggedOut.text)")
            let ended = try await stream.wait { $0.ended }
            #expect(ended.comments.contains("closed: session_ended"), "\(ended.comments)")
        }
    }
}
