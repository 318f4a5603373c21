import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Turns every refusal into a thrown `LogbookProblem`, so an app reads a 2xx (or a 304) from
/// the generated operations and catches problems in one place; a 401 `unauthorized` for the
/// session's own token also ends the session (`SessionState.signedOut(.tokenRejected)`).
struct ProblemMiddleware: ClientMiddleware {
    let session: Session
    /// A problem body is small; a larger one is cut here (its code is in the first bytes).
    static let problemBytesMax = 64 * 1024

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        // Taken now: AuthMiddleware, inside this one, adds it to the request this one sees.
        let sent = AuthMiddleware.token(of: request, operationID: operationID, session: session)
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400 else { return (response, responseBody) }
        let bytes = try await Self.collect(responseBody, upTo: Self.problemBytesMax)
        let problem = LogbookProblem.of(status: response.status.code, headers: response.headerFields, body: bytes)
        session.answered(problem, forToken: sent)
        throw problem
    }

    /// The body's first `bytesMax` bytes (the rest is dropped).
    static func collect(_ body: HTTPBody?, upTo bytesMax: Int) async throws -> Data {
        guard let body else { return Data() }
        var data = Data()
        for try await chunk in body {
            data.append(contentsOf: chunk.prefix(bytesMax - data.count))
            if data.count >= bytesMax { break }
        }
        return data
    }
}
