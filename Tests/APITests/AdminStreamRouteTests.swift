import EventLog
import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// `GET /v1/admin/streams/{streamId}`: one stream by version, forward or backward, paged without
/// gap or duplicate; a stream with no events is 404 `stream_not_found`.
@Suite("Admin API: streams", .timeLimit(.minutes(3)))
struct AdminStreamRouteTests {
    @Test func aStreamReadsForwardAndBackwardInPages() async throws {
        let clock = TestClock()
        let server = try AdminFixture.server(clock: clock)
        defer { server.remove() }
        try await server.test { client in
            let scenario = try await AdminScenario.play(client, clock: clock)
            for _ in 0..<3 {
                _ = try await client.send(.post, "/v1/houses/\(scenario.houseId)/tasks/\(scenario.taskId)/completions", token: scenario.ann.token)
            }
            let stream = "house-\(scenario.houseId)"
            let stored = try AdminFixture.logEvents(server.runtime.log.lmdb).filter { $0.streamID == stream }
            try #require(stored.count >= 7)
            for limit in [1, 3, 50] {
                let forward = try await client.adminPages("/v1/admin/streams/\(stream)?limit=\(limit)")
                #expect(forward.allSatisfy { !$0.isEmpty && $0.count <= limit })
                let items = forward.flatMap { $0 }
                #expect(items.compactMap { $0["streamVersion"] as? Int } == Array(0..<stored.count), "limit \(limit)")
                #expect(items.compactMap { $0["position"] as? Int } == stored.map { Int($0.position) })
                #expect(items.allSatisfy { $0["streamId"] as? String == stream })

                let backward = try await client.adminPages("/v1/admin/streams/\(stream)?direction=backward&limit=\(limit)")
                #expect(backward.allSatisfy { !$0.isEmpty && $0.count <= limit })
                #expect(backward.flatMap { $0 }.compactMap { $0["streamVersion"] as? Int } == Array((0..<stored.count).reversed()), "limit \(limit)")
            }
            #expect(try await client.admin("/v1/admin/streams/\(stream)?direction=forward").list("items").count == stored.count)
        }
    }

    @Test func anUnknownStreamIs404AndBadInputIs400() async throws {
        let clock = TestClock()
        let server = try AdminFixture.server(clock: clock)
        defer { server.remove() }
        try await server.test { client in
            let scenario = try await AdminScenario.play(client, clock: clock)
            let stream = "house-\(scenario.houseId)"
            // An id that is no UTF-8 reaches the log as "", which names no stream either.
            for unknown in ["house-nope", "house", String(repeating: "x", count: 600), "house-\(scenario.houseId)%00", "%ff", "%c3%28"] {
                let reply = try await client.admin("/v1/admin/streams/\(unknown)")
                #expect(reply.status == .notFound && reply.code == "stream_not_found" && reply.isProblem, "\(unknown.prefix(40)): \(reply.text)")
            }
            let forward = try #require(try await client.admin("/v1/admin/streams/\(stream)?limit=1").json["next"] as? String)
            let backward = try #require(try await client.admin("/v1/admin/streams/\(stream)?limit=1&direction=backward").json["next"] as? String)
            let events = try #require(try await client.admin("/v1/admin/events?limit=1").json["next"] as? String)
            let refusals: [(String, String)] = [
                ("limit=0", "invalid_limit"), ("limit=501", "invalid_limit"), ("cursor=%2B%2B", "invalid_cursor"),
                ("cursor=\(backward)", "invalid_cursor"), ("direction=backward&cursor=\(forward)", "invalid_cursor"),
                ("cursor=\(events)", "invalid_cursor"),
            ]
            for (query, code) in refusals {
                let reply = try await client.admin("/v1/admin/streams/\(stream)?" + query)
                #expect(reply.status == .badRequest && reply.code == code, "\(query): \(reply.text)")
            }
            #expect(try await client.admin("/v1/admin/streams/\(stream)?direction=sideways").status == .badRequest)
        }
    }
}
