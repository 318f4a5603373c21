import CommandHandling
import EventLog
import EventSourcing
import Foundation
import OpenAPIRuntime
import Testing
@testable import API

private enum SampleError: DomainError {
    case invalid, missing, notYours, taken
    var code: String { "\(self)" }
    var kind: DomainErrorKind {
        switch self {
        case .invalid: .validation
        case .missing: .notFound
        case .notYours: .forbidden
        case .taken: .conflict
        }
    }
    var detail: String { "sample" }
    var fieldErrors: [FieldError] { self == .invalid ? [FieldError("name", "is empty")] : [] }
}

@Suite("Problem mapping", .timeLimit(.minutes(3)))
struct ProblemMappingTests {
    @Test func domainKindsMapToStatusesWithCodesAndFields() {
        let cases: [(SampleError, Int)] = [(.invalid, 422), (.missing, 404), (.notYours, 403), (.taken, 409)]
        for (error, status) in cases {
            let problem = ProblemMapping.problem(for: CommandFailure<SampleError>.rejected(error))
            #expect(problem.status == status && problem.code == error.code && problem.type == "/problems/\(error.code)")
        }
        #expect(ProblemMapping.problem(for: SampleError.invalid).errors == [Problem.FieldProblem(field: "name", message: "is empty")])
        #expect(ProblemMapping.problem(for: SampleError.taken).errors == nil)
    }

    @Test func runtimeFailuresNeverLeakInternals() {
        #expect(ProblemMapping.problem(for: CommandFailure<SampleError>.contention(attempts: 8)).code == "version_conflict")
        #expect(ProblemMapping.problem(for: CommandFailure<SampleError>.idempotencyKeyReused).status == 422)
        let corrupt = ProblemMapping.problem(for: CommandFailure<SampleError>.log(.corruptRecord(position: 9, reason: "checksum")))
        #expect(corrupt == .internalError && !(corrupt.detail ?? "").contains("checksum"))
        // A PostgreSQL log that does not answer: 503, retry with the same key; its reason stays in the server's log.
        let unreachable = ProblemMapping.problem(for: CommandFailure<SampleError>.log(.unavailable(reason: "SQLSTATE 57P01")))
        #expect(unreachable.status == 503 && unreachable.code == "log_unavailable" && !(unreachable.detail ?? "").contains("57P01"))
        // The personal-data keys' store not answering is the same kind of outage.
        let keys = ProblemMapping.problem(for: CommandFailure<SampleError>.keysUnavailable(reason: "postgres://db: SQLSTATE 57P01"))
        #expect(keys.status == 503 && keys.code == "keys_unavailable" && !(keys.detail ?? "").contains("57P01"))
        let limit = ProblemMapping.problem(for: CommandFailure<SampleError>.log(.limitExceeded(limit: "eventDataBytesMax", value: 2, max: 1)))
        #expect(limit.status == 413 && limit.code == "limit_exceeded")
        #expect(ProblemMapping.problem(for: CommandFailure<SampleError>.undecodableEvent(position: 1, type: "t", reason: "r")) == .internalError)
        // A chained link whose predecessor did not append is a conflict to retry, not a fault.
        let unchained = ProblemMapping.problem(for: CommandFailure<SampleError>.log(.predecessorMissing(commandID: UUID())))
        #expect(unchained.status == 409 && unchained.code == "version_conflict")
    }

    /// The log refusing a command id recorded with another fingerprint is the same 422 as the
    /// handler's refusal: the client reused its Idempotency-Key for another request.
    @Test func aCommandIDReusedInTheLogIsAReusedKey() {
        let reused = ProblemMapping.problem(for: CommandFailure<SampleError>.log(.commandIDReused(commandID: UUID())))
        #expect(reused.status == 422 && reused.code == "idempotency_key_reused")
        #expect(reused == ProblemMapping.problem(for: CommandFailure<SampleError>.idempotencyKeyReused))
    }

    /// Headers a problem carries (a challenge, `Retry-After`) reach the response beside its body,
    /// also when the generated code wraps the error.
    @Test func aProblemsHeadersReachItsResponse() {
        let challenge = Problem.unauthorized(tokenGiven: true).response()
        #expect(challenge.status == .unauthorized && challenge.headers[.wwwAuthenticate]?.contains("invalid_token") == true)
        #expect(challenge.headers[.contentType] == "application/problem+json")
        let wrapped = ServerError(
            operationID: "x", request: .init(method: .get, scheme: nil, authority: nil, path: "/"), requestBody: nil,
            requestMetadata: .init(), causeDescription: "", underlyingError: Problem.tooManyAttempts(retryAfter: 7))
        #expect(ProblemMiddleware<LogbookRequestContext>.problem(for: wrapped).response().headers[.retryAfter] == "7")
    }

    @Test func theIdempotencyKeyBecomesTheCommandIDAndMustBeAUUID() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let runner = CommandRunner(runtime: server.runtime)
        let key = UUID()
        let metadata = try RequestInfo.$current.withValue(RequestInfo(bearerToken: nil, idempotencyKey: key.uuidString, remoteAddress: nil)) {
            try runner.metadata(actor: "user-1")
        }
        #expect(metadata.commandID == key && metadata.actor == "user-1")
        #expect(throws: Problem.self) {
            try RequestInfo.$current.withValue(RequestInfo(bearerToken: nil, idempotencyKey: "not-a-uuid", remoteAddress: nil)) {
                try runner.metadata(actor: "user-1")
            }
        }
        let fresh = try runner.metadata(actor: "user-1")
        #expect(fresh.commandID != key)
    }
}
