import EventLog
import Synchronization

/// One open stream: its caller, its grants, and a bounded buffer between the hub, which offers
/// messages and never waits, and the HTTP response, which takes them at the client's pace.
final class LiveSubscription: Sendable {
    /// Its number in the hub.
    let id: Int
    /// The caller.
    let userId: String
    /// The hub delivers only events after this position; those up to it (after `Last-Event-ID`)
    /// the stream reads from the log itself before the buffer.
    let liveAfter: UInt64
    /// Whether the token the stream was opened with still works; checked when the caller's
    /// sessions change.
    let sessionActive: @Sendable () -> Bool
    /// The keys of its grants as subscribed: the hub's index keeps them until the stream ends,
    /// also for a grant revoked since (which then matches nothing).
    let keys: Set<String>
    private let bufferEventsMax: Int
    private let state: Mutex<State>

    private struct State {
        var grants: [LiveGrant]
        var buffer: [LiveMessage] = []
        var waiter: CheckedContinuation<LiveMessage?, Never>?
        var ended: LiveEnd?
        var cancelled = false

        /// The next message, `.some(nil)` once ended and drained, nil when there is none yet.
        mutating func take() -> LiveMessage?? {
            if !buffer.isEmpty { return buffer.removeFirst() }
            if ended != nil || cancelled { return .some(nil) }
            return nil
        }
    }

    init(id: Int, userId: String, grants: [LiveGrant], liveAfter: UInt64, bufferEventsMax: Int, sessionActive: @escaping @Sendable () -> Bool) {
        precondition(bufferEventsMax > 0, "a stream buffers at least one message")
        self.id = id
        self.userId = userId
        self.liveAfter = liveAfter
        self.bufferEventsMax = bufferEventsMax
        self.sessionActive = sessionActive
        keys = Set(grants.flatMap(\.keys))
        state = Mutex(State(grants: grants))
    }

    /// The grants still held.
    var grants: [LiveGrant] { state.withLock { $0.grants } }

    /// Whether the stream has ended (its last messages may still be waiting to be sent).
    var hasEnded: Bool { state.withLock { $0.ended != nil || $0.cancelled } }

    /// The topic under which `event` (filed under `keys`) reaches this stream, nil when none of
    /// its grants admits it.
    func topic(for event: RecordedEvent, keys: [String]) -> String? {
        grants.first { $0.matches(event, keys: keys) }?.topic
    }

    /// Checks the grants of `kind` again and drops those the app now refuses. Returns why the
    /// stream ends, if it does: `revoked` when no grant is left, `unavailable` when a check could
    /// not be made. That fails closed without calling it a refusal: the client reconnects and
    /// its topics are checked anew (503 while the read model still cannot answer).
    func recheck(kind: String) -> LiveEnd? {
        var refused: Set<String> = []
        for grant in grants where grant.kind == kind {
            switch grant.verdict() {
            case .allowed: continue
            case .refused: refused.insert(grant.topic)
            case .undecided: return .unavailable
            }
        }
        guard !refused.isEmpty else { return nil }
        let noneLeft = state.withLock { state in
            state.grants.removeAll { $0.kind == kind && refused.contains($0.topic) }
            return state.grants.isEmpty
        }
        return noneLeft ? .revoked : nil
    }

    /// Queues `message` without waiting; returns false when the stream is (now) over: a full
    /// buffer ends it as `tooSlow`, dropping what it held (the client resumes from its last id).
    /// A keep-alive is queued only on an empty buffer: anything queued keeps the line busy anyway.
    @discardableResult
    func offer(_ message: LiveMessage) -> Bool {
        let (waiter, open) = state.withLock { state -> (CheckedContinuation<LiveMessage?, Never>?, Bool) in
            guard state.ended == nil, !state.cancelled else { return (nil, false) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter, true)
            }
            if message == .keepAlive && !state.buffer.isEmpty { return (nil, true) }
            guard state.buffer.count < bufferEventsMax else {
                state.ended = .tooSlow
                state.buffer = [.closing(.tooSlow)]
                return (nil, false)
            }
            state.buffer.append(message)
            return (nil, true)
        }
        waiter?.resume(returning: message)
        return open
    }

    /// Ends the stream for `reason` once what is queued has been sent, with a closing comment.
    func finish(_ reason: LiveEnd) {
        let waiter = state.withLock { state -> CheckedContinuation<LiveMessage?, Never>? in
            guard state.ended == nil, !state.cancelled else { return nil }
            state.ended = reason
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.buffer.append(.closing(reason))
            return nil
        }
        waiter?.resume(returning: .closing(reason))
    }

    /// Ends the stream at once, dropping what is queued: the client is gone.
    func cancel() {
        let waiter = state.withLock { state -> CheckedContinuation<LiveMessage?, Never>? in
            state.cancelled = true
            state.buffer = []
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next message and whatever else is queued behind it (one write for a burst), waiting
    /// for one; empty once the stream has ended and sent everything, or the task is cancelled.
    func nextBatch() async -> [LiveMessage] {
        guard let first = await next() else { return [] }
        return [first] + state.withLock { state in
            defer { state.buffer = [] }
            return state.buffer
        }
    }

    /// The next message, waiting for one; nil once the stream has ended and sent everything, or
    /// the task is cancelled.
    func next() async -> LiveMessage? {
        if let ready = state.withLock({ $0.take() }) { return ready }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<LiveMessage?, Never>) in
                let ready = state.withLock { state -> LiveMessage?? in
                    if let ready = state.take() { return ready }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
    }
}
