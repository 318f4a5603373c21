import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Gives every command (POST, PUT, PATCH, DELETE) one `Idempotency-Key` for all its attempts:
/// the server takes it as the command's id, so a retry of a command it carried out answers what
/// the first attempt did and appends nothing (SPEC §2). A key the caller set is kept.
struct IdempotencyKeyMiddleware: ClientMiddleware {
    static let header = HTTPField.Name("Idempotency-Key")!

    static func isCommand(_ method: HTTPRequest.Method) -> Bool {
        method == .post || method == .put || method == .patch || method == .delete
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if Self.isCommand(request.method), request.headerFields[Self.header] == nil {
            request.headerFields[Self.header] = UUID().uuidString.lowercased()
        }
        return try await next(request, body, baseURL)
    }
}
