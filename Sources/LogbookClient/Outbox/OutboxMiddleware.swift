import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Puts a command in the outbox: at once (`always`), or when it could not reach the server
/// after the client's retries (`ifUnreachable`: the network failed, or a proxy answered 502 or
/// 504). Either way the operation then throws `Queued`, which `LogbookClient` turns into the
/// answer `.queued`.
struct OutboxMiddleware: ClientMiddleware {
    enum Mode { case always, ifUnreachable }

    let outbox: Outbox
    let session: Session
    let mode: Mode

    struct Queued: Error {
        let command: QueuedCommand
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard IdempotencyKeyMiddleware.isCommand(request.method) else { throw OutboxError.notACommand(operationID) }
        let bytes = try await bodyBytes(body)
        let queue = { () async throws -> Never in
            throw Queued(command: try await outbox.enqueue(operationID: operationID, request: request, body: bytes, userId: session.current?.userId))
        }
        if mode == .always { try await queue() }
        do {
            let (response, responseBody) = try await next(request, bytes.map { HTTPBody($0) }, baseURL)
            guard response.status.code == 502 || response.status.code == 504 else { return (response, responseBody) }
            try await queue()
        } catch is CancellationError {
            throw CancellationError()
        } catch let queued as Queued {
            throw queued
        } catch {
            try await queue()
        }
    }
}
