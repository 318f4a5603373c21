import Synchronization

/// The last committed position, with waiters for it to pass a mark.
///
/// Subscribers read the log themselves and wait here only when caught up, so a slow subscriber
/// never holds up the writer: the writer's whole cost is one `advance` per commit.
final class HeadWatch: Sendable {
    private enum Waiter {
        case waiting(target: UInt64, continuation: CheckedContinuation<Void, Never>)
        case cancelled
    }

    private struct State {
        var head: UInt64
        var isClosed = false
        var waiters: [Int: Waiter] = [:]
        var nextWaiterID = 0
    }

    private let state: Mutex<State>

    init(head: UInt64) {
        state = Mutex(State(head: head))
    }

    /// The last committed position.
    var head: UInt64 { state.withLock { $0.head } }

    /// Records a commit and wakes the waiters it satisfies.
    func advance(to head: UInt64) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            assert(head >= state.head, "the head never moves back")
            state.head = head
            var ready: [CheckedContinuation<Void, Never>] = []
            for (id, waiter) in state.waiters {
                if case let .waiting(target, continuation) = waiter, target <= head {
                    ready.append(continuation)
                    state.waiters[id] = nil
                }
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Wakes every waiter for good: nothing more will be committed.
    func close() {
        let all = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isClosed = true
            defer { state.waiters = [:] }
            return state.waiters.values.compactMap {
                if case let .waiting(_, continuation) = $0 { continuation } else { nil }
            }
        }
        for continuation in all { continuation.resume() }
    }

    /// Returns once the head reaches `position`, the watch closes, or the task is cancelled.
    func wait(untilHeadReaches position: UInt64) async {
        let id = state.withLock { state in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.head >= position || state.isClosed { return true }
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
