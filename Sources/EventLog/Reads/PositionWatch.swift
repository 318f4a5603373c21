import Synchronization

/// A position that only grows (the log's last commit, a projection's checkpoint), with waiters
/// for it to reach a mark.
///
/// Subscribers read the log themselves and wait here only when caught up, so a slow subscriber
/// never holds up the writer: the writer's whole cost is one `advance` per commit.
public final class PositionWatch: Sendable {
    private enum Waiter {
        case waiting(target: UInt64, continuation: CheckedContinuation<Void, Never>)
        case cancelled
    }

    private struct State {
        var position: UInt64
        var isClosed = false
        var waiters: [Int: Waiter] = [:]
        var nextWaiterID = 0
    }

    private let state: Mutex<State>

    /// A watch starting at `position`.
    public init(position: UInt64) {
        state = Mutex(State(position: position))
    }

    /// The current position.
    public var position: UInt64 { state.withLock { $0.position } }

    /// Moves the position to `newPosition` and wakes the waiters it satisfies.
    public func advance(to newPosition: UInt64) {
        move(to: newPosition, fromOneSource: true)
    }

    /// Moves the position to `newPosition` unless it is already there or past it: for a watch fed
    /// from more than one source (its own commits, another server's notifications), whose
    /// reports may arrive out of order.
    public func raise(to newPosition: UInt64) {
        move(to: newPosition, fromOneSource: false)
    }

    private func move(to newPosition: UInt64, fromOneSource: Bool) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            assert(!fromOneSource || newPosition >= state.position, "the position never moves back")
            guard newPosition > state.position else { return [] }
            state.position = newPosition
            var ready: [CheckedContinuation<Void, Never>] = []
            for (id, waiter) in state.waiters {
                if case let .waiting(target, continuation) = waiter, target <= newPosition {
                    ready.append(continuation)
                    state.waiters[id] = nil
                }
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    public func close() {
        let all = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isClosed = true
            defer { state.waiters = [:] }
            return state.waiters.values.compactMap {
                if case let .waiting(_, continuation) = $0 { continuation } else { nil }
            }
        }
        for continuation in all { continuation.resume() }
    }

    /// Returns once the position reaches `position`, the watch closes, or the task is cancelled.
    public func wait(untilReaching position: UInt64) async {
        let id = state.withLock { state in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.position >= position || state.isClosed { return true }
                    if case .cancelled = state.waiters[id] {
                        state.waiters[id] = nil
                        return true
                    }
                    state.waiters[id] = .waiting(target: position, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
                if case let .waiting(_, continuation) = state.waiters[id] {
                    state.waiters[id] = nil
                    return continuation
                }
                // Cancelled before the continuation was stored: leave a mark so it resumes at once.
                state.waiters[id] = .cancelled
                return nil
            }
            continuation?.resume()
        }
    }
}
