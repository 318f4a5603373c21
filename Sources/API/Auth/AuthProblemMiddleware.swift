import Hummingbird
import OpenAPIRuntime

/// Answers an `AuthProblem` thrown by a route, directly or wrapped by the generated code, with
/// its headers (`WWW-Authenticate`, `Retry-After`). Sits inside `ProblemMiddleware`, which
/// answers every other error.
struct AuthProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as AuthProblem {
            return problem.response()
        } catch let error as ServerError {
            if let problem = error.underlyingError as? AuthProblem { return problem.response() }
            throw error
        }
    }
}
