import HTTPTypes
import Foundation
import Hummingbird
import NIOCore

/// What a handler needs to know of its HTTP request beyond the typed input: the bearer token,
/// the idempotency key, the `If-Match` precondition and the client's address. The generated
/// handlers receive no request context, so `RequestInfoMiddleware` puts this in a task-local for
/// the request's duration.
struct RequestInfo: Sendable {
    /// The token of `Authorization: Bearer <token>`, if any.
    var bearerToken: String?
    /// The `Idempotency-Key` header, if any (validated when a command uses it).
    var idempotencyKey: String?
    /// The `If-Match` header, if any (read by `CommandRunner` for commands on an entity).
    var ifMatch: String?
    /// The client's socket address, formatted only when asked for: formatting it for every
    /// request was 4% of a query's time, and only the rate limits read it.
    var remoteAddress: SocketAddress?

    /// The client's address, for per-address rate limits.
    var clientAddress: String {
        remoteAddress?.ipAddress ?? "unknown"
    }

    @TaskLocal static var current = RequestInfo(bearerToken: nil, idempotencyKey: nil, ifMatch: nil, remoteAddress: nil)

    static let idempotencyKeyField = HTTPField.Name("Idempotency-Key")!
}

/// Fills `RequestInfo.current` for the rest of the chain.
struct RequestInfoMiddleware<Context: RequestContext & RemoteAddressRequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let authorization = request.headers[.authorization]
        let token = authorization.flatMap { value -> String? in
            let parts = value.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
            return String(parts[1]).trimmingCharacters(in: .whitespaces)
        }
        let info = RequestInfo(
            bearerToken: token, idempotencyKey: request.headers[RequestInfo.idempotencyKeyField], ifMatch: request.headers[.ifMatch],
            remoteAddress: context.remoteAddress)
        return try await RequestInfo.$current.withValue(info) {
            try await next(request, context)
        }
    }
}
