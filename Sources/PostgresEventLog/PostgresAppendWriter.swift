import Foundation
import EventLog
import Logging
import PostgresNIO
import Synchronization

/// Group commit for one server: appends that arrive while a transaction is in flight wait and
/// then share the next one, up to `appendsPerBatchMax` requests. One transaction at a time per
/// server; across servers the head row's lock orders them.
final class PostgresAppendWriter: Sendable {
    private struct Pending {
        var requests: [AppendRequest]
        var continuation: CheckedContinuation<[Result<AppendResult, EventLogError>], Never>
    }

    private struct State {
        var queue: [Pending] = []
        var isDraining = false
        var isClosed = false
        var idle: [CheckedContinuation<Void, Never>] = []
        var commits = 0
    }

    private let client: PostgresClient
    private let logger: Logger
    private let appendsPerBatchMax: Int
    private let clock: @Sendable () -> Date
    private let onCommit: @Sendable (UInt64) -> Void
    private let commitObserver: (@Sendable (GroupCommitReport) -> Void)?
    private let state = Mutex(State())

    init(
        client: PostgresClient, logger: Logger, appendsPerBatchMax: Int, clock: @escaping @Sendable () -> Date,
        onCommit: @escaping @Sendable (UInt64) -> Void, commitObserver: (@Sendable (GroupCommitReport) -> Void)?
    ) {
        precondition(appendsPerBatchMax >= 1, "a batch holds at least one append")
        self.client = client
        self.logger = logger
        self.appendsPerBatchMax = appendsPerBatchMax
        self.clock = clock
        self.onCommit = onCommit
        self.commitObserver = commitObserver
    }

    var isClosed: Bool { state.withLock { $0.isClosed } }
    var commits: Int { state.withLock { $0.commits } }

    /// Queues `requests` (in order, in one batch) and returns their outcomes once committed.
    func submit(_ requests: [AppendRequest]) async -> [Result<AppendResult, EventLogError>] {
        await withCheckedContinuation { continuation in
            let startDraining = state.withLock { state -> Bool? in
                if state.isClosed { return nil }
                state.queue.append(Pending(requests: requests, continuation: continuation))
                defer { state.isDraining = true }
                return !state.isDraining
            }
            switch startDraining {
            case nil: continuation.resume(returning: requests.map { _ in .failure(.closed) })
            case true?: Task { await self.drain() }
            case false?: break
            }
        }
    }

    /// Refuses appends from now on; those queued still run.
    func refuseNew() {
        state.withLock { $0.isClosed = true }
    }

    /// Refuses new appends and waits for the queued ones to finish.
    func close() async {
        await withCheckedContinuation { continuation in
            let drained = state.withLock { state -> Bool in
                state.isClosed = true
                if !state.isDraining { return true }
                state.idle.append(continuation)
                return false
            }
            if drained { continuation.resume() }
        }
    }

    private func drain() async {
        while true {
            let (batch, idle) = state.withLock { state -> ([Pending], [CheckedContinuation<Void, Never>]) in
                var taken: [Pending] = []
                var count = 0
                while let next = state.queue.first, taken.isEmpty || count + next.requests.count <= appendsPerBatchMax {
                    taken.append(state.queue.removeFirst())
                    count += next.requests.count
                }
                guard taken.isEmpty else { return (taken, []) }
                // Under the same lock as the take: a submit from now on starts a new drain.
                state.isDraining = false
                defer { state.idle = [] }
                return ([], state.idle)
            }
            guard !batch.isEmpty else {
                for continuation in idle { continuation.resume() }
                return
            }
            let outcomes = await commit(batch.flatMap(\.requests))
            var offset = 0
            for pending in batch {
                pending.continuation.resume(returning: Array(outcomes[offset..<(offset + pending.requests.count)]))
                offset += pending.requests.count
            }
        }
    }

    /// One transaction for `requests`; a failure of the database fails them all, and an append
    /// that failed so may have committed (retrying with its command id answers which).
    private func commit(_ requests: [AppendRequest]) async -> [Result<AppendResult, EventLogError>] {
        let started = ContinuousClock.now
        do {
            let (outcomes, head, eventsByType) = try await client.withTransaction(logger: logger) { connection in
                var batch = try await PostgresBatch.begin(requests, connection: connection, now: clock(), logger: logger)
                var outcomes: [Result<AppendResult, EventLogError>] = []
                outcomes.reserveCapacity(requests.count)
                for request in requests {
                    outcomes.append(try await batch.apply(request))
                }
                try await batch.finish()
                return (outcomes, batch.head, batch.eventsByType)
            }
            state.withLock { $0.commits += 1 }
            onCommit(head)
            commitObserver?(GroupCommitReport(
                requests: requests.count, eventsByType: eventsByType, commitDuration: ContinuousClock.now - started
            ))
            return outcomes
        } catch {
            let failure = PostgresEventStore.mapped(error)
            logger.error("append transaction failed", metadata: ["error": "\(failure)", "requests": "\(requests.count)"])
            return requests.map { _ in .failure(failure) }
        }
    }
}
