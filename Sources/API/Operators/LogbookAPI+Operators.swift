import Crypto
import Foundation
import Projections

/// Operator routes: they need `Authorization: Bearer <LOGBOOK_OPERATOR_TOKEN>`, and do not
/// exist (404) when the server was started without an operator token.
extension LogbookAPI {
    func listProjections(_ input: Operations.ListProjections.Input) async throws -> Operations.ListProjections.Output {
        try requireOperator()
        let statuses = try await runtime.projections.status().map {
            Components.Schemas.ProjectionStatus(
                name: $0.name, version: $0.version, generation: $0.generation, checkpoint: Int64($0.checkpoint),
                lag: Int64($0.lag), rebuildCheckpoint: $0.rebuildCheckpoint.map(Int64.init),
                state: .init(rawValue: $0.state.rawValue),
                failure: $0.failure.map { .init(position: Int64($0.position), reason: $0.reason) },
                lastRebuildError: $0.lastRebuildError)
        }
        return .ok(.init(body: .json(.init(projections: statuses))))
    }

    func rebuildProjection(_ input: Operations.RebuildProjection.Input) async throws -> Operations.RebuildProjection.Output {
        try requireOperator()
        let name = input.path.name
        guard runtime.projections.projections.contains(where: { $0.name == name }) else {
            throw Problem(status: .notFound, code: "unknown_projection", title: "Unknown projection", detail: "no projection named \(name)")
        }
        // The rebuild outlives the request: the served copy keeps answering until the new one has
        // caught up and is swapped in; GET /v1/admin/projections shows its progress.
        let engine = runtime.projections
        Task {
            do {
                try await engine.rebuild(name)
            } catch {
                // The engine recorded it (GET /v1/admin/projections shows lastRebuildError) and
                // reported it to the server's log before throwing; nothing is lost here.
            }
        }
        return .accepted(.init(body: .json(.init(name: name))))
    }

    func getChainHead(_ input: Operations.GetChainHead.Input) async throws -> Operations.GetChainHead.Output {
        try requireOperator()
        // The server's store is writable, so it migrated to the chain when it opened.
        guard let head = try await runtime.log.chainHead() else { throw Problem.internalError }
        return .ok(.init(body: .json(.init(position: Int64(head.position), hash: head.hashHex))))
    }

    /// Checks the operator token; without a configured token the routes are hidden (404). No
    /// token is 401; any other token (a user's session, a guess) is 403 `not_an_operator`.
    ///
    /// Constant time: the SHA-256 digests of both are compared, whose `==` in swift-crypto looks
    /// at every byte whatever differs, and hashing first hides the token's length too.
    func requireOperator() throws {
        guard let expected = runtime.configuration.operatorToken else {
            throw Problem(status: .notFound, code: "not_found", title: "Not found", detail: "no such route or resource")
        }
        guard let given = RequestInfo.current.bearerToken else { throw Problem.unauthorized(tokenGiven: false) }
        guard SHA256.hash(data: Data(given.utf8)) == SHA256.hash(data: Data(expected.utf8)) else {
            throw Problem(status: .forbidden, code: "not_an_operator", title: "Forbidden",
                          detail: "this route needs the operator token; the bearer token given is not it")
        }
    }
}
