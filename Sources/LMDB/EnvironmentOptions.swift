/// How an `Environment` is opened. Limits carry their unit in the name.
public struct EnvironmentOptions: Sendable {
    /// Initial size of the memory map. It is virtual address space, not disk: the data file
    /// only grows as pages are written, so a generous start costs nothing.
    public var mapSizeBytes: Int
    /// The map never grows beyond this; a write that would need more fails with `.mapFull`.
    public var mapSizeMaxBytes: Int
    /// Slots in the reader table, shared by every process that opens the environment.
    public var readersMax: UInt32
    /// Named databases the environment may hold.
    public var databasesMax: UInt32
    /// Open without write access: for operator tools reading a directory a server writes to.
    public var readOnly: Bool
    /// Sync the meta page on commit too (two fsyncs). Without it (`MDB_NOMETASYNC`) a commit costs
    /// one fsync and the database stays consistent, but a power failure may undo the last commit:
    /// right for data that can be rebuilt, such as read models, never for the event log.
    public var syncMetaPage: Bool
    /// Skip fsync on commit. Only for tests and benchmarks that measure the rest of the path;
    /// a server must never set it, because acknowledged writes could be lost on power failure.
    public var unsafeNoSync: Bool

    /// Options for a read-write environment with defaults sized for an event log.
    public init(
        mapSizeBytes: Int = 1 << 30,
        mapSizeMaxBytes: Int = 1 << 40,
        readersMax: UInt32 = 512,
        databasesMax: UInt32 = 32,
        readOnly: Bool = false,
        syncMetaPage: Bool = true,
        unsafeNoSync: Bool = false
    ) {
        precondition(mapSizeBytes > 0 && mapSizeBytes <= mapSizeMaxBytes, "map size out of range")
        self.mapSizeBytes = mapSizeBytes
        self.mapSizeMaxBytes = mapSizeMaxBytes
        self.readersMax = readersMax
        self.databasesMax = databasesMax
        self.readOnly = readOnly
        self.syncMetaPage = syncMetaPage
        self.unsafeNoSync = unsafeNoSync
    }
}
