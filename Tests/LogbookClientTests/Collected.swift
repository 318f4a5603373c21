import Synchronization

/// What a task reading a stream has received so far, for the test to read while it runs.
final class Collected<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    func append(_ item: Element) { items.withLock { $0.append(item) } }
    var all: [Element] { items.withLock { $0 } }
    var last: Element? { items.withLock { $0.last } }

    /// Waits until `condition` holds for what was received.
    func until(_ what: String, timeout: Duration = .seconds(15), _ condition: ([Element]) -> Bool) async throws {
        try await poll(until: what, timeout: timeout) { condition(all) }
    }
}

/// Waits, looking every 20 ms, until `condition` holds; throws after `timeout`.
func poll(until what: String, timeout: Duration = .seconds(15), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { throw TimedOut(waitingFor: what) }
        try await Task.sleep(for: .milliseconds(20))
    }
}

struct TimedOut: Error {
    let waitingFor: String
}
