import Hummingbird

/// Sends an empty body without a Content-Type on as the empty JSON object.
///
/// The generated server decodes a route's optional JSON body even when none was sent, so
/// `POST /v1/quiz/games` without a body would be a 400 "not valid JSON" instead of meaning "no
/// options". Routes without a body never read it, and a required body then fails for its missing
/// fields, which says more than "not valid JSON". Runs after `BodyLimitMiddleware`, which has
/// collected the body, so looking at it costs nothing.
struct EmptyBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // An image upload is streamed, never collected; its empty body is the upload's 422.
        guard request.headers[.contentType] == nil, !ImageUploadRoutes.isUpload(request),
              request.method == .post || request.method == .put || request.method == .patch else {
            return try await next(request, context)
        }
        var request = request
        // Already collected within its limit, so `.max` reads nothing new; a smaller bound would
        // throw for any non-empty body.
        guard try await request.collectBody(upTo: .max).readableBytes == 0 else { return try await next(request, context) }
        var head = request.head
        head.headerFields[.contentType] = "application/json"
        head.headerFields[.contentLength] = "2"
        return try await next(Request(head: head, body: .init(buffer: ByteBuffer(string: "{}"))), context)
    }
}
