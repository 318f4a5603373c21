import Foundation
import Synchronization

/// Reset requests the route accepted and `PasswordResetWorker` carries out in the background.
///
/// The route answers 202 as soon as a request is queued, doing the same for every e-mail, so
/// its timing cannot tell whether an account has the e-mail (SPEC §1 Accounts: no account
/// enumeration); looking the account up and minting the token happen here, later.
final class PasswordResetQueue: Sendable {
    /// One request as the route took it.
    struct Request: Sendable {
        /// The e-mail, normalised; possibly no account's, or no e-mail at all.
        var email: String
        /// The service clock when the request arrived: the token's expiry counts from it.
        var now: Date
        /// The command id: the request's Idempotency-Key, so a retry is carried out once.
        var commandID: UUID
    }

    /// Requests waiting at most; more are dropped (and counted).
    let pendingMax: Int
    private let state = Mutex(State())

    private struct State {
        var pending: [Request] = []
        /// The worker waiting for a request, if it is.
        var consumer: CheckedContinuation<Request?, Never>?
        /// Requests handed to the worker and not yet finished.
        var busy = 0
        /// Stop handing out requests once the queue is empty (graceful shutdown).
        var closed = false
        var dropped = 0
    }

    init(pendingMax: Int) {
        precondition(pendingMax >= 1, "a queue holds something")
        self.pendingMax = pendingMax
    }

    /// Queues `request`; false when the queue is full and it was dropped.
    @discardableResult
    func enqueue(_ request: Request) -> Bool {
        let (consumer, queued) = state.withLock { state -> (CheckedContinuation<Request?, Never>?, Bool) in
            if let consumer = state.consumer {
                state.consumer = nil
                state.busy += 1
                return (consumer, true)
            }
            guard state.pending.count < pendingMax else {
                state.dropped += 1
                return (nil, false)
            }
            state.pending.append(request)
            return (nil, true)
        }
        consumer?.resume(returning: request)
        return queued
    }

    /// The next request, waiting for one; nil once the queue is closed and empty, or the
    /// waiting task is cancelled. A request taken must be `finish`ed.
    func next() async -> Request? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (consumer: CheckedContinuation<Request?, Never>) in
                let ready = state.withLock { state -> Request?? in
                    if !state.pending.isEmpty {
                        state.busy += 1
                        return .some(state.pending.removeFirst())
                    }
                    // Checked under the lock: a cancellation after this finds the consumer stored.
                    if state.closed || Task.isCancelled { return .some(nil) }
                    precondition(state.consumer == nil, "one worker at a time")
                    state.consumer = consumer
                    return .none
                }
                if let ready { consumer.resume(returning: ready) }
            }
        } onCancel: {
            wakeConsumer()
        }
    }

    /// One request taken with `next` is carried out.
    func finish() {
        state.withLock { state in
            precondition(state.busy > 0, "finish follows next")
            state.busy -= 1
        }
    }

    /// Hands out what is queued, then nil instead of waiting (graceful shutdown).
    func close() {
        state.withLock { $0.closed = true }
        wakeConsumer()
    }

    /// Waits for requests again (a worker starts).
    func open() {
        state.withLock { $0.closed = false }
    }

    /// Nothing is queued or being carried out.
    var isIdle: Bool { state.withLock { $0.pending.isEmpty && $0.busy == 0 } }

    /// Requests dropped since the last call, the queue being full.
    func takeDroppedCount() -> Int {
        state.withLock { state in
            defer { state.dropped = 0 }
            return state.dropped
        }
    }

    private func wakeConsumer() {
        let consumer = state.withLock { state in
            defer { state.consumer = nil }
            return state.consumer
        }
        consumer?.resume(returning: nil)
    }
}
