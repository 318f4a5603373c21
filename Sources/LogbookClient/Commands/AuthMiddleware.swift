import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends the session's bearer token, unless the request carries one already or begins a
/// session (a sign-in is not the old session's: a dead token must not refuse it).
struct AuthMiddleware: ClientMiddleware {
    let session: Session
    static let anonymousOperations: Set<String> = ["createAccount", "createSession"]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if request.headerFields[.authorization] == nil, !Self.anonymousOperations.contains(operationID), let credentials = session.current {
            request.headerFields[.authorization] = "Bearer \(credentials.token)"
        }
        return try await next(request, body, baseURL)
    }
}
