import EventSourcing
import Synchronization

/// Lets one command at a time decide and append on a boundary in this process; the others wait
/// their turn in arrival order.
///
/// Without it, four housemates completing tasks at once each fold the same state, all append on
/// the same condition, and all but one fail and decide again, up to `attemptsMax` times: under
/// load some ran out of attempts (409). Taking turns, the next command folds from the cache the
/// previous one left, which already includes its events, so its condition holds at the first
/// try. Appends of different boundaries still share group commits. Other processes writing the
/// same boundary are still caught by the append condition and retried.
final class BoundaryQueue: Sendable {
    struct Key: Hashable, Sendable {
        let decider: ObjectIdentifier
        let boundary: Boundary
    }

    /// For each boundary with a command deciding: the commands waiting behind it, in order.
    private let waiting = Mutex<[Key: [CheckedContinuation<Void, Never>]]>([:])
    private let queuedCount = Atomic<Int>(0)

    /// Returns once the caller holds `key`; every return must be paired with one `leave(key)`.
    func enter(_ key: Key) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = waiting.withLock { waiting -> Bool in
                guard waiting[key] != nil else {
                    waiting[key] = []
                    return true
                }
                waiting[key]!.append(continuation)
                queuedCount.add(1, ordering: .relaxed)
                return false
            }
            if admitted { continuation.resume() }
        }
    }

    /// Hands `key` to the next waiting command, or frees it.
    func leave(_ key: Key) {
        let next = waiting.withLock { waiting -> CheckedContinuation<Void, Never>? in
            guard var queue = waiting[key] else { preconditionFailure("leave without enter") }
            guard !queue.isEmpty else {
                waiting[key] = nil
                return nil
            }
            let next = queue.removeFirst()
            waiting[key] = queue
            return next
        }
        next?.resume()
    }

    /// Boundaries with a command deciding now.
    var busyBoundaries: Int { waiting.withLock { $0.count } }
    /// Commands that have had to wait for their turn so far.
    var queued: Int { queuedCount.load(ordering: .relaxed) }
}
