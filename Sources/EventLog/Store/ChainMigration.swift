import LMDB

extension LogDatabases {
    /// Computes the chain of a log written before it (format 1) and stamps this build's format, all
    /// in one write transaction: a crash leaves either the old log or the whole chain, never a
    /// part. Running it again (after a crash, before the commit) starts over from an empty
    /// `chain`. Records are never rewritten; the chain hashes them as they are stored.
    func migrateToChain(_ environment: Environment) throws(EventLogError) {
        guard let chain else { throw .readOnly }
        try LogDatabases.mapStorage {
            // A retried transaction (the map grew) runs this closure again from the start.
            try environment.write { txn in
                try txn.clear(chain)
                var previous = ChainHash.genesis
                // Entries of up to 1,000 hashes, as appends of that size write them.
                var first: UInt64 = 0
                var hashes = [UInt8]()
                try txn.withCursor(events) { cursor in
                    var entry = try cursor.first()
                    while let current = entry {
                        if hashes.isEmpty { first = IndexKeys.uint64(current.key) }
                        previous = ChainHash.after(previous, record: current.value)
                        hashes += previous
                        if hashes.count == 1_000 * ChainHash.bytes {
                            try txn.put(chain, IndexKeys.position(first), hashes, flags: .append)
                            hashes.removeAll(keepingCapacity: true)
                        }
                        entry = try cursor.next()
                    }
                }
                if !hashes.isEmpty { try txn.put(chain, IndexKeys.position(first), hashes, flags: .append) }
                try txn.put(meta, LogDatabases.formatKey, LogDatabases.formatValue)
            }
        }
    }
}
