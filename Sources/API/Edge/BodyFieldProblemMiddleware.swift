import Hummingbird
import OpenAPIRuntime

/// Answers a body the generated code could not decode with the problem that names its field
/// (`DecodingProblem`), from the body itself where the decoder's error does not say where.
///
/// Runs after `BodyLimitMiddleware` and `EmptyBodyMiddleware`, so the body it reads is the one
/// the route decoded, already in memory; it reads it only when decoding failed. An image
/// upload's body is streamed, never collected: its decoding failures are its parameters', which
/// `ProblemMiddleware` maps without a body.
struct BodyFieldProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServerError {
            guard let decoding = error.underlyingError as? DecodingError, !ImageUploadRoutes.isUpload(request) else { throw error }
            var request = request
            // Already collected within its limit, so `.max` reads nothing new.
            throw DecodingProblem.problem(for: decoding, in: error, body: try await request.collectBody(upTo: .max))
        }
    }
}
