import Foundation
import OpenAPIRuntime

/// What became of a command sent with `send(queueingIfOffline: true)`.
public enum CommandDelivery<Value: Sendable>: Sendable {
    /// The server answered.
    case answered(Value)
    /// The server could not be reached: the command is in the outbox and its outcome will come
    /// through `outbox.outcomes`.
    case queued(QueuedCommand)
}

extension LogbookClient {
    /// Sends a command now and, when the server cannot be reached after the retries (or the
    /// outbox already holds commands, which go first), keeps it in the outbox instead.
    ///
    ///     let delivery = try await logbook.send { try await $0.completeTask(path: .init(houseId: house, taskId: task)) }
    public nonisolated(nonsending) func send<Value: Sendable>(queueingIfOffline: Bool = true, _ operation: (Client) async throws -> Value) async throws -> CommandDelivery<Value> {
        guard queueingIfOffline, let outbox else { return .answered(try await run(operation)) }
        // In order: behind what is queued already.
        if await !outbox.pending.isEmpty { return .queued(try await enqueue(operation)) }
        do {
            return .answered(try await operation(client([OutboxMiddleware(outbox: outbox, session: session, mode: .ifUnreachable)])))
        } catch let error as ClientError {
            if let queued = error.underlyingError as? OutboxMiddleware.Queued { return .queued(queued.command) }
            throw error.underlyingError
        }
    }

    /// Keeps a command in the outbox without trying it now: it is sent after those before it,
    /// and its outcome comes through `outbox.outcomes`.
    @discardableResult
    public nonisolated(nonsending) func enqueue<Value>(_ operation: (Client) async throws -> Value) async throws -> QueuedCommand {
        guard let outbox else { throw OutboxError.noOutbox }
        do {
            _ = try await operation(client([OutboxMiddleware(outbox: outbox, session: session, mode: .always)]))
        } catch let error as ClientError {
            if let queued = error.underlyingError as? OutboxMiddleware.Queued { return queued.command }
            throw error.underlyingError
        }
        throw OutboxError.nothingSent
    }
}
