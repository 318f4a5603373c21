import Hummingbird

/// Writes every `text/event-stream` body on the event loop of its connection
/// (`EventLoopTaskExecutor`). A live stream spends its life waiting for the hub and writing a
/// few bytes; on the loop each delivery costs one wake-up instead of two, which is what 200
/// streams cost the writers (docs/benchmarks.md, "Live updates over SSE").
/// The streams do their reads of the log off the loop (`EventLoopTaskExecutor.offLoop`).
struct EventStreamOnLoopMiddleware: RouterMiddleware {
    typealias Context = LogbookRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard response.headers[.contentType]?.hasPrefix("text/event-stream") == true else { return response }
        let body = response.body
        let executor = EventLoopTaskExecutor(context.eventLoop)
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            try await withTaskExecutorPreference(executor) {
                try await body.write(writer)
            }
        }
        return response
    }
}
