import CLMDB

extension WriteTransaction {
    /// Runs `body` in a transaction nested in this one (`mdb_txn_begin` with this one as
    /// parent). When `body` returns, its writes become this transaction's; when it throws, they
    /// are undone and this transaction goes on as if `body` had never run. This transaction must
    /// not be used while `body` runs (LMDB's rule): `body` gets the nested one to use instead.
    public func nested<T>(_ body: (WriteTransaction) throws -> T) throws -> T {
        var child: OpaquePointer?
        try check(mdb_txn_begin(mdb_txn_env(reader.pointer), reader.pointer, 0, &child))
        guard let child else { throw LMDBError.badTransaction }
        let result: T
        do {
            result = try body(WriteTransaction(pointer: child, keyBytesMax: keyBytesMax))
        } catch {
            mdb_txn_abort(child)
            throw error
        }
        // mdb_txn_commit frees the nested transaction whether or not it succeeds.
        try check(mdb_txn_commit(child))
        return result
    }
}
