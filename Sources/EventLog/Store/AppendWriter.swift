import Foundation
import LMDB
import Synchronization

/// The log's only writer: a dedicated thread that drains queued appends into one write
/// transaction and one durable commit (group commit), then answers every request of the batch.
///
/// LMDB write transactions must begin and commit on one thread, which a dedicated thread gives
/// by construction. Requests are answered only after `mdb_txn_commit` has returned, and that
/// call fsyncs: an acknowledged append is on disk.
final class AppendWriter: @unchecked Sendable {
    typealias Completion = @Sendable (Result<AppendResult, EventLogError>) -> Void

    private struct Pending {
        let request: AppendRequest
        let completion: Completion
    }

    private let environment: Environment
    private let databases: LogDatabases
    private let appendsPerBatchMax: Int
    private let clock: @Sendable () -> Date
    private let onCommit: @Sendable (UInt64) -> Void
    private let commitObserver: (@Sendable (GroupCommitReport) -> Void)?
    /// The write-ahead mode's file and checkpoints; nil when each LMDB commit syncs itself.
    /// Used on the writer thread only.
    private let writeAhead: WriteAheadLog?
    /// Set when a frame the log did not commit could not be taken back from the write-ahead
    /// file: appending more could let a refused batch reappear at the next start, so none is taken.
    private var writeAheadBroken = false

    /// Guards `pending` and `isClosed`; the writer thread sleeps on it when idle.
    private let condition = NSCondition()
    private var pending: [Pending] = []
    private var isClosed = false
    private let stopped = DispatchSemaphore(value: 0)
    /// Write transactions committed so far: how many requests shared a commit is what group
    /// commit is for, and tests count it.
    let commits = Atomic<Int>(0)

    // Owned by the writer thread once it runs.
    private var head: UInt64
    /// The chain hash at `head`, which the next event's hash covers.
    private var chainHash: [UInt8]
    private var lastRecordedAtMicroseconds: Int64
    /// The events whose index entries wait to be written together (docs/decisions/0008), and
    /// where `meta` says they start (nil: it says there is no tail).
    private var tail: IndexTail
    private var storedTailStart: UInt64?
    /// `tail` and `storedTailStart` for the readers of this process, set after each commit.
    private let published: Mutex<PublishedTail>
    /// When the tail is written: at this many events, or when no append waits; 0 writes every
    /// batch's entries in its own commit.
    private let indexTail: IndexTailPolicy

    init(
        environment: Environment, databases: LogDatabases, head: UInt64, chainHash: [UInt8], lastRecordedAtMicroseconds: Int64,
        appendsPerBatchMax: Int, clock: @escaping @Sendable () -> Date, onCommit: @escaping @Sendable (UInt64) -> Void,
        commitObserver: (@Sendable (GroupCommitReport) -> Void)? = nil, writeAhead: WriteAheadLog? = nil,
        tail: IndexTail, storedTailStart: UInt64?, indexTail: IndexTailPolicy
    ) {
        self.tail = tail
        self.storedTailStart = storedTailStart
        published = Mutex(PublishedTail(storedStart: storedTailStart, tail: tail))
        self.indexTail = indexTail
        self.environment = environment
        self.databases = databases
        self.head = head
        self.chainHash = chainHash
        self.lastRecordedAtMicroseconds = lastRecordedAtMicroseconds
        self.appendsPerBatchMax = appendsPerBatchMax
        self.clock = clock
        self.onCommit = onCommit
        self.commitObserver = commitObserver
        self.writeAhead = writeAhead
        let thread = Thread { [self] in run() }
        thread.name = "logbook-writer"
        thread.start()
    }

    /// Queues `requests` one after the other, with nothing between them, so a request that
    /// `follows` an earlier one is applied after it. `completion` gets their outcomes in order
    /// once the last is durable.
    func submit(_ requests: [AppendRequest], completion: @escaping @Sendable ([Result<AppendResult, EventLogError>]) -> Void) {
        precondition(!requests.isEmpty, "at least one request")
        let outcomes = OutcomeCollector(count: requests.count, completion: completion)
        condition.lock()
        guard !isClosed else {
            condition.unlock()
            for index in requests.indices { outcomes.set(.failure(.closed), at: index) }
            return
        }
        for (index, request) in requests.enumerated() {
            pending.append(Pending(request: request) { outcomes.set($0, at: index) })
        }
        condition.signal()
        condition.unlock()
    }

    /// Stops accepting appends, finishes those already queued, and waits for the thread to end.
    func close() {
        condition.lock()
        let wasClosed = isClosed
        isClosed = true
        condition.signal()
        condition.unlock()
        if !wasClosed { stopped.wait() }
    }

    private func run() {
        while let batch = nextBatch() {
            let outcomes = commit(batch.map(\.request))
            assert(outcomes.count == batch.count, "every request gets exactly one outcome")
            // Publish the head first, so a caller that sees its append acknowledged also sees
            // the head (and subscriptions) covering it.
            onCommit(head)
            for (pending, outcome) in zip(batch, outcomes) { pending.completion(outcome) }
            checkpointIfDue()
        }
        // A last checkpoint: the next start has nothing to replay.
        writeAhead?.close()
        stopped.signal()
    }

    /// A checkpoint of the write-ahead mode when its policy says so. One that fails is tried
    /// again later: the write-ahead file keeps every frame since the last one meanwhile.
    private func checkpointIfDue() {
        guard let writeAhead, !writeAheadBroken else { return }
        try? writeAhead.checkpointIfDue(idle: queuedRequests == 0)
    }

    /// Waits for work; nil once closed and drained. While the write-ahead mode has commits
    /// since its last checkpoint, the wait ends at the idle checkpoint's deadline to take it.
    private func nextBatch() -> [Pending]? {
        condition.lock()
        while pending.isEmpty && !isClosed {
            if let deadline = writeAhead?.idleCheckpointDeadline, !writeAheadBroken {
                let left = (deadline - .now).components
                let seconds = Double(left.seconds) + Double(left.attoseconds) / 1e18
                if seconds <= 0 || !condition.wait(until: Date(timeIntervalSinceNow: seconds)) {
                    condition.unlock()
                    checkpointIfDue()
                    condition.lock()
                }
            } else {
                condition.wait()
            }
        }
        defer { condition.unlock() }
        if pending.isEmpty { return nil }
        let count = min(pending.count, appendsPerBatchMax)
        let batch = Array(pending.prefix(count))
        pending.removeFirst(count)
        return batch
    }

    private func commit(_ requests: [AppendRequest]) -> [Result<AppendResult, EventLogError>] {
        // recordedAt never goes backwards along the log, even if the wall clock does.
        let now = max(clock().microsecondsSince1970, lastRecordedAtMicroseconds)
        do {
            return try commit(requests, at: now, isolated: false)
        } catch {
            // The transaction was aborted: nothing of the batch was written. One request's
            // storage failure (a key LMDB refuses, more pages than the map has left) must not
            // fail the others, so a batch of several is applied again with each request in a
            // nested transaction. Rare, so the common batch pays nothing for it.
            guard requests.count > 1 else { return [.failure(EventLogError(error))] }
            do {
                return try commit(requests, at: now, isolated: true)
            } catch {
                return Array(repeating: .failure(EventLogError(error)), count: requests.count)
            }
        }
    }

    /// Applies `requests` in one write transaction and commits it; throws when nothing was written.
    private func commit(_ requests: [AppendRequest], at now: Int64, isolated: Bool) throws -> [Result<AppendResult, EventLogError>] {
        guard !writeAheadBroken else { throw EventLogError.unavailable(reason: "the write-ahead file could not take back a frame") }
        var wroteAhead = false
        let (outcomes, newHead, newChainHash, applied): ([Result<AppendResult, EventLogError>], UInt64, [UInt8], ContinuousClock.Instant)
        let (newTail, newStoredTailStart): (IndexTail, UInt64?)
        do {
            (outcomes, newHead, newChainHash, applied, newTail, newStoredTailStart) = try environment.write { txn in
                var applier = BatchApplier(
                    databases: databases, transaction: txn, head: head, chainHash: chainHash, recordedAtMicroseconds: now,
                    keepsPuts: writeAhead != nil, tail: tail,
                    defersIndexes: indexTail.defers(after: tail, requests: requests.count, appendsWaiting: { queuedRequests > 0 })
                )
                let outcomes = try requests.map { request in
                    isolated ? try applier.applyIsolated(request, failsTheBatch: failsTheBatch) : try applier.apply(request)
                }
                let storedStart = try applier.finish(
                    flush: indexTail.flushes(applier.tail, appendsWaiting: { queuedRequests > 0 }), storedStart: storedTailStart)
                let applied = ContinuousClock.now
                // Durable before LMDB commits, so no reader ever sees a batch a power failure could undo.
                if let writeAhead, let puts = applier.puts, !puts.isEmpty {
                    try writeAhead.write(puts, in: txn)
                    wroteAhead = true
                }
                // What follows the closure is `mdb_txn_commit`: the time from `applied` is the commit's.
                return (outcomes, applier.head, applier.chainHash, applied, applier.tail, storedStart)
            }
        } catch {
            if wroteAhead {
                do {
                    try writeAhead?.withdraw()
                } catch {
                    writeAheadBroken = true
                }
            }
            throw error
        }
        if wroteAhead { writeAhead?.committed() }
        let committed = ContinuousClock.now
        commits.add(1, ordering: .relaxed)
        assert(newHead >= head, "positions only grow")
        if newHead > head { lastRecordedAtMicroseconds = now }
        head = newHead
        // Only a committed transaction moves the chain and the tail on: an aborted one leaves
        // them where they were.
        chainHash = newChainHash
        tail = newTail
        storedTailStart = newStoredTailStart
        published.withLock { $0 = PublishedTail(storedStart: newStoredTailStart, tail: newTail) }
        if let commitObserver { commitObserver(report(requests, outcomes, commitDuration: committed - applied)) }
        return outcomes
    }

    /// The batch's size, the events it wrote by type, and its commit's duration.
    private func report(
        _ requests: [AppendRequest], _ outcomes: [Result<AppendResult, EventLogError>], commitDuration: Duration
    ) -> GroupCommitReport {
        var eventsByType: [String: Int] = [:]
        for (request, outcome) in zip(requests, outcomes) {
            guard case let .success(result) = outcome, !result.isReplay else { continue }
            for event in request.events { eventsByType[event.type, default: 0] += 1 }
        }
        return GroupCommitReport(requests: requests.count, eventsByType: eventsByType, commitDuration: commitDuration)
    }

    /// Whether a request's failure in its nested transaction must stop the whole batch: when the
    /// map is full but may still grow (`Environment.write` grows it and runs the batch again),
    /// or another process resized it. Anything else is that request's own failure.
    private func failsTheBatch(_ error: any Error) -> Bool {
        switch error {
        case LMDBError.mapFull: environment.info().mapSizeBytes < environment.options.mapSizeMaxBytes
        case LMDBError.mapResized: true
        default: false
        }
    }

    /// The tail as the last commit left it.
    var publishedTail: PublishedTail {
        published.withLock { $0 }
    }

    /// Requests queued and not yet taken into a batch.
    var queuedRequests: Int {
        condition.lock()
        defer { condition.unlock() }
        return pending.count
    }
}

/// Gathers the outcomes of requests submitted together and hands them over once all are in.
private final class OutcomeCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var outcomes: [Result<AppendResult, EventLogError>?]
    private var missing: Int
    private let completion: @Sendable ([Result<AppendResult, EventLogError>]) -> Void

    init(count: Int, completion: @escaping @Sendable ([Result<AppendResult, EventLogError>]) -> Void) {
        outcomes = Array(repeating: nil, count: count)
        missing = count
        self.completion = completion
    }

    func set(_ outcome: Result<AppendResult, EventLogError>, at index: Int) {
        let done = lock.withLock { () -> [Result<AppendResult, EventLogError>]? in
            precondition(outcomes[index] == nil, "one outcome per request")
            outcomes[index] = outcome
            missing -= 1
            return missing == 0 ? outcomes.map { $0! } : nil
        }
        if let done { completion(done) }
    }
}
