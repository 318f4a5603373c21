import EventLog
import Foundation
import HummingbirdTesting
import Testing
@testable import API
@testable import Projections

/// A read model whose stored copy another version built is not read: its queries answer 503
/// `read_model_rebuilding` with `Retry-After`, not wrong data and not a 500.
@Suite("Read model being rebuilt", .timeLimit(.minutes(1)))
struct ReadModelRebuildingTests {
    @Test func rebuildingIs503WithACodeAndRetryAfter() throws {
        let problem = ProblemMapping.problem(for: ReadModelError.rebuilding("x"))
        #expect(problem.status == 503 && problem.code == "read_model_rebuilding" && problem.type == "/problems/read_model_rebuilding")
        let response = problem.response()
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers[.contentType] == "application/problem+json")
        let retryAfter = try #require(response.headers[.retryAfter].flatMap { Int($0) })
        #expect(retryAfter > 0)
        // The same answer whichever way the error reaches the edge.
        #expect(ProblemMiddleware<LogbookRequestContext>.problem(for: ReadModelError.rebuilding("x")) == problem)
        #expect(ProblemMapping.problem(for: ListQueryError.readModel(.rebuilding("x"))) == problem)
        #expect(ProblemMapping.problem(for: ReadModelError.notCaughtUp(position: 2, projected: 1)) == .internalError)
    }

    /// The served copies of the household read models are marked as built by another version,
    /// as after an upgrade whose rebuild has not finished: every query of them answers 503.
    @Test func aQueryOfACopyBuiltByAnotherVersionAnswers503() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            let created = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann)
            let houseId = try #require(created.json["houseId"] as? String)
            let board = "/v1/houses/\(houseId)/scoreboard", history = "/v1/houses/\(houseId)/history"
            // History reads fill the membership cache but not the scoreboard's: this test rewrites
            // the metadata behind the engine's back, which no real path does without clearing the
            // caches (a version changes in a new process, or at a swap, which invalidates them).
            #expect(try await client.send(.get, history, token: ann).status == .ok)

            for projection: any Projection in [HouseholdProjections.houses, HouseholdProjections.history] {
                try markBuiltByAnotherVersion(projection, in: server.runtime.projections)
            }
            // The membership is still cached: the scoreboard's own read meets the old copy.
            for path in [board, history, "/v1/houses/\(houseId)", "/v1/me/house"] {
                let reply = try await client.send(.get, path, token: ann)
                #expect(reply.status == .serviceUnavailable && reply.code == "read_model_rebuilding" && reply.isProblem, "\(path): \(reply.text)")
                #expect(Int(reply.headers[.retryAfter] ?? "") ?? 0 > 0, "\(path)")
            }
            // Other read models still serve.
            #expect(try await client.me(ann).status == .ok)
        }
    }

    /// Rewrites `projection`'s metadata as if another version of it had built the served copy.
    private func markBuiltByAnotherVersion(_ projection: any Projection, in engine: ProjectionEngine<some EventStore>) throws {
        let store = engine.store
        try store.write { txn in
            var meta = try #require(try store.meta(of: projection.name, in: txn.reader))
            meta.version = projection.version + 1
            try store.store(meta, of: projection.name, in: txn)
        }
    }
}
