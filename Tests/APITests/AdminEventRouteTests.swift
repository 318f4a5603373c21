import EventLog
import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// `GET /v1/admin/events`: every filter selects exactly what a plain predicate over the whole log
/// selects, pages join without gap or duplicate, a filter matching nothing is answered in bounded
/// reads with a cursor to go on, and bad input is a 400 with its code.
@Suite("Admin API: events", .timeLimit(.minutes(3)))
struct AdminEventRouteTests {
    /// Microseconds since 1970, the log's resolution, for comparing times without rounding doubts.
    private static func micros(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000_000).rounded()) }

    @Test func eachFilterSelectsExactlyTheMatchingEventsAcrossPages() async throws {
        let clock = TestClock()
        let server = try AdminFixture.server(clock: clock)
        defer { server.remove() }
        try await server.test { client in
            let scenario = try await AdminScenario.play(client, clock: clock)
            let log = try AdminFixture.logEvents(server.runtime.log.lmdb)
            try #require(log.count >= 10)
            let house = "house-\(scenario.houseId)"
            // Times from the log itself: a window from the 3rd event's time up to (excluding) the 8th's.
            let since = log[2].recordedAt, until = log[7].recordedAt
            let sinceText = try #require(try await client.admin("/v1/admin/events?fromPosition=3&limit=1").list("items").first?["recordedAt"] as? String)
            let untilText = try #require(try await client.admin("/v1/admin/events?fromPosition=8&limit=1").list("items").first?["recordedAt"] as? String)
            let cases: [(query: [(String, String)], expected: (RecordedEvent) -> Bool)] = [
                ([], { _ in true }),
                ([("stream", house)], { $0.streamID == house }),
                ([("category", "house")], { $0.streamID.hasPrefix("house-") }),
                ([("type", "household.taskCompleted")], { $0.type == "household.taskCompleted" }),
                ([("actor", scenario.bob.userId)], { $0.actor == scenario.bob.userId }),
                ([("fromPosition", "3"), ("toPosition", "8")], { (3...8).contains($0.position) }),
                ([("from", sinceText)], { Self.micros($0.recordedAt) >= Self.micros(since) }),
                ([("to", untilText)], { Self.micros($0.recordedAt) < Self.micros(until) }),
                ([("from", "2000-01-01"), ("to", "2100-01-01")], { _ in true }),
                ([("category", "house"), ("actor", scenario.ann.userId), ("fromPosition", "2")],
                 { $0.streamID.hasPrefix("house-") && $0.actor == scenario.ann.userId && $0.position >= 2 }),
                ([("type", "nothing.ever")], { _ in false }),
            ]
            for (query, expected) in cases {
                let path = AdminFixture.path("/v1/admin/events", query + [("limit", "3")])
                let positions = try await client.adminPositions(path)
                #expect(positions == log.filter(expected).map { Int($0.position) }, "\(path)")
            }
        }
    }

    @Test func pagesJoinWithoutGapOrDuplicateAndTheLastHasNoNext() async throws {
        let clock = TestClock()
        let server = try AdminFixture.server(clock: clock)
        defer { server.remove() }
        try await server.test { client in
            let scenario = try await AdminScenario.play(client, clock: clock)
            let log = try AdminFixture.logEvents(server.runtime.log.lmdb)
            for limit in [1, 4, 7, 500] {
                let pages = try await client.adminPages("/v1/admin/events?limit=\(limit)")
                #expect(pages.allSatisfy { !$0.isEmpty && $0.count <= limit }, "limit \(limit): no empty page, none too long")
                #expect(pages.count == (log.count + limit - 1) / limit, "limit \(limit): full pages but the last")
                #expect(pages.flatMap { $0.compactMap { $0["position"] as? Int } } == Array(1...log.count), "limit \(limit)")
            }
            // The default page is 50 events.
            #expect(try await client.admin("/v1/admin/events").list("items").count == min(50, log.count))
            // An event appended between two pages is read on the next one, not lost or repeated.
            let first = try await client.admin("/v1/admin/events?limit=\(log.count)")
            #expect(first.json["next"] == nil)
            let bobs = try await client.admin("/v1/admin/events?limit=1&actor=\(scenario.bob.userId)")
            let next = try #require(bobs.json["next"] as? String)
            _ = try await client.send(.post, "/v1/houses/\(scenario.houseId)/tasks/\(scenario.taskId)/completions", token: scenario.bob.token)
            let rest = try await client.adminPositions("/v1/admin/events?limit=2&actor=\(scenario.bob.userId)", from: next)
            let all = try AdminFixture.logEvents(server.runtime.log.lmdb)
            #expect(rest == all.filter { $0.actor == scenario.bob.userId }.dropFirst().map { Int($0.position) })
        }
    }

    /// One matching event beyond 10,000 that match nothing: the first page reads its bound and
    /// answers empty with a cursor; following the cursors finds the event exactly once.
    @Test func aFilterMatchingNothingReadsABoundedPageAndResumes() async throws {
        let server = try AdminFixture.server()
        defer { server.remove() }
        let filler = (0..<1_000).map { ProposedEvent(streamID: "filler-\($0 % 10)", type: "filler.noted", data: Data("{}".utf8)) }
        for _ in 0..<11 {
            _ = try await server.runtime.log.lmdb.append(AppendRequest(events: filler, metadata: AppendMetadata(actor: "system")))
        }
        let needle = try await server.runtime.log.lmdb.append(AppendRequest(
            events: [ProposedEvent(streamID: "filler-0", type: "filler.noted", data: Data(#"{"found":true}"#.utf8))],
            metadata: AppendMetadata(actor: "needle")))
        try await server.test { client in
            let first = try await client.admin("/v1/admin/events?actor=needle&limit=5")
            #expect(first.status == .ok)
            #expect(first.list("items").isEmpty, "10,000 events read and none matched")
            #expect(first.json["next"] is String, "a cursor to read on")
            let pages = try await client.adminPages("/v1/admin/events?actor=needle&limit=5")
            #expect(pages.count == 2)
            #expect(pages.flatMap { $0.compactMap { $0["position"] as? Int } } == [Int(needle.lastPosition)])
            #expect((pages.last?.first?["data"] as? [String: Any])?["found"] as? Bool == true)
            // Reading the type index is bounded the same way: the same answer.
            let typed = try await client.adminPositions("/v1/admin/events?type=filler.noted&actor=needle&limit=5")
            #expect(typed == [Int(needle.lastPosition)])
        }
    }

    @Test func itemsCarryTheEventsMetadataAndData() async throws {
        let clock = TestClock()
        let server = try AdminFixture.server(clock: clock)
        defer { server.remove() }
        try await server.test { client in
            let scenario = try await AdminScenario.play(client, clock: clock)
            let reply = try await client.admin("/v1/admin/events?type=household.taskCompleted")
            let item = try #require(reply.list("items").first, "\(reply.text)")
            let stored = try #require(try AdminFixture.logEvents(server.runtime.log.lmdb).first { $0.type == "household.taskCompleted" })
            #expect(item["position"] as? Int == Int(stored.position))
            #expect(item["streamId"] as? String == "house-\(scenario.houseId)")
            #expect(item["streamVersion"] as? Int == Int(stored.streamVersion))
            #expect(item["schemaVersion"] as? Int == Int(stored.schemaVersion))
            #expect(item["actor"] as? String == scenario.bob.userId)
            #expect(item["commandId"] as? String == scenario.completionKey, "the Idempotency-Key is the command id")
            #expect(item["correlationId"] as? String == stored.correlationID.uuidString.lowercased())
            #expect(item["tags"] as? [String] == stored.tags)
            let recordedAt = try #require(item["recordedAt"] as? String)
            #expect(recordedAt.hasSuffix("Z") && recordedAt.count == 27, "microseconds, UTC: \(recordedAt)")
            let data = try #require(item["data"] as? [String: Any])
            #expect(data["taskId"] as? String == scenario.taskId && data["points"] as? Int == 5)
            #expect(item["dataBase64"] == nil)
        }
    }

    @Test func badInputIsA400WithItsCode() async throws {
        let clock = TestClock()
        let server = try AdminFixture.server(clock: clock)
        defer { server.remove() }
        try await server.test { client in
            _ = try await AdminScenario.play(client, clock: clock)
            let streamCursor = "c3RyZWFtOmZvcndhcmQ6MQ"  // "stream:forward:1": another list's cursor
            let refusals: [(String, String)] = [
                ("limit=0", "invalid_limit"), ("limit=501", "invalid_limit"), ("limit=-3", "invalid_limit"),
                ("cursor=zzz", "invalid_cursor"), ("cursor=\(streamCursor)", "invalid_cursor"),
                ("cursor=ZXZlbnRzOg", "invalid_cursor"), ("cursor=ZXZlbnRzOi0x", "invalid_cursor"),
                ("from=2025-02-30", "invalid_time"), ("from=yesterday", "invalid_time"), ("to=2025-01-31T25:00:00Z", "invalid_time"),
                ("from=2025-01-31T08:00:00", "invalid_time"),
                ("fromPosition=0", "invalid_position"), ("toPosition=-1", "invalid_position"),
            ]
            for (query, code) in refusals {
                let reply = try await client.admin("/v1/admin/events?" + query)
                #expect(reply.status == .badRequest && reply.code == code && reply.isProblem, "\(query): \(reply.text)")
            }
            #expect(try await client.admin("/v1/admin/events?limit=abc").status == .badRequest)
            // Ranges that select nothing are empty pages: each bound is valid alone.
            let long = String(repeating: "x", count: 600)
            for query in ["fromPosition=9&toPosition=3", "from=2030-01-01&to=2020-01-01", "fromPosition=1000000",
                          "stream=\(long)", "type=\(long)", "category=\(long)", "actor=\(long)", "stream=house-1%00"] {
                let reply = try await client.admin("/v1/admin/events?" + query)
                #expect(reply.status == .ok && reply.list("items").isEmpty && reply.json["next"] == nil, "\(query): \(reply.text)")
            }
        }
    }

    /// Personal data is shown as the log holds it, sealed: never the plain name or e-mail, before
    /// or after the account's erasure, and erasing destroys the only key that could open it.
    @Test func sealedPersonalDataIsNeverShownAndAnErasedUsersStaysUnreadable() async throws {
        let server = try AdminFixture.server()
        defer { server.remove() }
        try await server.test { client in
            let eve = try await client.register("evelyn.q@example.org", displayName: "Evelyn Quartermain", username: "evelynq")
            let created = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: eve.token)
            try #require(created.status == .created)
            let secrets = ["Evelyn", "Quartermain", "evelyn.q@example.org", "evelynq"]

            let before = try await client.admin("/v1/admin/events?limit=500")
            let sealedBefore = try #require(before.list("items").first { $0["type"] as? String == "household.houseCreated" }?["data"] as? [String: Any])
            let name = try #require(sealedBefore["creatorDisplayName"] as? String)
            #expect(name.hasPrefix("sealed:v1:"), "sealed in the log and shown so: \(name)")
            for secret in secrets { #expect(!before.text.contains(secret), "\(secret) leaked") }

            try #require(try await client.send(.delete, "/v1/me", json: ["password": "correct horse"], token: eve.token).status == .noContent)
            await server.runtime.readModelsScrubbed()
            #expect(try server.runtime.personalData.isErased(eve.userId))
            #expect(try server.runtime.personalData.dataKey(of: eve.userId, create: false) == nil, "no key opens the sealed text any more")
            let after = try await client.admin("/v1/admin/events?limit=500")
            let sealedAfter = try #require(after.list("items").first { $0["type"] as? String == "household.houseCreated" }?["data"] as? [String: Any])
            #expect(sealedAfter["creatorDisplayName"] as? String == name, "the log is never rewritten: the same ciphertext")
            for secret in secrets { #expect(!after.text.contains(secret), "\(secret) leaked after erasure") }
            let stream = try await client.admin("/v1/admin/streams/house-\(try #require(created.json["houseId"] as? String))")
            #expect(stream.status == .ok && !stream.text.contains("Evelyn"))
            let audit = try await client.admin("/v1/admin/audit?actor=\(eve.userId)")
            #expect(audit.status == .ok && !audit.list("items").isEmpty && !audit.text.contains("Evelyn"))
        }
    }
}
