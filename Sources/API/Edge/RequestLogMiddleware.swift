import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Writes one info line per request to the server's log: method, route template, status,
/// duration in milliseconds and the request's correlation id, which it also puts in the
/// response's `X-Correlation-ID` and hands to the request's commands (`RequestCorrelation`).
///
/// What it writes is chosen so that no line holds a secret or personal data: the route's
/// template and not the path (paths carry ids and reset tokens), no query string (it may hold
/// a search or an e-mail), no header but the correlation id, which is kept only if it is a
/// short token of safe characters, and never a body.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let correlation = RequestCorrelation(request.headers)
        do {
            var response = try await RequestCorrelation.$current.withValue(correlation) { try await next(request, context) }
            response.headers[RequestCorrelation.responseField] = correlation.id
            log(request, context, status: response.status.code, since: start, correlation)
            return response
        } catch {
            log(request, context, status: RouteLabel.status(of: error), since: start, correlation)
            throw error
        }
    }

    private func log(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant, _ correlation: RequestCorrelation) {
        // Microseconds as "ms.µµµ", without Foundation's formatter on every request.
        let elapsed = ContinuousClock.now - start
        let microseconds = max(0, elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000)
        let fraction = String(microseconds % 1_000)
        logger.info("request", metadata: [
            "method": .string(RouteLabel.method(request.method)),
            "route": .string(RouteLabel.route(context)),
            "status": .stringConvertible(status),
            "duration_ms": .string("\(microseconds / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"),
            "correlation_id": .string(correlation.id),
        ])
    }
}
