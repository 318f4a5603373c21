import CLMDB

/// A cursor of a write transaction that stores and removes, valid only inside `WriteTransaction.withWriteCursor`.
///
/// `mdb_put` searches from the root of the B-tree for every key. A cursor stays on the leaf page
/// of its last put, and LMDB looks there first: keys put in order land mostly on the page the
/// cursor is on, or near it, where the search reads pages the processor still has in its cache.
public struct WriteCursor {
    let pointer: OpaquePointer
    let transaction: Transaction

    /// Stores the bytes of `value` under `key` (replacing any value there) and stays on it;
    /// throws `.keySize` for a key LMDB cannot store.
    public mutating func put(keyBytes key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws {
        try transaction.checkKey(key)
        var keyValue = MDB_val(bytes: key)
        var data = MDB_val(bytes: value)
        try check(mdb_cursor_put(pointer, &keyValue, &data, 0))
    }

    /// Removes `key` and its value when stored, and stays there; false when it was not. Throws
    /// `.keySize` for a key LMDB cannot store.
    @discardableResult
    public mutating func delete(keyBytes key: UnsafeRawBufferPointer) throws -> Bool {
        try transaction.checkKey(key)
        var keyValue = MDB_val(bytes: key)
        var data = MDB_val()
        let status = mdb_cursor_get(pointer, &keyValue, &data, MDB_SET)
        if status == MDB_NOTFOUND { return false }
        try check(status)
        try check(mdb_cursor_del(pointer, 0))
        return true
    }
}

extension WriteTransaction {
    /// Opens a cursor on `database` that stores (`WriteCursor.put`, `delete`) for the duration of `body`.
    public func withWriteCursor<T>(_ database: Database, _ body: (inout WriteCursor) throws -> T) throws -> T {
        var raw: OpaquePointer?
        try check(mdb_cursor_open(reader.pointer, database.handle, &raw))
        guard let raw else { throw LMDBError.badTransaction }
        defer { mdb_cursor_close(raw) }
        var cursor = WriteCursor(pointer: raw, transaction: reader)
        return try body(&cursor)
    }
}
