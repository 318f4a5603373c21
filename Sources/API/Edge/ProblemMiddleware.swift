import Foundation
import Hummingbird
import Logging
import OpenAPIRuntime
import Projections

/// Turns every error a route throws into problem+json, so no client ever sees a stack trace, an
/// HTML page or an empty 500. Unexpected errors are logged and answered with a generic 500.
///
/// The log line names the route's template, never the raw path (`/v1/password-resets/{token}`
/// carries a secret), and the error unwrapped from the generated code's `ServerError`, whose own
/// description repeats the whole request, `Authorization` header included.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let problem = Self.problem(for: error)
            if problem.status >= 500 {
                let cause = (error as? ServerError)?.underlyingError ?? error
                // A 503 the service chose (a read model rebuilding, read models behind) is a
                // state, not a fault: every query during a rebuild would otherwise log an error.
                logger.log(level: problem.status == 500 ? .error : .notice, "request failed", metadata: [
                    "method": "\(request.method)", "route": "\(context.endpointPath ?? "unmatched")", "error": "\(cause)",
                ])
            }
            // A HEAD answer carries the headers a GET would get and no body (RFC 9110 §9.3.2).
            return request.method == .head ? problem.response().createHeadResponse() : problem.response()
        }
    }

    static func problem(for error: any Error) -> Problem {
        switch error {
        case let problem as Problem:
            return problem
        case let error as ServerError:
            // The generated code wraps both our handlers' errors and its own decoding failures.
            if let problem = error.underlyingError as? Problem { return problem }
            if error.underlyingError is DecodingError {
                return Problem(status: .badRequest, code: "malformed_request", title: "Malformed request",
                               detail: "the request does not match the API: \(DecodingProblem.describe(error.underlyingError, bodySent: error.request.headerFields[.contentType] != nil))")
            }
            // The runtime's own refusals (a wrong Content-Type, a missing required parameter)
            // carry their 4xx status.
            if (400..<500).contains(error.httpStatus.code) { return problem(for: error.httpStatus, detail: error.causeDescription) }
            return problem(for: error.underlyingError)
        case let error as ReadModelError:
            return ProblemMapping.problem(for: error)
        case let error as HTTPError:
            return problem(for: error.status, detail: error.body)
        case let error as any HTTPResponseError:
            return problem(for: error.status, detail: nil)
        default:
            return .internalError
        }
    }

    private static func problem(for status: HTTPResponse.Status, detail: String?) -> Problem {
        switch status {
        case .notFound: Problem(status: status, code: "not_found", title: "Not found", detail: detail ?? "no such route or resource")
        case .methodNotAllowed: Problem(status: status, code: "method_not_allowed", title: "Method not allowed", detail: detail)
        case .contentTooLarge: Problem(status: status, code: "body_too_large", title: "Request body too large", detail: detail)
        case .unsupportedMediaType: Problem(status: status, code: "unsupported_media_type", title: "Unsupported media type", detail: detail)
        case .badRequest: Problem(status: status, code: "malformed_request", title: "Malformed request", detail: detail)
        case .unauthorized: Problem(status: status, code: "unauthorized", title: "Unauthorized", detail: detail)
        default:
            status.code >= 500 ? .internalError
                : Problem(status: status, code: "request_failed", title: status.reasonPhrase, detail: detail)
        }
    }
}

/// A readable account of a decoding failure: which field, and what was wrong with it.
enum DecodingProblem {
    /// `bodySent`: whether the request had a body; a failure at no field of one without is a
    /// query, path or header parameter's (the generated code decodes those with no coding path).
    static func describe(_ error: any Error, bodySent: Bool = true) -> String {
        guard let error = error as? DecodingError else { return "the body could not be read" }
        let whole = bodySent ? "the body" : "a parameter"
        switch error {
        case let .keyNotFound(key, context): return "missing field \(path(context.codingPath + [key]))"
        case let .typeMismatch(type, context):
            return context.codingPath.isEmpty ? "\(whole) should be \(type)" : "field \(path(context.codingPath)) should be \(type)"
        case let .valueNotFound(type, context): return "field \(path(context.codingPath)) should be \(type), not null"
        case let .dataCorrupted(context): return context.codingPath.isEmpty ? "the body is not valid JSON" : "field \(path(context.codingPath)) is invalid"
        @unknown default: return "the body could not be read"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "(body)" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
