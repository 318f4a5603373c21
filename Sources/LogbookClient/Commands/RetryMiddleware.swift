import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Tries a request again on a transient failure, by `policy` (RetryPolicy says which failures
/// are transient). The request is the same each time, Idempotency-Key included, so a command
/// whose answer was lost is answered again rather than carried out twice.
struct RetryMiddleware: ClientMiddleware {
    let policy: RetryPolicy
    /// A body that can be read once is kept in memory to be sent again, up to this size (a
    /// photo's 10 MiB and its envelope); a larger one is sent once.
    static let replayableBytesMax = 11 * 1024 * 1024

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var body = body
        if let once = body, once.iterationBehavior == .single, policy.attempts > 1 {
            body = HTTPBody(try await ArraySlice<UInt8>(collecting: once, upTo: Self.replayableBytesMax))
        }
        var attempt = 1
        while true {
            let delay: Duration
            do {
                let (response, responseBody) = try await next(request, body, baseURL)
                guard RetryPolicy.isTransient(status: response.status.code), attempt < policy.attempts else { return (response, responseBody) }
                if let retryAfter = response.headerFields[.retryAfter].flatMap({ RetryAfter.seconds($0) }) {
                    // The server said when: no sooner, and not at all past the policy's patience.
                    guard .seconds(retryAfter) <= policy.retryAfterMax else { return (response, responseBody) }
                    delay = .seconds(retryAfter)
                } else {
                    delay = policy.delay(after: attempt)
                }
                // The refused attempt's body is not read: end it so the connection is freed.
                _ = try? await ArraySlice<UInt8>(collecting: responseBody ?? HTTPBody(), upTo: ProblemMiddleware.problemBytesMax)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                // Anything the transport throws is the network's failure: the request may or may
                // not have arrived, and the key makes sending it again safe.
                guard attempt < policy.attempts, !Task.isCancelled else { throw error }
                delay = policy.delay(after: attempt)
            }
            try await Task.sleep(for: delay)
            attempt += 1
        }
    }
}
