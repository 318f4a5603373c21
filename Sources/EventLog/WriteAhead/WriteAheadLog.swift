import Foundation
import LMDB
import Synchronization

/// The log's write-ahead mode (ADR 0006): a batch's writes are made durable by one frame of the
/// write-ahead file and one `fdatasync`, and LMDB commits them without syncing. A checkpoint
/// syncs LMDB, saves a copy of its meta pages (`WriteAheadCheckpointFile`) and pins that
/// snapshot with a read transaction, so LMDB never overwrites a page of it until the next
/// checkpoint: the disk always holds the checkpoint whole. After a power failure (the machine
/// booted since the checkpoint), the saved meta pages go back over `data.mdb` before LMDB opens,
/// and the frames after the checkpoint are applied again. After a crash of the process alone,
/// the operating system kept every write, so LMDB is as it was and only the frames it had not
/// committed are applied.
///
/// LMDB's `meta` table holds the sequence of the last frame applied, written in the same
/// transaction as the frame's writes, so both cases find where to start.
final class WriteAheadLog {
    /// When a checkpoint is due. Each checkpoint syncs what LMDB wrote since the last one, and
    /// until it ends LMDB cannot reuse a page freed since (the file grows by that much: about
    /// 90 KB per one-event commit). Its sync slows the write-ahead file's flushes while it runs:
    /// every 256 commits, one writer's p99 was 2.2–3.3 ms; every 1,024, 0.42 ms
    /// (docs/benchmarks.md, issue 17).
    struct Policy: Sendable {
        var commitsPerCheckpointMax = 1_024
        var recordBytesPerCheckpointMax = 8 << 20
        /// With no batch waiting, a checkpoint is begun this long after the last one if anything
        /// was committed since, so that a quiet log needs no replay at its next start.
        var idleCheckpointAfter: Duration = .milliseconds(200)
        /// Each write-ahead file is made this big (of zeros) when created.
        var preallocatedBytes = 16 << 20
        /// After this many commits, the kernel is told to start writing LMDB's new pages to the
        /// device (`WritebackStarter`), so a checkpoint's sync finds little left to write and
        /// the write-ahead file's flushes do not queue behind a burst of it. 0: never; the
        /// checkpoints' syncs write them all.
        var commitsPerWritebackStart = 1
    }

    static let appliedKey = Array("write-ahead-sequence".utf8)

    private let directory: String
    private let environment: Environment
    private let databases: LogDatabases
    private let bootID: String
    private let policy: Policy
    private let checkpoints: WriteAheadCheckpointFile
    private let files: [WriteAheadFile]
    /// The file frames go to now.
    private var current: Int
    /// The snapshot of the last checkpoint that ended, pinned.
    private var pin: PinnedSnapshot
    private var generation: UInt64
    private var commitsSinceCheckpoint = 0
    private var lastCheckpoint = ContinuousClock.now
    /// The checkpoint running on `checkpointQueue`, if any: its pin, and its outcome once it ends.
    private var running: (pin: PinnedSnapshot, outcome: CheckpointOutcome)?
    private let checkpointQueue = DispatchQueue(label: "logbook-checkpoint")
    /// Set when a checkpoint failed: the next one runs in place, on the writer, covering both files.
    private var checkpointFailed = false
    private let writeback: WritebackStarter?

    // MARK: Opening

    /// Before LMDB opens the log in `directory`: if the machine has booted since the last
    /// checkpoint (or the boot is unknown), its meta pages go back over `data.mdb`, so LMDB opens
    /// at a snapshot the disk is known to hold whole. Returns the latest checkpoint, and whether
    /// it was put back.
    static func restoreAfterRestart(directory: String, bootID: String?) throws(EventLogError) -> (checkpoint: WriteAheadCheckpoint, restored: Bool)? {
        // The first checkpoint is written before the first frame: without one, LMDB's commits
        // were all synced ones.
        guard let checkpoint = try WriteAheadCheckpointFile.latest(in: directory) else { return nil }
        if checkpoint.isOfBoot(bootID) { return (checkpoint, false) }
        try LMDBMetaPages.restore(checkpoint.metaPages, to: (directory as NSString).appendingPathComponent("data.mdb"))
        return (checkpoint, true)
    }

    /// Whether the log in `directory` must be recovered (opened for writing) before anything
    /// reads it: the machine has restarted (`bootID` is not the last checkpoint's) and LMDB
    /// committed frames after that checkpoint without syncing them, so `data.mdb` may hold some
    /// of their pages and not others (a torn B-tree) until the checkpoint is put back and the
    /// frames applied again. A read-only reader can do neither, and must not read it as it is.
    ///
    /// No frame after the checkpoint means no commit since its sync: the file is whole as it
    /// is. Reads only; throws when the write-ahead files cannot be read.
    static func awaitsRecovery(directory: String, bootID: String?) throws(EventLogError) -> Bool {
        guard let checkpoint = try WriteAheadCheckpointFile.latest(in: directory) else { return false }
        if checkpoint.isOfBoot(bootID) { return false }
        return try !WriteAheadFile.frames(in: directory, first: checkpoint.file, after: checkpoint.sequence).isEmpty
    }

    /// The sequence of the last frame LMDB holds (0: none).
    static func appliedSequence(_ environment: Environment, _ databases: LogDatabases) throws(EventLogError) -> UInt64 {
        try LogDatabases.mapStorage {
            try environment.read { txn in
                try txn.get(databases.meta, appliedKey).map { IndexKeys.uint64($0) } ?? 0
            }
        }
    }

    /// Applies the frames LMDB does not hold, in one synced commit, reading from the file
    /// `first` (the last checkpoint's) on. Returns how many were applied.
    static func replay(directory: String, first: Int, environment: Environment, databases: LogDatabases) throws(EventLogError) -> Int {
        let applied = try appliedSequence(environment, databases)
        let frames = try WriteAheadFile.frames(in: directory, first: first, after: applied)
        guard let last = frames.last else { return 0 }
        try LogDatabases.mapStorage {
            try environment.write { txn in
                for frame in frames {
                    for put in frame.puts {
                        guard let database = databases.database(put.table) else {
                            throw EventLogError.corruptRecord(position: 0, reason: "write-ahead frame \(frame.sequence) writes the chain of a log without one")
                        }
                        try txn.put(database, put.key, put.value)
                    }
                }
                try txn.put(databases.meta, appliedKey, IndexKeys.writeAheadSequence(last.sequence))
            }
        }
        return frames.count
    }

    /// After LMDB opened at the snapshot `restoreAfterRestart` left (`restored`, nil: no
    /// checkpoint yet) and `pin` holds it: checks the snapshot, applies the frames LMDB lacks,
    /// then goes on in the mode (`options.writeAhead`) or leaves it.
    static func recover(
        directory: String, restored: (checkpoint: WriteAheadCheckpoint, restored: Bool)?, environment: Environment,
        databases: LogDatabases, pin: PinnedSnapshot, options: EventStoreOptions
    ) throws(EventLogError) -> (WriteAheadRecovery, WriteAheadLog?) {
        var replayed = 0
        if let (checkpoint, putBack) = restored {
            if putBack, try appliedSequence(environment, databases) != checkpoint.sequence {
                throw .corruptRecord(position: 0, reason: "LMDB reopened at its last checkpoint does not hold write-ahead frame \(checkpoint.sequence)")
            }
            replayed = try replay(directory: directory, first: checkpoint.file, environment: environment, databases: databases)
        }
        let recovery = WriteAheadRecovery(restoredCheckpoint: restored?.restored ?? false, replayedFrames: replayed)
        guard options.writeAhead else {
            try retire(directory: directory, environment: environment)
            pin.release()
            return (recovery, nil)
        }
        let log = try WriteAheadLog(
            directory: directory, environment: environment, databases: databases, pin: pin, bootID: options.bootID, policy: options.writeAheadPolicy)
        return (recovery, log)
    }

    /// Takes over `pin` (the snapshot LMDB opened at, pinned before any write), makes the files
    /// if missing, and checkpoints at once: the caller has replayed what needed replaying.
    private init(
        directory: String, environment: Environment, databases: LogDatabases, pin: PinnedSnapshot, bootID: String?,
        policy: Policy = Policy()
    ) throws(EventLogError) {
        self.directory = directory
        self.environment = environment
        self.databases = databases
        // An unknown boot never matches, so every start after one restores the checkpoint.
        self.bootID = bootID ?? "unknown-\(UUID().uuidString)"
        self.policy = policy
        self.pin = pin
        checkpoints = try WriteAheadCheckpointFile(directory: directory)
        precondition(policy.commitsPerWritebackStart >= 0, "a count of commits")
        writeback = policy.commitsPerWritebackStart > 0
            ? WritebackStarter(descriptor: try LogDatabases.mapStorage { try environment.dataFileDescriptor() }) : nil
        let latest = try checkpoints.latest()
        generation = latest?.generation ?? 0
        current = latest?.file ?? 0
        let applied = try Self.appliedSequence(environment, databases)
        files = try [0, 1].map { index throws(EventLogError) in try WriteAheadFile(directory: directory, index: index, lastSequence: applied, preallocatedBytes: policy.preallocatedBytes) }
        try checkpointInPlace()
        // From here LMDB's commits are made durable by the write-ahead files and the checkpoints.
        try LogDatabases.mapStorage { try environment.syncOnlyWhenAsked() }
    }

    /// Leaves the write-ahead mode, for a log opened without it, after `replay`: LMDB is
    /// synced, then the checkpoint file goes (nothing is restored from now on), then the
    /// write-ahead files.
    private static func retire(directory: String, environment: Environment) throws(EventLogError) {
        try LogDatabases.mapStorage { try environment.sync() }
        for name in [WriteAheadCheckpointFile.name, WriteAheadFile.name(0), WriteAheadFile.name(1)] {
            unlink((directory as NSString).appendingPathComponent(name))
        }
        try RawFile.syncDirectory(directory)
    }

    // MARK: Appending

    /// Inside the batch's write transaction, after its writes: records the sequence in LMDB and
    /// writes the frame durably. LMDB may run the batch again (map grown); the same sequence is
    /// then written again. `committed()` or `withdraw()` must follow.
    func write(_ puts: [WriteAheadPut], in txn: WriteTransaction) throws {
        try txn.put(databases.meta, Self.appliedKey, IndexKeys.writeAheadSequence(files[current].lastSequence + 1))
        try files[current].write(puts)
    }

    func committed() {
        files[current].committed()
        commitsSinceCheckpoint += 1
        if let writeback, commitsSinceCheckpoint % policy.commitsPerWritebackStart == 0 { writeback.start() }
    }

    /// The batch's transaction did not commit: its frame must never be applied.
    func withdraw() throws(EventLogError) {
        try files[current].withdraw()
    }

    // MARK: Checkpoints

    /// When the writer should next look in if no batch comes: a checkpoint running (to end it),
    /// or commits since the last one (to begin one); nil when nothing awaits.
    var idleCheckpointDeadline: ContinuousClock.Instant? {
        if running != nil { return .now + .milliseconds(5) }
        return commitsSinceCheckpoint > 0 ? lastCheckpoint + policy.idleCheckpointAfter : nil
    }

    /// On the writer's thread between batches: ends a checkpoint that has finished, and begins
    /// one if the policy says so; `idle` when no batch waits.
    func checkpointIfDue(idle: Bool) throws(EventLogError) {
        try endCheckpointIfFinished()
        guard running == nil, commitsSinceCheckpoint > 0 else { return }
        let due = commitsSinceCheckpoint >= policy.commitsPerCheckpointMax
            || files[current].endOffset >= policy.recordBytesPerCheckpointMax
            || (idle && ContinuousClock.now >= lastCheckpoint + policy.idleCheckpointAfter)
        guard due else { return }
        do {
            if checkpointFailed {
                try checkpointInPlace()
            } else {
                try beginCheckpoint()
            }
        } catch {
            lastCheckpoint = .now  // tried again after another interval, not at once
            throw error
        }
    }

    /// Begins a checkpoint of the last commit that syncs on another thread while appends go on:
    /// the snapshot is pinned and its meta pages copied here (no transaction is open, so both
    /// are of the last commit), and the frames after it go to the other file from now on.
    private func beginCheckpoint() throws(EventLogError) {
        let sequence = files[current].lastSequence
        let (newPin, checkpoint) = try checkpointOfLastCommit(sequence: sequence, recordsAfterIn: 1 - current)
        current = 1 - current
        files[current].restart(after: sequence)
        let outcome = CheckpointOutcome()
        running = (newPin, outcome)
        commitsSinceCheckpoint = 0
        lastCheckpoint = .now
        let environment = environment, checkpoints = checkpoints
        checkpointQueue.async {
            // Every page of the snapshot was written before its commit returned, so this sync
            // covers it; pages of later commits it covers too do no harm.
            let result: Result<Void, EventLogError>
            do {
                try environment.sync()
                try checkpoints.write(checkpoint)
                result = .success(())
            } catch {
                result = .failure(EventLogError(error))
            }
            outcome.result.withLock { $0 = result }
        }
    }

    /// Ends the running checkpoint if it has finished: on success the previous snapshot's pages
    /// may be reused and the file left behind is free; on failure the next checkpoint runs in
    /// place (the file left behind still holds frames the last checkpoint does not cover).
    private func endCheckpointIfFinished() throws(EventLogError) {
        guard let (newPin, outcome) = running, let result = outcome.result.withLock({ $0 }) else { return }
        running = nil
        switch result {
        case .success:
            pin.release()
            pin = newPin
        case let .failure(error):
            newPin.release()
            checkpointFailed = true
            throw error
        }
    }

    /// A checkpoint of the last commit, synced here: it covers every frame of both files, so
    /// writing starts again at the current file's start.
    private func checkpointInPlace() throws(EventLogError) {
        let sequence = files[current].lastSequence
        let (newPin, checkpoint) = try checkpointOfLastCommit(sequence: sequence, recordsAfterIn: current)
        try LogDatabases.mapStorage { try environment.sync() }
        try checkpoints.write(checkpoint)
        // Only now may the pages of the previous checkpoint's snapshot be reused.
        pin.release()
        pin = newPin
        files[current].restart(after: sequence)
        commitsSinceCheckpoint = 0
        lastCheckpoint = .now
        checkpointFailed = false
    }

    /// Pins the last commit's snapshot and describes it as the next checkpoint, with a copy of
    /// its meta pages (from the page cache: no transaction is open, so they are the last
    /// commit's). Not yet durable: its data file must be synced before it is written.
    private func checkpointOfLastCommit(sequence: UInt64, recordsAfterIn file: Int) throws(EventLogError) -> (PinnedSnapshot, WriteAheadCheckpoint) {
        let pin = try LogDatabases.mapStorage { try environment.pinSnapshot() }
        let metaPages = try LMDBMetaPages.read(dataFile, pageSizeBytes: environment.info().pageSizeBytes)
        generation += 1
        return (pin, WriteAheadCheckpoint(generation: generation, sequence: sequence, file: file, bootID: bootID, metaPages: metaPages))
    }

    private var dataFile: String { (directory as NSString).appendingPathComponent("data.mdb") }

    /// Waits for a running checkpoint, then checkpoints in place (the next start has nothing to
    /// replay), then closes the files.
    func close() {
        writeback?.finish()
        checkpointQueue.sync {}
        try? endCheckpointIfFinished()
        try? checkpointInPlace()
        pin.release()
        for file in files { file.close() }
        checkpoints.close()
    }
}

/// How a checkpoint running on another thread ended; nil until it has.
private final class CheckpointOutcome: Sendable {
    let result = Mutex<Result<Void, EventLogError>?>(nil)
}

/// What the write-ahead mode's recovery did when a store opened.
public struct WriteAheadRecovery: Sendable, Equatable {
    /// The machine had restarted since the last checkpoint (or its boot was unknown), so LMDB
    /// was reopened at that checkpoint's snapshot.
    public let restoredCheckpoint: Bool
    /// Frames of the write-ahead file applied to LMDB.
    public let replayedFrames: Int
}
