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
            // Without the body (`BodyFieldProblemMiddleware` passes it): the field the decoder names.
            if let decoding = error.underlyingError as? DecodingError { return DecodingProblem.problem(for: decoding, in: error, body: nil) }
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
