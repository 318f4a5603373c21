import Foundation

/// Values sent to every current listener, each listening through its own AsyncStream; a new
/// listener first gets the latest value. What SessionState and the outbox's wake-ups need.
final class Broadcast<Value: Sendable>: Sendable {
    private struct State {
        var latest: Value
        var listeners: [UUID: AsyncStream<Value>.Continuation] = [:]
    }

    private let state: Locked<State>

    init(_ initial: Value) { state = Locked(State(latest: initial)) }

    var latest: Value { state.withLock { $0.latest } }

    func send(_ value: Value) {
        let listeners = state.withLock { state -> [AsyncStream<Value>.Continuation] in
            state.latest = value
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.yield(value) }
    }

    func stream() -> AsyncStream<Value> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let latest = state.withLock { state -> Value in
            state.listeners[id] = continuation
            return state.latest
        }
        continuation.yield(latest)
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }
}
