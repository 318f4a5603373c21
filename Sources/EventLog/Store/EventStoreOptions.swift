import Foundation

/// How an `LMDBEventStore` is opened.
public struct EventStoreOptions: Sendable {
    /// Initial map size; it grows (doubling) when full, up to `mapSizeMaxBytes`.
    public var mapSizeBytes: Int = 1 << 30
    /// The largest the log may grow.
    public var mapSizeMaxBytes: Int = 1 << 40
    /// Open for reading only (operator tools on a directory a server writes to).
    public var readOnly = false
    /// Skip fsync on commit: for benchmarks that isolate CPU cost and tests that do not test
    /// durability. Never in a server.
    public var unsafeNoSync = false
    /// The log's limits.
    public var limits = EventLogLimits()
    /// The clock stamping `recordedAt`; injectable so tests control time.
    public var clock: @Sendable () -> Date = { Date() }
    /// How often a subscription of a read-only store looks for events another process appended.
    public var pollIntervalMilliseconds = 100
    /// Told of every write transaction the writer commits, on the writer's thread, after the
    /// commit and before the appends are answered: it must be quick and must not block (count,
    /// never wait). Nil: nobody is told.
    public var commitObserver: (@Sendable (GroupCommitReport) -> Void)?

    /// The write-ahead mode (ADR 0006): each batch is made durable by one frame of `log/wal`
    /// and one flush, LMDB commits without syncing, and checkpoints sync it. Off: each LMDB
    /// commit syncs itself (two flushes). A log that was written in this mode and is opened
    /// without it is recovered first and leaves it.
    public var writeAhead = false
    /// When the write-ahead mode checkpoints.
    var writeAheadPolicy = WriteAheadLog.Policy()
    /// This boot of the machine (`/proc/sys/kernel/random/boot_id`): the write-ahead mode tells
    /// a crash of the process (the OS kept every write) from a power failure by it. Nil when
    /// unknown, which recovers as after a power failure. Tests that model one set another.
    public var bootID: String? = MachineBoot.id

    /// Checkpoints of the write-ahead mode after this many commits at most (tests make them frequent).
    public var writeAheadCommitsPerCheckpointMax: Int {
        get { writeAheadPolicy.commitsPerCheckpointMax }
        set { writeAheadPolicy.commitsPerCheckpointMax = newValue }
    }

    /// The write-ahead mode starts the writeback of LMDB's pages after this many commits; 0
    /// leaves them all to its checkpoints' syncs. The bench compares settings.
    public var writeAheadCommitsPerWritebackStart: Int {
        get { writeAheadPolicy.commitsPerWritebackStart }
        set { writeAheadPolicy.commitsPerWritebackStart = newValue }
    }

    /// The index tail (docs/decisions/0008, 0017): while appends wait behind each other, up to
    /// `indexTail.eventsMax` events' `streams`, `categories`, `types` and `tags` entries are
    /// written together in a later commit; readers find those events from their records
    /// meanwhile. 0 writes each event's entries in its own commit, and then the writer's process
    /// reads no tail at all.
    public var indexTail = IndexTailPolicy()

    /// The defaults: read-write, durable, 1 GiB initial map.
    public init() {}
}
