import CLMDB

/// A read transaction held open only so that LMDB never reuses a page of its snapshot: LMDB
/// recycles a freed page once every reader's snapshot is newer than the transaction that freed
/// it. Nothing is ever read through it (so a map resize under it is harmless: it holds no
/// pointer into the map). The event log's write-ahead mode pins its last checkpoint this way, so
/// the disk keeps that snapshot whole until the next checkpoint.
public final class PinnedSnapshot: @unchecked Sendable {
    private var txn: OpaquePointer?
    /// The pinned snapshot's transaction id.
    public let transactionID: Int

    init(txn: OpaquePointer) {
        self.txn = txn
        transactionID = Int(mdb_txn_id(txn))
    }

    /// Lets LMDB reuse the snapshot's pages. Calling it again does nothing.
    public func release() {
        // MDB_NOTLS: a read transaction may end on any thread.
        if let txn { mdb_txn_abort(txn) }
        txn = nil
    }

    deinit {
        release()
    }
}

extension Environment {
    /// Pins the snapshot of the last committed transaction until `release()`.
    public func pinSnapshot() throws(LMDBError) -> PinnedSnapshot {
        while true {
            var txn: OpaquePointer?
            let status = beginReadOnly(&txn)
            if status == MDB_MAP_RESIZED {
                do { try read { _ in } } catch { throw LMDBError.mapResized }
                continue
            }
            try check(status)
            guard let txn else { throw LMDBError.badTransaction }
            return PinnedSnapshot(txn: txn)
        }
    }
}
