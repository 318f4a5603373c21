import Foundation
import LMDB

/// The event log on LMDB: one environment in `<dataDirectory>/log`.
///
/// Appends go to one writer thread (group commit); reads run on the caller's thread in their own
/// read-only snapshot and never wait for the writer. Several processes may open the same
/// directory; only one may write.
public final class LMDBEventStore: EventStore, @unchecked Sendable {
    /// The options the store was opened with.
    public let options: EventStoreOptions
    /// The LMDB environment's directory.
    public let path: String
    let environment: Environment
    let databases: LogDatabases
    private let writer: AppendWriter?
    private let writerLock: WriterLock?
    let headWatch: PositionWatch
    /// Whether reads look for an index tail: false only in the writer's process when the writer
    /// keeps none (`IndexTailPolicy.eventsMax` 0) and the log held none when it opened, so that no
    /// snapshot can hold one. A reader in another process cannot know, and always looks.
    let readsIndexTail: Bool
    /// What the write-ahead mode's recovery did when the store opened; nil when it did not run.
    public let writeAheadRecovery: WriteAheadRecovery?

    /// Opens the log in `dataDirectory`, creating it unless read-only.
    public init(dataDirectory: String, options: EventStoreOptions = EventStoreOptions()) throws(EventLogError) {
        self.options = options
        path = (dataDirectory as NSString).appendingPathComponent("log")
        if options.readOnly && !FileManager.default.fileExists(atPath: path + "/data.mdb") {
            throw .invalidArgument(field: "dataDirectory", reason: "\(dataDirectory) holds no event log")
        }
        if options.readOnly, try WriteAheadLog.awaitsRecovery(directory: path, bootID: options.bootID) {
            throw .unavailable(reason: Self.awaitsRecoveryReason)
        }
        if !options.readOnly {
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        // Before LMDB opens: a second writer is refused before it reads a head it cannot keep.
        writerLock = options.readOnly ? nil : try WriterLock(directory: path)
        // The write-ahead mode's recovery runs when it is asked for or was used last time.
        let writeAheadRecovers = !options.readOnly && (options.writeAhead || WriteAheadCheckpointFile.exists(in: path))
        let restored = writeAheadRecovers ? try WriteAheadLog.restoreAfterRestart(directory: path, bootID: options.bootID) : nil
        let pin: PinnedSnapshot?
        do {
            environment = try Environment(path: path, options: EnvironmentOptions(
                mapSizeBytes: options.mapSizeBytes,
                mapSizeMaxBytes: options.mapSizeMaxBytes,
                readOnly: options.readOnly,
                unsafeNoSync: options.unsafeNoSync
            ))
            // Before any write: the snapshot LMDB opened at must stay whole until a checkpoint.
            pin = writeAheadRecovers ? try environment.pinSnapshot() : nil
        } catch {
            throw .storage(error)
        }
        var databases = try LogDatabases(environment: environment)
        try databases.checkFormat(environment)
        self.databases = databases
        var writeAhead: WriteAheadLog?
        if let pin {
            (writeAheadRecovery, writeAhead) = try WriteAheadLog.recover(
                directory: path, restored: restored, environment: environment, databases: databases, pin: pin, options: options)
        } else {
            writeAheadRecovery = nil
        }
        let last = try Self.lastEvent(environment, databases)
        headWatch = PositionWatch(position: last?.position ?? 0)
        if options.readOnly {
            writer = nil
            readsIndexTail = true
        } else {
            let watch = headWatch
            // A writable store has migrated, so it has the chain; the writer continues it.
            guard let chainHead = try Self.chainHead(environment, databases) else { throw .readOnly }
            // A tail a stopped writer left is written by the first batch, whatever the policy now.
            let environment = environment
            let (tail, storedTailStart) = try LogDatabases.mapStorage {
                try environment.read { txn in
                    let start = try IndexTail.storedStart(databases, txn)
                    return (try start.map { try IndexTail.read(databases, txn, from: $0) } ?? IndexTail(startingAt: 0), start)
                }
            }
            readsIndexTail = options.indexTail.defers || storedTailStart != nil
            writer = AppendWriter(
                environment: environment, databases: databases, head: last?.position ?? 0,
                chainHash: chainHead.hash, lastRecordedAtMicroseconds: last?.recordedAtMicroseconds ?? 0,
                appendsPerBatchMax: options.limits.appendsPerBatchMax, clock: options.clock,
                onCommit: { watch.advance(to: $0) }, commitObserver: options.commitObserver, writeAhead: writeAhead,
                tail: tail, storedTailStart: storedTailStart, indexTail: options.indexTail
            )
        }
    }

    deinit {
        close()
    }

    /// Why a read-only open refuses a log the write-ahead mode must recover first.
    static let awaitsRecoveryReason =
        "the log was written in the write-ahead mode and the machine restarted before it was recovered; "
        + "open it for writing once (start logbook serve on it) to recover it, then read it"

    private static func lastEvent(
        _ environment: Environment, _ databases: LogDatabases
    ) throws(EventLogError) -> (position: UInt64, recordedAtMicroseconds: Int64)? {
        try LogDatabases.mapStorage {
            try environment.read { txn in
                try txn.withCursor(databases.events) { cursor in
                    guard let last = try cursor.last() else { return nil }
                    let position = IndexKeys.uint64(last.key)
                    return (position, try RecordView(last.value, position: position).recordedAtMicroseconds)
                }
            }
        }
    }

    /// Stops accepting appends after finishing those queued, and ends every subscription once it
    /// has delivered what is stored. Reads keep working. Calling it again does nothing.
    public func close() {
        writer?.close()
        writerLock?.release()  // after the queue drained: no append of ours can still land
        headWatch.close()
    }

    public func append(_ request: AppendRequest) async throws(EventLogError) -> AppendResult {
        try await append(contentsOf: [request])[0].get()
    }

    public func append(contentsOf requests: [AppendRequest]) async -> [Result<AppendResult, EventLogError>] {
        guard let writer else { return requests.map { _ in .failure(.readOnly) } }
        return await options.limits.appendingValid(requests) { valid in
            await withCheckedContinuation { continuation in
                writer.submit(valid) { continuation.resume(returning: $0) }
            }
        }
    }

    public var commitCount: Int { writer?.commits.load(ordering: .relaxed) ?? 0 }

    /// The index tail as this process's writer last committed it; nil in a read-only store.
    var publishedTail: PublishedTail? { writer?.publishedTail }

    /// The LMDB environment's map size and use now (`mdb_env_info`, `mdb_env_stat`): cheap, for metrics.
    public var environmentInfo: EnvironmentInfo { environment.info() }

    /// Appends waiting for the writer, not yet taken into a batch (0 when read-only).
    public var queuedAppends: Int { writer?.queuedRequests ?? 0 }

    public func headPosition() throws(EventLogError) -> UInt64 {
        // Another process may be the writer, so a read-only store asks LMDB each time.
        guard options.readOnly else { return headWatch.position }
        return try Self.lastEvent(environment, databases)?.position ?? 0
    }

    public func subscribe(from position: UInt64) -> EventSubscription {
        EventSubscription(store: self, from: max(position, 1))
    }

    /// Returns once an event at `position` may exist: at once after a commit reaches it here,
    /// after a poll interval when another process writes. False when no more will come.
    func waitForEvent(at position: UInt64) async -> Bool {
        if options.readOnly {
            try? await Task.sleep(for: .milliseconds(options.pollIntervalMilliseconds))
            return !Task.isCancelled
        }
        await headWatch.wait(untilReaching: position)
        return headWatch.position >= position
    }
}
