/// A snapshot of an environment's size and reader use, from `mdb_env_info` and `mdb_env_stat`.
public struct EnvironmentInfo: Sendable, Equatable {
    /// The current size of the memory map.
    public let mapSizeBytes: Int
    /// The highest page number in use; `(lastPageNumber + 1) * pageSizeBytes` is the used size.
    public let lastPageNumber: Int
    /// The id of the last committed write transaction.
    public let lastTransactionID: Int
    /// Slots in the reader table.
    public let readersMax: UInt32
    /// Slots in use, across all processes.
    public let readersUsed: UInt32
    /// The database page size.
    public let pageSizeBytes: Int

    /// Bytes of the map that hold pages (used or free-listed).
    public var usedBytes: Int { (lastPageNumber + 1) * pageSizeBytes }
}

/// B-tree statistics of one named database, from `mdb_stat`.
public struct DatabaseStatistics: Sendable, Equatable {
    /// Height of the B-tree.
    public let depth: UInt32
    /// Internal (non-leaf) pages.
    public let branchPages: Int
    /// Leaf pages.
    public let leafPages: Int
    /// Pages holding values too large for a leaf.
    public let overflowPages: Int
    /// Key/value pairs stored.
    public let entries: Int

    /// All pages the database occupies.
    public var pages: Int { branchPages + leafPages + overflowPages }
}
