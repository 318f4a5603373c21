import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A watched query's re-fetch: sends `If-None-Match` with the tag of the value it holds, and
/// answers a 304 by throwing `NotModified` before anything is decoded; keeps the tag of a 200.
struct ConditionalGetMiddleware: ClientMiddleware {
    struct NotModified: Error {}

    /// The tag of the value held, and that of the last 200 (taken once its value decoded).
    let tags: Locked<(held: String?, received: String?)>

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let held = tags.withLock({ $0.held }) { request.headerFields[.ifNoneMatch] = held }
        let (response, responseBody) = try await next(request, body, baseURL)
        if response.status == .notModified { throw NotModified() }
        tags.withLock { $0.received = response.headerFields[.eTag] }
        return (response, responseBody)
    }
}

/// Learns which request a query makes without sending it: the watch's key on disk.
struct RequestCapture: ClientTransport {
    struct Captured: Error {
        let request: HTTPRequest
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        throw Captured(request: request)
    }
}
