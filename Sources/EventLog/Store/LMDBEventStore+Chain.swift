import LMDB

extension LMDBEventStore {
    /// The log's chain head: its last position and the chain hash there, read in one snapshot
    /// (position 0 and 32 zero bytes for an empty log). Nil when the store was opened read-only
    /// on a log written before the chain, which has none until a writable open migrates it.
    public func chainHead() throws(EventLogError) -> ChainHead? {
        try Self.chainHead(environment, databases)
    }

    static func chainHead(_ environment: Environment, _ databases: LogDatabases) throws(EventLogError) -> ChainHead? {
        guard let chain = databases.chain else { return nil }
        return try LogDatabases.mapStorage {
            try environment.read { txn in
                let lastEvent = try txn.withCursor(databases.events) { try $0.last().map { IndexKeys.uint64($0.key) } }
                // The last entry's last hash, and the position it is for.
                let lastHash = try txn.withCursor(chain) { cursor in
                    try cursor.last().map { entry in
                        let count = UInt64(entry.value.count / ChainHash.bytes)
                        return (IndexKeys.uint64(entry.key) + count - 1, Array(entry.value.suffix(ChainHash.bytes)))
                    }
                }
                switch (lastEvent, lastHash) {
                case (nil, nil):
                    return ChainHead(position: 0, hash: ChainHash.genesis)
                case let (position?, (hashPosition, hash)?) where position == hashPosition && hash.count == ChainHash.bytes:
                    return ChainHead(position: position, hash: hash)
                default:
                    throw EventLogError.corruptRecord(
                        position: lastEvent ?? 0,
                        reason: "the chain ends at \(lastHash.map { "position \($0.0)" } ?? "nothing"), not at the last event"
                    )
                }
            }
        }
    }

    /// Calls `body` with every stored record up to `position` (inclusive), oldest first, its
    /// bytes exactly as stored and the chain hash stored beside it (nil when there is none), in
    /// one snapshot: what an independent verifier needs (`logbook-admin records`). The bytes
    /// are valid only during the call. Returns the last position passed to `body`.
    @discardableResult
    public func forEachRecord(
        upTo position: UInt64 = .max, _ body: (UInt64, UnsafeRawBufferPointer, [UInt8]?) throws -> Void
    ) throws -> UInt64 {
        try environment.read { txn in
            var chain = databases.chain.map { ChainReader(chain: $0, txn: txn) }
            return try txn.withCursor(databases.events) { cursor in
                var last: UInt64 = 0
                var entry = try cursor.first()
                while let current = entry, current.key.count == 8, IndexKeys.uint64(current.key) <= position {
                    last = IndexKeys.uint64(current.key)
                    let hash = try chain?.hash(at: last)
                    try body(last, current.value, hash)
                    entry = try cursor.next()
                }
                return last
            }
        }
    }
}
