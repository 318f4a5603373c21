import LMDB

/// Reads stored chain hashes by position. The `chain` database holds one entry per append: key
/// the append's first position, value the hashes of its events in order (32 bytes each), so a
/// bulk append costs one put, not one per event. Sequential reads stay within a cached entry.
struct ChainReader {
    let chain: Database
    let txn: Transaction
    /// The entry last read: its first position and its hashes.
    private var cached: (first: UInt64, hashes: [UInt8])?

    init(chain: Database, txn: Transaction) {
        self.chain = chain
        self.txn = txn
    }

    /// The hash stored for `position`, or nil when no entry covers it.
    mutating func hash(at position: UInt64) throws -> [UInt8]? {
        if let cached, let hash = Self.hash(at: position, in: cached) { return hash }
        let found = try txn.withCursor(chain) { cursor in
            try cursor.seek(atOrBefore: IndexKeys.position(position)).map { (IndexKeys.uint64($0.key), Array($0.value)) }
        }
        guard let found, found.1.count % ChainHash.bytes == 0 else { return nil }
        cached = found
        return Self.hash(at: position, in: found)
    }

    private static func hash(at position: UInt64, in entry: (first: UInt64, hashes: [UInt8])) -> [UInt8]? {
        guard position >= entry.first else { return nil }
        let offset = (position - entry.first) * UInt64(ChainHash.bytes)
        guard offset + UInt64(ChainHash.bytes) <= UInt64(entry.hashes.count) else { return nil }
        return Array(entry.hashes[Int(offset)..<Int(offset) + ChainHash.bytes])
    }
}
