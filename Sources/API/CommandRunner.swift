import Accounts
import HTTPTypes
import CommandHandling
import Crypto
import EventLog
import EventSourcing
import Foundation
import Projections

/// Runs one command for an HTTP request the same way for every route: metadata from the
/// request (the `Idempotency-Key` becomes the command id), the handler, refusals mapped to
/// problem+json, and read-your-writes: the 2xx goes out only once the read models include the
/// command's events, so the client's next query sees them.
///
/// A command on an entity names the entity's stream (`entity`); the request's `If-Match` then
/// becomes the version the log expects of that stream, checked in the append itself, and a
/// stream that moved on is 412 `precondition_failed` with nothing appended.
struct CommandRunner: Sendable {
    let runtime: LogbookRuntime

    /// Carries out `command` for `actor`; throws a `Problem` on refusal or failure. `entity` is
    /// the stream whose version the route's `ETag` gives (nil: the route has no entity).
    func run<D: Decider>(_ decider: D.Type, _ command: D.Command, actor: String, entity: String? = nil) async throws(Problem) -> CommandOutcome<D> {
        var metadata = try metadata(actor: actor)
        metadata.fingerprint = fingerprint(D.self, actor: actor)
        let expectedVersions = try EntityTag.expectedVersions(of: entity, ifMatch: RequestInfo.current.ifMatch)
        let outcome: CommandOutcome<D>
        do {
            outcome = try await runtime.commands.handle(D.self, command, metadata: metadata, expectedVersions: expectedVersions)
        } catch {
            let problem = ProblemMapping.problem(for: error)
            runtime.metrics.recordCommand(D.self, refused: problem)
            throw problem
        }
        runtime.metrics.recordCommand(D.self, carriedOut: outcome)
        do {
            try await runtime.projections.waitUntilProjected(outcome.position, timeout: runtime.configuration.readYourWritesTimeout)
        } catch {
            // The events are in the log; only the read models lag. Say so instead of pretending.
            throw Problem(status: .serviceUnavailable, code: "read_models_behind", title: "Read models behind",
                          detail: "the command was recorded at position \(outcome.position) but the read models have not caught up yet; retry the query shortly")
        }
        return outcome
    }

    /// The fingerprint of the request's command, when the request has an Idempotency-Key: its
    /// digest (method, path, body), the actor and the domain, keyed with the server's secret, so
    /// the log holds nothing a body's password could be guessed from. Made from the request,
    /// not from the command, whose ids and hashes are made afresh for every attempt.
    func fingerprint<D: Decider>(_ decider: D.Type, actor: String) -> Data? {
        guard RequestInfo.current.idempotencyKey != nil, let digest = RequestDigest.current else { return nil }
        let hex = TokenHash(digest: digest).hex
        let keyed = runtime.auth.secrets.derivedToken("command fingerprint", String(reflecting: D.self), actor, hex)
        return Data(SHA256.hash(data: Data(keyed.utf8)))
    }

    /// Metadata for a command of `actor` now; the command id is the request's `Idempotency-Key`.
    func metadata(actor: String) throws(Problem) -> CommandMetadata {
        let now = runtime.configuration.clock()
        guard let key = RequestInfo.current.idempotencyKey else {
            return CommandMetadata(actor: actor, now: now, commandID: .timeOrdered(at: now), correlationID: RequestCorrelation.current?.commandCorrelationID)
        }
        guard let commandID = UUID(uuidString: key.trimmingCharacters(in: .whitespaces)) else {
            throw Problem(status: .badRequest, code: "invalid_idempotency_key", title: "Invalid Idempotency-Key",
                          detail: "Idempotency-Key must be a UUID")
        }
        return CommandMetadata(actor: actor, now: now, commandID: commandID, correlationID: RequestCorrelation.current?.commandCorrelationID)
    }
}

/// Refusals and failures of commands as problem+json.
enum ProblemMapping {
    static func problem<F: DomainError>(for failure: CommandFailure<F>) -> Problem {
        switch failure {
        case let .rejected(error):
            return problem(for: error)
        case .contention:
            return Problem(status: .conflict, code: "version_conflict", title: "Too many concurrent changes",
                           detail: "others kept changing the same data; retry the command")
        case .idempotencyKeyReused:
            return idempotencyKeyReused
        case .preconditionFailed:
            return EntityTag.preconditionFailed
        case let .log(error):
            return problem(for: error)
        case .undecodableEvent:
            return .internalError
        case .keysUnavailable:
            // The reason stays in the server's log, as the log's own unavailability does.
            return Problem(status: .serviceUnavailable, code: "keys_unavailable", title: "Service unavailable",
                           detail: "the personal-data keys' store did not answer; retry with the same Idempotency-Key")
        }
    }

    /// 422: the Idempotency-Key names another request's command (another route, body, actor
    /// or domain), whose outcome is neither replayed nor revealed.
    static var idempotencyKeyReused: Problem {
        Problem(status: .unprocessableContent, code: "idempotency_key_reused", title: "Idempotency-Key reused",
                detail: "this Idempotency-Key was already used for another request")
    }

    static func problem(for error: some DomainError) -> Problem {
        let status: HTTPResponse.Status = switch error.kind {
        case .validation: .unprocessableContent
        case .notFound: .notFound
        case .forbidden: .forbidden
        case .conflict: .conflict
        }
        let fields = error.fieldErrors.map { Problem.FieldProblem(field: $0.field, message: $0.message) }
        return Problem(status: status, code: error.code, title: title(for: error.kind), detail: error.detail,
                       errors: fields.isEmpty ? nil : fields)
    }

    static func problem(for error: EventLogError) -> Problem {
        switch error {
        case let .limitExceeded(limit, value, max):
            return Problem(status: .contentTooLarge, code: "limit_exceeded", title: "Over a limit",
                           detail: "\(limit): \(value) is over \(max)")
        case .commandIDReused:
            return idempotencyKeyReused
        case .invalidArgument, .wrongExpectedVersion, .appendConditionFailed, .predecessorMissing:
            return Problem(status: .conflict, code: "version_conflict", title: "Conflict", detail: error.description)
        case .readOnly, .closed, .writerActive:
            return Problem(status: .serviceUnavailable, code: "unavailable", title: "Service unavailable", detail: "the service is shutting down")
        case .unavailable:
            // The reason stays in the server's log: it names the database, not the client's input.
            return Problem(status: .serviceUnavailable, code: "log_unavailable", title: "Service unavailable",
                           detail: "the event log's database did not answer; retry with the same Idempotency-Key")
        case .corruptRecord, .incompatibleFormat, .storage:
            return .internalError
        }
    }

    /// Runs a list query, its paging refusals thrown as problems; other errors pass as they are.
    static func listQuery<T>(_ query: () throws -> T) throws -> T {
        do {
            return try query()
        } catch let error as ListQueryError {
            throw problem(for: error)
        }
    }

    /// Read-model failures: a copy being rebuilt for this version, or a failed projection, is a
    /// 503 the client may retry; anything else is the service's fault.
    static func problem(for error: ReadModelError) -> Problem {
        switch error {
        case .rebuilding:
            Problem(status: .serviceUnavailable, code: "read_model_rebuilding", title: "Read model rebuilding",
                    detail: "this data is being rebuilt after an upgrade; retry shortly",
                    headers: [.retryAfter: String(rebuildingRetryAfterSeconds)])
        case .unavailable:
            Problem(status: .serviceUnavailable, code: "read_model_unavailable", title: "Read model unavailable",
                    detail: "this data cannot be served until the service is repaired; retry later",
                    headers: [.retryAfter: String(unavailableRetryAfterSeconds)])
        default:
            .internalError
        }
    }

    /// What a client is told to wait before retrying a query of a read model being rebuilt.
    static let rebuildingRetryAfterSeconds = 5
    /// What a client is told to wait before retrying a query of a failed read model: it needs an
    /// operator's fix and rebuild, so retrying sooner only adds load.
    static let unavailableRetryAfterSeconds = 60

    /// Paging refusals of the list queries: bad client input, so 400.
    static func problem(for error: ListQueryError) -> Problem {
        switch error {
        case let .limitOutOfRange(limit, allowed):
            Problem(status: .badRequest, code: "invalid_limit", title: "Invalid limit",
                    detail: "limit must be \(allowed.lowerBound)…\(allowed.upperBound), not \(limit)")
        case .malformedCursor:
            Problem(status: .badRequest, code: "invalid_cursor", title: "Invalid cursor", detail: "the cursor was not issued for this list")
        case let .readModel(error):
            problem(for: error)
        }
    }

    private static func title(for kind: DomainErrorKind) -> String {
        switch kind {
        case .validation: "Validation failed"
        case .notFound: "Not found"
        case .forbidden: "Forbidden"
        case .conflict: "Conflict"
        }
    }
}
