import HTTPTypes
import Hummingbird

/// Counts every request by method, route template and status, and times it by method and route
/// template (`logbook_http_requests_total`, `logbook_http_request_duration_seconds`).
///
/// Outside `ProblemMiddleware`, so it sees the status a client gets, refusals included. The
/// route is Hummingbird's matched template (`/v1/houses/{houseId}`), never the path: a path holds
/// ids and secrets (`/v1/password-resets/{token}`), and one label value per id would grow the
/// registry without bound. The duration runs until the response's head is ready (a streamed
/// body, such as an image or a live stream, is not waited for).
struct HTTPMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: LogbookMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let method = RouteLabel.method(request.method)
        do {
            let response = try await next(request, context)
            metrics.recordRequest(method: method, route: RouteLabel.route(context), status: response.status.code, duration: .now - start)
            return response
        } catch {
            metrics.recordRequest(method: method, route: RouteLabel.route(context), status: RouteLabel.status(of: error), duration: .now - start)
            throw error
        }
    }
}

/// Label values of a request that stay within bounded sets.
enum RouteLabel {
    /// The one route value of every request no route matched (a 404, a 405).
    static let unmatched = "unmatched"
    /// The methods counted by name; any other is "other" (a client may send any token).
    static let methods: Set<HTTPRequest.Method> = [.get, .head, .post, .put, .patch, .delete, .options]

    /// The matched route's template, or `unmatched`. Hummingbird names its not-found responder's
    /// endpoint "NotFound"; only a template (it starts with "/") is a route.
    static func route(_ context: some RequestContext) -> String {
        guard let path = context.endpointPath, path.hasPrefix("/") else { return unmatched }
        return path
    }

    /// The method's name if it is a known one, else "other".
    static func method(_ method: HTTPRequest.Method) -> String {
        methods.contains(method) ? method.rawValue : "other"
    }

    /// The status a client gets for an error that left the middleware chain.
    static func status(of error: any Error) -> Int {
        (error as? any HTTPResponseError)?.status.code ?? 500
    }
}
