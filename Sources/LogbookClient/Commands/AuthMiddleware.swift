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
        if request.headerFields[.authorization] == nil, let token = Self.token(of: request, operationID: operationID, session: session) {
            request.headerFields[.authorization] = "Bearer \(token)"
        }
        return try await next(request, body, baseURL)
    }

    /// The bearer token `request` goes with: its own, or else the session's, unless it begins
    /// a session. For ProblemMiddleware too, which sees the request before this one sets it.
    static func token(of request: HTTPRequest, operationID: String, session: Session) -> String? {
        if let field = request.headerFields[.authorization] { return field.hasPrefix("Bearer ") ? String(field.dropFirst("Bearer ".count)) : nil }
        return anonymousOperations.contains(operationID) ? nil : session.current?.token
    }
}
