import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends `If-Match` and `If-None-Match` as given: the runtime percent-encodes header parameters
/// (RFC 6570, as OpenAPI 3.1.0 read it), which turns the quotes of `"7"` into `%227%22`, a tag
/// no server issued (swift-openapi-generator issues 529 and 857; the middleware is the fix
/// its maintainers suggest). An entity tag holds no `%` of its own here: ours are digits or hex.
struct EntityTagHeaderMiddleware: ClientMiddleware {
    static let names: [HTTPField.Name] = [.ifMatch, .ifNoneMatch]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        for name in Self.names {
            if let value = request.headerFields[name], value.contains("%"), let decoded = value.removingPercentEncoding {
                request.headerFields[name] = decoded
            }
        }
        return try await next(request, body, baseURL)
    }
}
