import Foundation
import HTTPTypes
import HummingbirdTesting
import Projections
import TestSupport
import Testing
@testable import API

/// `GET /metrics`: the operator's Prometheus exposition, its families, that they move with the
/// service's work, and that no label value holds an id or a raw path.
@Suite("Metrics", .timeLimit(.minutes(3)))
struct MetricsTests {
    private static let operatorToken = "operator-secret"

    private func server() throws -> TestServer {
        try TestServer { $0.operatorToken = Self.operatorToken }
    }

    @Test func theExpositionIsTheOperatorsOnlyAndAbsentWithoutAnOperatorToken() async throws {
        let server = try server()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            let anonymous = try await client.send(.get, "/metrics")
            #expect(anonymous.status == .unauthorized && anonymous.isProblem && anonymous.code == "unauthorized")
            // As on every operator route, any other token is refused: a user's, or a near miss.
            for token in [ann, "operator-secreT"] {
                let refused = try await client.send(.get, "/metrics", token: token)
                #expect(refused.status == .forbidden && refused.code == "not_an_operator", "\(refused.status) \(refused.text)")
            }
            _ = try await client.metrics(token: Self.operatorToken)
        }
        let closed = try TestServer()
        defer { closed.remove() }
        try await closed.test { client in
            let reply = try await client.send(.get, "/metrics", token: Self.operatorToken)
            #expect(reply.status == .notFound && reply.code == "not_found", "no operator token: no metrics route, like /v1/admin/*")
        }
    }

    /// The contract and the operators' page (docs/running.md) say what the server answers (401, 403 `not_an_operator`, and
    /// 404 only without a configured operator token), and nowhere that a caller without the
    /// token gets a 404.
    @Test func theContractAndTheDocsSayTheStatusesTheServerAnswers() throws {
        let metrics = try #require(try ContractDocument().paths["/metrics"]?["get"] as? [String: Any])
        let responses = try #require(metrics["responses"] as? [String: Any])
        #expect(Set(["200", "401", "403", "404"]).isSubset(of: Set(responses.keys)), "\(responses.keys.sorted())")
        let description = try #require(metrics["description"] as? String)
        #expect(description.contains("no token is 401") && description.contains("403 not_an_operator"), "\(description)")
        #expect(description.contains("without an operator token configured") && !description.contains("(404) without one"), "\(description)")
        let page = try String(contentsOf: PackageFiles.root.appendingPathComponent("docs/running.md"), encoding: .utf8)
        let paragraph = try #require(page.components(separatedBy: "\n\n").first { $0.hasPrefix("Metrics: `GET /metrics`") })
            .replacingOccurrences(of: "\n", with: " ")
        #expect(paragraph.contains("no token is 401, another token 403 `not_an_operator`"), "\(paragraph)")
        #expect(paragraph.contains("without `LOGBOOK_OPERATOR_TOKEN` set it is 404"), "\(paragraph)")
        #expect(!paragraph.contains("404 without an operator token"), "\(paragraph)")
    }

    @Test func theExpositionParsesAndHasEveryFamilyTheContractDocuments() async throws {
        let server = try server()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            #expect(try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann).status == .created)
            let metrics = try await client.metrics(token: Self.operatorToken)
            let expected: [String: String] = [
                "logbook_http_requests_total": "counter", "logbook_http_request_duration_seconds": "histogram",
                "logbook_events_appended_total": "counter", "logbook_commands_total": "counter",
                "logbook_group_commit_batch_requests": "histogram", "logbook_group_commit_fsync_duration_seconds": "histogram",
                "logbook_projection_lag_events": "gauge", "logbook_projection_lag_seconds": "gauge",
                "logbook_live_streams_open": "gauge", "logbook_lmdb_map_size_bytes": "gauge", "logbook_lmdb_used_bytes": "gauge",
                "logbook_command_conflict_retries_total": "counter",
            ]
            for (family, type) in expected {
                #expect(metrics.types[family] == type, "\(family) is a \(type)")
                #expect(!metrics.series(of: family).isEmpty, "\(family) has samples")
            }
            // The contract names every family, and names no family the server lacks.
            let contract = try #require(String(data: try OpenAPIDocument.data(), encoding: .utf8))
            for family in expected.keys { #expect(contract.contains("`\(family)"), "openapi.yaml documents \(family)") }
            let documented = Set(contract.matches(of: /`(logbook_[a-z_]+)/).map { String($0.output.1) })
            #expect(documented == Set(expected.keys))
            for environment in ["log", "readmodels"] {
                let size = try #require(metrics.value("logbook_lmdb_map_size_bytes", ["environment": environment]))
                let used = try #require(metrics.value("logbook_lmdb_used_bytes", ["environment": environment]))
                #expect(size >= Double(1 << 20) && used > 0 && used <= size, "\(environment): \(used) of \(size)")
            }
        }
    }

    @Test func commandCountersMoveForAcceptedAndRejectedCommandsAndEventsByType() async throws {
        let server = try server()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            let before = try await client.metrics(token: Self.operatorToken)
            let accepted = ["command": "HouseholdDecider", "outcome": "accepted", "code": "none"]
            let houseCreated = ["type": "household.houseCreated"]
            let created = ["method": "POST", "route": "/v1/houses", "status": "201"]

            #expect(try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann).status == .created)
            let second = try await client.send(.post, "/v1/houses", json: ["name": "Garden House"], token: ann)
            let secondCode = try #require(second.code)
            #expect(second.status == .conflict, "\(second.text)")
            let taken = try await client.send(.post, "/v1/accounts", json: ["email": "ann@example.org", "password": "correct horse", "displayName": "Ann"])
            let takenCode = try #require(taken.code)
            #expect(taken.status == .conflict, "\(taken.text)")
            let after = try await client.metrics(token: Self.operatorToken)

            #expect(before.value("logbook_commands_total", accepted) == nil)
            #expect(after.value("logbook_commands_total", accepted) == 1)
            for (command, code) in [("HouseholdDecider", secondCode), ("AccountDecider", takenCode)] {
                let rejected = ["command": command, "outcome": "rejected", "code": code]
                #expect(before.value("logbook_commands_total", rejected) == nil)
                #expect(after.value("logbook_commands_total", rejected) == 1, "\(command) refused with \(code)")
            }
            #expect(before.value("logbook_events_appended_total", houseCreated) == nil)
            #expect(after.value("logbook_events_appended_total", houseCreated) == 1)
            #expect(after.value("logbook_events_appended_total", ["type": "account.registered"]) == 1, "the refused registration appended nothing")
            #expect(after.value("logbook_http_requests_total", created) == 1)
            #expect(after.value("logbook_http_requests_total", ["route": "/v1/houses", "status": "409"]) == 1)
            #expect(after.value("logbook_http_requests_total", ["route": "/v1/accounts", "status": "409"]) == 1)

            // A retry under the same Idempotency-Key is replayed, and counted so.
            let key = UUID().uuidString
            let house = try await client.register("cat@example.org").token
            for _ in 0..<2 { _ = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: house, key: key) }
            let replays = try await client.metrics(token: Self.operatorToken)
            #expect(replays.value("logbook_commands_total", ["command": "HouseholdDecider", "outcome": "accepted"]) == 2)
            #expect(replays.value("logbook_commands_total", ["command": "HouseholdDecider", "outcome": "replayed"]) == 1)
        }
    }

    @Test func histogramBucketsFillAndAgreeWithTheirCounts() async throws {
        let server = try server()
        defer { server.remove() }
        try await server.test { client in
            for index in 0..<3 { _ = try await client.register("user\(index)@example.org") }
            let metrics = try await client.metrics(token: Self.operatorToken)
            for family in ["logbook_group_commit_batch_requests", "logbook_group_commit_fsync_duration_seconds", "logbook_http_request_duration_seconds"] {
                let count = try #require(metrics.value(family + "_count"), "\(family)_count")
                #expect(count >= 3, "\(family): \(count) observations")
                // Per series: buckets only grow with `le`, and +Inf holds every observation.
                let buckets = metrics.samples.filter { $0.name == family + "_bucket" }
                let bySeries = Dictionary(grouping: buckets) { $0.labels.filter { $0.key != "le" }.sorted { $0.key < $1.key }.map { "\($0)=\($1)" } }
                for (series, samples) in bySeries {
                    let ordered = samples.sorted { Double($0.labels["le"]!.replacingOccurrences(of: "+Inf", with: "inf"))! < Double($1.labels["le"]!.replacingOccurrences(of: "+Inf", with: "inf"))! }
                    #expect(zip(ordered, ordered.dropFirst()).allSatisfy { $0.value <= $1.value }, "\(family) \(series) cumulative")
                    let seriesLabels = Dictionary(uniqueKeysWithValues: series.map { ($0.split(separator: "=", maxSplits: 1)[0].description, $0.split(separator: "=", maxSplits: 1)[1].description) })
                    #expect(ordered.last?.labels["le"] == "+Inf" && ordered.last?.value == metrics.value(family + "_count", seriesLabels))
                }
            }
            // Registrations commit one at a time here: every batch holds at least one request.
            let firstBucket = try #require(metrics.samples.first { $0.name == "logbook_group_commit_batch_requests_bucket" && $0.labels["le"] == "1.0" })
            #expect(firstBucket.value >= 3)
        }
    }

    @Test func projectionLagIsShownPerProjectionInEventsAndSeconds() async throws {
        let clock = TestClock()
        let history = FaultyProjection(wrapped: HouseholdProjections.history, failingType: "household.roomAdded", fault: .bug)
        let server = try FaultyServer(history) { $0.operatorToken = Self.operatorToken; $0.clock = { clock.now } }
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            let created = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann)
            let houseId = try #require(created.json["houseId"] as? String)
            // The history projection fails on this event and stays behind it.
            #expect(try await client.send(.post, "/v1/houses/\(houseId)/rooms", json: ["name": "Kitchen"], token: ann).status == .created)
            clock.advance(by: 90)
            let metrics = try await client.metrics(token: Self.operatorToken)
            for projection in server.runtime.projections.projections.map(\.name) {
                let labels = ["projection": projection]
                let events = try #require(metrics.value("logbook_projection_lag_events", labels), "\(projection) lag in events")
                let seconds = try #require(metrics.value("logbook_projection_lag_seconds", labels), "\(projection) lag in seconds")
                if projection == HouseholdProjections.history.name {
                    #expect(events >= 1 && seconds >= 90, "the failed projection's lag: \(events) events, \(seconds) s")
                } else {
                    #expect(events == 0 && seconds == 0, "\(projection) is caught up")
                }
            }
        }
    }

    @Test func noLabelValueHoldsAnIdOrARawPath() async throws {
        let server = try server()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            let created = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann)
            let houseId = try #require(created.json["houseId"] as? String)
            let stranger = UUID().uuidString.lowercased()
            let secret = "reset0token0that0must0not0show"
            #expect(try await client.send(.get, "/v1/houses/\(houseId)", token: ann).status == .ok)
            #expect(try await client.send(.get, "/v1/houses/\(stranger)/scoreboard", token: ann).status != .ok)
            #expect(try await client.send(.post, "/v1/password-resets/\(secret)", json: ["newPassword": "battery staple"]).status == .notFound)
            #expect(try await client.send(.get, "/v1/no-such-route/\(stranger)").status == .notFound)
            #expect(try await client.send(.get, "/v1/houses/\(houseId)?search=ann@example.org", token: ann).status == .ok)
            let metrics = try await client.metrics(token: Self.operatorToken)

            let uuid = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/
            let templates = Set(try ContractDocument().paths.keys)
            var routes: Set<String> = []
            for sample in metrics.samples {
                for (name, value) in sample.labels {
                    #expect(value.firstMatch(of: uuid) == nil, "\(sample.name){\(name)=\(value)} holds an id")
                    #expect(!value.contains(houseId) && !value.contains(stranger) && !value.contains(secret) && !value.contains("@"))
                    if name == "route" { routes.insert(value) }
                }
            }
            #expect(routes.contains("/v1/houses/{houseId}") && routes.contains("/v1/houses/{houseId}/scoreboard"), "\(routes)")
            #expect(routes.contains("/v1/password-resets/{token}") && routes.contains("unmatched"), "\(routes)")
            #expect(routes.subtracting(templates) == ["unmatched"], "every route is a template of the contract: \(routes.subtracting(templates))")
        }
    }

    @Test func liveStreamsOpenAreCountedAndConflictRetriesAddUp() async throws {
        let server = try server()
        defer { server.remove() }
        try await server.test { client in
            let metrics = server.runtime.metrics
            let idle = try await client.metrics(token: Self.operatorToken)
            #expect(idle.value("logbook_live_streams_open") == 0)
            let ann = try await client.register("ann@example.org").token
            let address = "http://127.0.0.1:\(try #require(client.port))"
            let streams = try (0..<2).map { _ in try LiveStreamClient(address: address, query: "topics=me", token: ann) }
            defer { for stream in streams { stream.disconnect() } }
            for stream in streams { try await stream.waitUntilOpen() }
            let open = try await client.metrics(token: Self.operatorToken)
            #expect(open.value("logbook_live_streams_open") == 2)
            // The handler counts its conflicts; each scrape adds only those new since the last.
            metrics.recordConflicts(seen: 3)
            metrics.recordConflicts(seen: 3)
            metrics.recordConflicts(seen: 5)
            let conflicts = try await client.metrics(token: Self.operatorToken)
            #expect(conflicts.value("logbook_command_conflict_retries_total") == 5)
        }
    }
}
