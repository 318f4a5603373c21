import EventLog
import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// `GET /v1/admin/audit`: by actor, everything a user did; by entity, every event whose tags name
/// the id, across apps; who, when, which command and correlation; paged; exactly one subject.
@Suite("Admin API: audit", .timeLimit(.minutes(3)))
struct AdminAuditRouteTests {
    @Test func byActorFindsEverythingTheUserDidAndNothingElse() async throws {
        let clock = TestClock()
        let server = try AdminFixture.server(clock: clock)
        defer { server.remove() }
        try await server.test { client in
            let scenario = try await AdminScenario.play(client, clock: clock)
            let log = try AdminFixture.logEvents(server.runtime.log.lmdb)
            for user in [scenario.ann.userId, scenario.bob.userId] {
                let expected = log.filter { $0.actor == user }
                try #require(expected.count >= 3)
                let pages = try await client.adminPages("/v1/admin/audit?actor=\(user)&limit=2")
                #expect(pages.allSatisfy { !$0.isEmpty && $0.count <= 2 })
                let items = pages.flatMap { $0 }
                #expect(items.compactMap { $0["position"] as? Int } == expected.map { Int($0.position) })
                #expect(items.allSatisfy { $0["actor"] as? String == user })
                #expect(items.allSatisfy { $0["data"] == nil }, "the trail carries no event data")
            }
            let bobs = try await client.adminPages("/v1/admin/audit?actor=\(scenario.bob.userId)").flatMap { $0 }
            let types = bobs.compactMap { $0["type"] as? String }
            #expect(types.contains("household.memberJoined") && types.contains("household.taskAdded") && types.contains("household.taskCompleted"))
            #expect(!types.contains("household.houseCreated") && !types.contains("household.roomAdded"), "Ann's, not Bob's")
            #expect(try await client.admin("/v1/admin/audit?actor=nobody").list("items").isEmpty)
        }
    }

    @Test func byEntityFindsTheTaskCompletionWithItsCommandAcrossApps() async throws {
        let clock = TestClock()
        let server = try AdminFixture.server(clock: clock)
        defer { server.remove() }
        try await server.test { client in
            let scenario = try await AdminScenario.play(client, clock: clock)
            let log = try AdminFixture.logEvents(server.runtime.log.lmdb)
            // The house: every event tagged house:<id>, through the tag index.
            let house = try await client.adminPages("/v1/admin/audit?entity=\(scenario.houseId)&limit=2").flatMap { $0 }
            #expect(house.compactMap { $0["position"] as? Int } == log.filter { $0.tags.contains("house:\(scenario.houseId)") }.map { Int($0.position) })
            let completion = try #require(house.first { $0["type"] as? String == "household.taskCompleted" })
            #expect(completion["actor"] as? String == scenario.bob.userId)
            #expect(completion["commandId"] as? String == scenario.completionKey, "under the command the client named")
            #expect(completion["correlationId"] as? String != nil && completion["recordedAt"] as? String != nil)
            #expect(completion["streamId"] as? String == "house-\(scenario.houseId)")
            // The full tag names the same events as the bare id.
            let tagged = try await client.adminPositions("/v1/admin/audit?entity=house:\(scenario.houseId)")
            #expect(tagged == house.compactMap { $0["position"] as? Int })
            // A task: its addition and its completion, by the task:<id> tag its events carry.
            let task = try await client.adminPages("/v1/admin/audit?entity=\(scenario.taskId)").flatMap { $0 }
            #expect(task.compactMap { $0["type"] as? String } == ["household.taskAdded", "household.taskCompleted"], "\(task)")
            #expect(task.last?["commandId"] as? String == scenario.completionKey)
            // The workplace: a location added later, by the location:<id> tag its events carry.
            let registered = try await client.send(.post, "/v1/organisations", json: ["name": "Acme", "locations": [["name": "Amsterdam"]]], token: scenario.ann.token)
            let organisationId = try #require(registered.json["organisationId"] as? String, "\(registered.text)")
            let added = try await client.send(.post, "/v1/organisations/\(organisationId)/locations", json: ["name": "Utrecht"], token: scenario.ann.token)
            let locationId = try #require(added.json["locationId"] as? String, "\(added.text)")
            let location = try await client.adminPages("/v1/admin/audit?entity=\(locationId)").flatMap { $0 }
            #expect(location.compactMap { $0["type"] as? String } == ["workplace.locationAdded"], "\(location)")
            // Another app: the neighbourhood report.
            let report = try await client.adminPages("/v1/admin/audit?entity=\(scenario.reportId)").flatMap { $0 }
            #expect(report.compactMap { $0["position"] as? Int } == log.filter { $0.tags.contains("report:\(scenario.reportId)") }.map { Int($0.position) })
            #expect(report.first?["type"] as? String == "neighbourhood.reportPosted" && report.allSatisfy { $0["actor"] as? String == scenario.ann.userId }, "\(report)")
            // A user as an entity: every event whose tags name Bob (user:<id>), whoever caused it.
            let bob = try await client.adminPositions("/v1/admin/audit?entity=\(scenario.bob.userId)")
            let expected = log.filter { $0.tags.contains { $0.hasSuffix(":\(scenario.bob.userId)") } }.map { Int($0.position) }
            #expect(!expected.isEmpty && bob == expected)
            for nothing in ["nothing-at-all", String(repeating: "x", count: 600), "house:\(scenario.houseId)%00"] {
                let reply = try await client.admin("/v1/admin/audit?entity=\(nothing)")
                #expect(reply.status == .ok && reply.list("items").isEmpty, "\(nothing.prefix(30)): \(reply.text)")
            }
        }
    }

    @Test func exactlyOneSubjectAndValidPagingOrA400() async throws {
        let server = try AdminFixture.server()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org")
            let events = try #require(try await client.admin("/v1/admin/events?limit=1").json["next"] as? String)
            let refusals: [(String, String)] = [
                ("", "invalid_audit_subject"), ("actor=\(ann.userId)&entity=\(ann.userId)", "invalid_audit_subject"),
                ("limit=10", "invalid_audit_subject"),
                ("actor=x&limit=0", "invalid_limit"), ("entity=x&limit=501", "invalid_limit"),
                ("actor=x&cursor=!!", "invalid_cursor"), ("entity=x&cursor=\(events)", "invalid_cursor"),
            ]
            for (query, code) in refusals {
                let reply = try await client.admin("/v1/admin/audit?" + query)
                #expect(reply.status == .badRequest && reply.code == code && reply.isProblem, "\(query): \(reply.text)")
            }
        }
    }
}
